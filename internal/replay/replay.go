// Package replay keeps the data frames one side of a resumable stream has
// sent until the other side acknowledges them (wire's resume protocol), so
// that a socket lost with frames in flight can be followed by a new one
// that sends them again. It is used by the agent and by lsp.wasm alike,
// so it imports nothing.
package replay

// Buffer numbers the data frames sent (from 1) and keeps copies of those
// not yet acknowledged, within a bound. The zero value is not usable: use
// New. It is not safe for concurrent use; its owner orders sends with the
// writes they number.
type Buffer struct {
	maxBytes, maxFrames int
	kept                [][]byte // frames acked+1 … sent
	acked               uint64   // frames the peer has acknowledged
	bytes               int
	over                bool
}

// New returns a Buffer that keeps at most maxBytes in maxFrames frames.
func New(maxBytes, maxFrames int) *Buffer {
	return &Buffer{maxBytes: maxBytes, maxFrames: maxFrames}
}

// Push numbers frame, the next data frame sent, and keeps a copy of it. A
// frame that would take the buffer over its bound overflows it: from then
// on nothing is kept, and Since reports the gap.
func (b *Buffer) Push(frame []byte) {
	if b.over {
		b.acked++ // numbering goes on; nothing can be replayed
		return
	}
	if len(b.kept)+1 > b.maxFrames || b.bytes+len(frame) > b.maxBytes {
		b.over = true
		b.acked += uint64(len(b.kept)) + 1
		clear(b.kept)
		b.kept, b.bytes = nil, 0
		return
	}
	b.kept = append(b.kept, append([]byte(nil), frame...))
	b.bytes += len(frame)
}

// Sent is how many data frames have been pushed.
func (b *Buffer) Sent() uint64 { return b.acked + uint64(len(b.kept)) }

// Kept is how many frames are kept, sent and not yet acknowledged.
func (b *Buffer) Kept() int { return len(b.kept) }

// Overflowed reports whether a frame was sent that can no longer be
// replayed.
func (b *Buffer) Overflowed() bool { return b.over }

// Ack forgets the frames the peer says it has received (n of them); an n
// outside what was sent and not yet acknowledged changes nothing.
func (b *Buffer) Ack(n uint64) {
	if b.over || n <= b.acked || n > b.Sent() {
		return
	}
	drop := int(n - b.acked)
	for _, f := range b.kept[:drop] {
		b.bytes -= len(f)
	}
	clear(b.kept[:drop])
	b.kept = b.kept[drop:]
	b.acked = n
	if len(b.kept) == 0 {
		b.kept = nil // let the backing array go
	}
}

// Since returns the frames after the first n, those a peer that received n
// has not seen, oldest first, and acknowledges the first n. ok is false
// when they cannot all be given: the buffer overflowed, n is before what
// is kept, or n is more than was sent. The slices are the buffer's own.
func (b *Buffer) Since(n uint64) (frames [][]byte, ok bool) {
	if b.over || n < b.acked || n > b.Sent() {
		return nil, false
	}
	b.Ack(n)
	return b.kept, true
}
