// Package ctxlite is cancellation for lsp.wasm: the part of the standard
// context package the client uses (Done, Err, WithCancel, a timeout),
// without deadlines or values.
//
// lsp.wasm does not import the standard package: its Context.Deadline
// returns a time.Time through an interface, which keeps
// the time package's formatting and parsing, and it brings the time
// package itself (see package clock). A standard context.Context still
// satisfies Context, so tests and callers may pass one.
package ctxlite

import (
	"errors"
	"sync"

	"github.com/kandev/lsp/wasm/clock"
)

// Context carries cancellation across API boundaries and goroutines.
type Context interface {
	// Done is closed when the work done on behalf of the context should
	// stop; nil if it can never be cancelled.
	Done() <-chan struct{}
	// Err is nil while Done is open, then why it closed.
	Err() error
}

// CancelFunc ends a context; calls after the first do nothing.
type CancelFunc func()

// Canceled is the error of a context ended by its CancelFunc.
var Canceled = errors.New("context canceled")

// Background is a context that is never cancelled.
func Background() Context { return background{} }

type background struct{}

func (background) Done() <-chan struct{} { return nil }
func (background) Err() error            { return nil }

// WithCancel returns a context that ends when cancel is called or parent
// ends, whichever is first, with parent's error in the second case. Call
// cancel when the work is done, to release what ties it to parent.
func WithCancel(parent Context) (Context, CancelFunc) {
	c := &cancelCtx{done: make(chan struct{})}
	c.attach(parent)
	return c, func() { c.cancel(Canceled, true) }
}

// WithTimeout is WithCancel that also ends after d (with Canceled: no code
// here tells a timeout from a cancellation).
func WithTimeout(parent Context, d clock.Duration) (Context, CancelFunc) {
	ctx, cancel := WithCancel(parent)
	t := clock.AfterFunc(d, cancel)
	return ctx, func() {
		t.Stop()
		cancel()
	}
}

type cancelCtx struct {
	done chan struct{}

	mu       sync.Mutex
	err      error
	parent   *cancelCtx // to be removed from when cancelled first
	children map[*cancelCtx]struct{}
}

func (c *cancelCtx) Done() <-chan struct{} { return c.done }

func (c *cancelCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// attach makes c end with parent: a child of this package's contexts is
// registered with it; any other parent is watched by a goroutine that
// stops when either ends.
func (c *cancelCtx) attach(parent Context) {
	if p, ok := parent.(*cancelCtx); ok {
		p.mu.Lock()
		if err := p.err; err != nil {
			p.mu.Unlock()
			c.cancel(err, false)
			return
		}
		if p.children == nil {
			p.children = make(map[*cancelCtx]struct{})
		}
		p.children[c] = struct{}{}
		c.parent = p
		p.mu.Unlock()
		return
	}
	pd := parent.Done()
	if pd == nil {
		return
	}
	select {
	case <-pd:
		c.cancel(parent.Err(), false)
		return
	default:
	}
	go func() {
		select {
		case <-pd:
			c.cancel(parent.Err(), false)
		case <-c.done:
		}
	}()
}

// cancel ends c and its children with err; detach removes c from its
// parent (not needed when the parent is the one ending it).
func (c *cancelCtx) cancel(err error, detach bool) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	close(c.done)
	children := c.children
	c.children = nil
	parent := c.parent
	c.parent = nil
	c.mu.Unlock()
	for child := range children {
		child.cancel(err, false)
	}
	if detach && parent != nil {
		parent.mu.Lock()
		delete(parent.children, c)
		parent.mu.Unlock()
	}
}
