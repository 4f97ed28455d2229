//go:build js && wasm

package jsbind

import (
	"errors"
	"sync"
	"sync/atomic"
)

// liveFuncs counts js.Funcs created and not yet released, for tests.
var liveFuncs atomic.Int64

var errReleased = errors.New("jsbind: function set already released")

// funcSet owns the js.Funcs of one socket or document and releases them
// together.
type funcSet struct {
	mu       sync.Mutex
	fns      []jsFunc
	released bool
}

// add wraps fn as a JavaScript function owned by the set.
func (s *funcSet) add(fn func(this jsValue, args []jsValue) any) (jsValue, error) {
	f, err := jsFuncOf(fn)
	if err != nil {
		return jsUndefined(), err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.released {
		f.Release()
		return jsUndefined(), errReleased
	}
	liveFuncs.Add(1)
	s.fns = append(s.fns, f)
	return f.Value(), nil
}

// release releases every function; later adds fail.
func (s *funcSet) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.released {
		return
	}
	s.released = true
	for _, f := range s.fns {
		f.Release()
	}
	liveFuncs.Add(-int64(len(s.fns)))
	s.fns = nil
}

// releaseWhen releases the set from a goroutine once done is closed. The
// goroutine, not the closing callback itself, releases: a callback must not
// release the function that is running it.
func (s *funcSet) releaseWhen(done <-chan struct{}) {
	go func() {
		<-done
		s.release()
	}()
}
