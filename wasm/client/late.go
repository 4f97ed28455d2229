package client

import (
	"context"
	"sync"

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

// lateCall is one queued Editor call; key names what a later call of the
// same key replaces ("" replaces nothing).
type lateCall struct {
	conn, key string
	do        func(Editor)
}

// NewLateEditor returns an editor that queues until Resolve or Fail.
func NewLateEditor() *LateEditor {
	return &LateEditor{settled: make(chan struct{})}
}

// push queues call, dropping the queued calls it makes moot, or returns
// the editor to call at once. ended drops every call of call.conn.
func (l *LateEditor) push(call lateCall, ended bool) Editor {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.editor != nil || l.failed {
		return l.editor
	}
	kept := l.queue[:0]
	for _, q := range l.queue {
		if (ended && q.conn == call.conn) || (call.key != "" && q.conn == call.conn && q.key == call.key) {
			continue
		}
		kept = append(kept, q)
	}
	l.queue = append(kept, call)
	return nil
}

// Provider implements Editor.
func (l *LateEditor) Provider(connID, languageID string, f features.Feature, optionsJSON string) {
	do := func(e Editor) { e.Provider(connID, languageID, f, optionsJSON) }
	if e := l.push(lateCall{conn: connID, key: languageID + "\x00" + f.String(), do: do}, false); e != nil {
		do(e)
	}
}

// Ended implements Editor.
func (l *LateEditor) Ended(connID string) {
	do := func(e Editor) { e.Ended(connID) }
	if e := l.push(lateCall{conn: connID, do: do}, true); e != nil {
		do(e)
	}
}

// Refresh implements Editor.
func (l *LateEditor) Refresh(connID string, f features.Feature) {
	do := func(e Editor) { e.Refresh(connID, f) }
	if e := l.push(lateCall{conn: connID, do: do}, false); e != nil {
		do(e)
	}
}

// Suppress implements Editor: each snapshot is the whole state.
func (l *LateEditor) Suppress(snapshot string) {
	do := func(e Editor) { e.Suppress(snapshot) }
	if e := l.push(lateCall{key: "suppress", do: do}, false); e != nil {
		do(e)
	}
}

// Apply implements Editor: it waits for the editor, or for ctx.
func (l *LateEditor) Apply(ctx context.Context, plan string) (bool, string) {
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
			c.do(e)
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
