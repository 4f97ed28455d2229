package watch

import "github.com/kandev/lsp/internal/wire"

// batch is a set of pending changes, one per path, in the order the paths
// first changed, each coalesced to its net effect.
type batch struct {
	order []string
	types map[string]int // 0: the path's changes cancelled out
	live  int            // entries with a type
}

// merged is the net change of a path that changed as prev (0: none yet,
// or cancelled out) and then as next:
//
//	created, then changed          created (the server reads it whole anyway)
//	created, then deleted          nothing (it was not there before)
//	deleted, then created/changed  changed (an editor's save by rename)
//	changed, then deleted          deleted
//	anything, then the same        that
func merged(prev, next int) int {
	switch {
	case prev == 0 || prev == next:
		return next
	case prev == wire.FileCreated && next == wire.FileDeleted:
		return 0
	case prev == wire.FileCreated:
		return wire.FileCreated
	case next == wire.FileDeleted:
		return wire.FileDeleted
	}
	return wire.FileChanged
}

// add records one change.
func (b *batch) add(path string, typ int) {
	if b.types == nil {
		b.types = make(map[string]int)
	}
	prev, seen := b.types[path]
	if !seen {
		b.order = append(b.order, path)
	}
	t := merged(prev, typ)
	b.types[path] = t
	switch {
	case prev == 0 && t != 0:
		b.live++
	case prev != 0 && t == 0:
		b.live--
	}
}

// empty reports whether nothing is pending.
func (b *batch) empty() bool { return b.live == 0 }

// take removes and returns up to max pending changes, oldest first.
func (b *batch) take(max int) []wire.FileChange {
	out := make([]wire.FileChange, 0, min(b.live, max))
	i := 0
	for ; i < len(b.order) && len(out) < max; i++ {
		p := b.order[i]
		if t := b.types[p]; t != 0 {
			out = append(out, wire.FileChange{Path: p, Type: t})
			b.live--
		}
		delete(b.types, p)
	}
	b.order = b.order[i:]
	if len(b.order) == 0 {
		b.order = nil // let a large backing array go
	}
	return out
}
