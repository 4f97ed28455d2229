package client

import (
	"sync"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
)

// LateEditor is the Editor of a page whose Monaco is still loading: the
// connections can dial and initialize meanwhile, and what they hand the
// editor waits here until Resolve gives it the real one, which then gets
// the calls in their order. Calls that a later one makes moot are
// dropped on the way, so the editor ends in the same state as if it had
// been there from the start: a provider replaced or disposed before
// resolution leaves only its last call, an Ended drops everything its
// connection queued, a suppression snapshot replaces the previous one.
// Apply waits for the editor. After Fail nothing reaches any editor.
type LateEditor struct {
	mu        sync.Mutex
	editor    Editor // set once the queue has drained
	resolving bool   // Resolve has begun replaying
	failed    bool
	queue     []lateCall
	settled   chan struct{} // closed by Resolve (after the replay) or Fail
}

// lateCall is one queued Editor call: Provider (lang, f, opts), Ended
// (ended), Refresh (refresh, f) or Suppress (conn "", opts the snapshot).
type lateCall struct {
	_                noCompare
	conn, lang, opts string
	f                features.Feature
	ended, refresh   bool
}

// moots reports whether c makes the queued call q moot: a later
// registration of the same provider, an Ended of its connection, a later
// snapshot.
func (c lateCall) moots(q lateCall) bool {
	if q.conn != c.conn {
		return false
	}
	return c.ended || (!c.refresh && !q.refresh && !q.ended && q.lang == c.lang && q.f == c.f)
}

// to makes the call on e.
func (c lateCall) to(e Editor) {
	switch {
	case c.ended:
		e.Ended(c.conn)
	case c.refresh:
		e.Refresh(c.conn, c.f)
	case c.conn == "":
		e.Suppress(c.opts)
	default:
		e.Provider(c.conn, c.lang, c.f, c.opts)
	}
}

// NewLateEditor returns an editor that queues until Resolve or Fail.
func NewLateEditor() *LateEditor {
	return &LateEditor{settled: make(chan struct{})}
}

// push queues call, dropping the queued calls it makes moot, or makes it
// at once once the editor is there.
func (l *LateEditor) push(call lateCall) {
	l.mu.Lock()
	e := l.editor
	if e == nil && !l.failed {
		kept := l.queue[:0]
		for _, q := range l.queue {
			if !call.moots(q) {
				kept = append(kept, q)
			}
		}
		l.queue = append(kept, call)
	}
	l.mu.Unlock()
	if e != nil {
		call.to(e)
	}
}

// Provider implements Editor.
func (l *LateEditor) Provider(connID, languageID string, f features.Feature, optionsJSON string) {
	l.push(lateCall{conn: connID, lang: languageID, f: f, opts: optionsJSON})
}

// Ended implements Editor.
func (l *LateEditor) Ended(connID string) { l.push(lateCall{conn: connID, ended: true}) }

// Refresh implements Editor.
func (l *LateEditor) Refresh(connID string, f features.Feature) {
	l.push(lateCall{conn: connID, f: f, refresh: true})
}

// Suppress implements Editor: each snapshot is the whole state.
func (l *LateEditor) Suppress(snapshot string) { l.push(lateCall{opts: snapshot}) }

// Apply implements Editor: it waits for the editor, or for ctx.
func (l *LateEditor) Apply(ctx ctxlite.Context, plan string) (bool, string) {
	select {
	case <-l.settled:
	case <-ctx.Done():
		return false, "the editor did not load in time"
	}
	l.mu.Lock()
	e := l.editor
	l.mu.Unlock()
	if e == nil {
		return false, "the editor did not load"
	}
	return e.Apply(ctx, plan)
}

// Resolve hands over the editor: the queued calls are replayed in order
// (calls arriving meanwhile queue behind them), then every call goes
// straight to e. It does nothing after Resolve or Fail.
func (l *LateEditor) Resolve(e Editor) {
	l.mu.Lock()
	if l.resolving || l.failed {
		l.mu.Unlock()
		return
	}
	l.resolving = true
	l.mu.Unlock()
	for {
		l.mu.Lock()
		if l.failed {
			l.mu.Unlock()
			return
		}
		q := l.queue
		l.queue = nil
		if len(q) == 0 {
			l.editor = e
			close(l.settled)
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		for _, c := range q {
			c.to(e)
		}
	}
}

// Fail drops the queue for good: the editor will never come. It does
// nothing after Resolve.
func (l *LateEditor) Fail() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.editor != nil || l.failed {
		return
	}
	l.failed, l.queue = true, nil
	close(l.settled)
}
