package jsonrpc

import (
	"sync"

	"github.com/kandev/lsp/wasm/ctxlite"
)

// queue is an unbounded FIFO with one consumer. Pushing never blocks, so the
// reader goroutine never waits on a handler.
type queue[T any] struct {
	mu    sync.Mutex
	items []T
	ready chan struct{} // holds a token while items is non-empty
}

func newQueue[T any]() queue[T] {
	return queue[T]{ready: make(chan struct{}, 1)}
}

func (q *queue[T]) push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// wait returns every queued item, blocking until there is one or ctx ends.
func (q *queue[T]) wait(ctx ctxlite.Context) ([]T, bool) {
	for {
		q.mu.Lock()
		items := q.items
		q.items = nil
		q.mu.Unlock()
		if len(items) > 0 {
			return items, true
		}
		select {
		case <-q.ready:
		case <-ctx.Done():
			return nil, false
		}
	}
}
