package replay

import (
	"fmt"
	"testing"
)

func frames(b *Buffer, n uint64) []string {
	fs, ok := b.Since(n)
	if !ok {
		return nil
	}
	out := []string{}
	for _, f := range fs {
		out = append(out, string(f))
	}
	return out
}

func TestSinceGivesWhatThePeerMissed(t *testing.T) {
	b := New(1<<20, 100)
	for i := 1; i <= 5; i++ {
		b.Push([]byte(fmt.Sprint(i)))
	}
	b.Ack(2)
	if got := fmt.Sprint(frames(b, 3)); got != "[4 5]" {
		t.Fatalf("Since(3) = %s, want [4 5]", got)
	}
	// Since acknowledged 3: 2 is no longer there to give.
	if _, ok := b.Since(2); ok {
		t.Fatal("Since(2) after Since(3) = ok, want the gap reported")
	}
	if _, ok := b.Since(6); ok {
		t.Fatal("Since(6) of 5 sent = ok, want refused")
	}
	if got := fmt.Sprint(frames(b, 5)); got != "[]" {
		t.Fatalf("Since(5) = %s, want []", got)
	}
}

func TestPushCopies(t *testing.T) {
	b := New(1<<20, 100)
	f := []byte("abc")
	b.Push(f)
	f[0] = 'x'
	if got := frames(b, 0); got[0] != "abc" {
		t.Fatalf("kept %q, want the frame as it was pushed", got[0])
	}
}

func TestAckOutsideRangeChangesNothing(t *testing.T) {
	b := New(1<<20, 100)
	b.Push([]byte("a"))
	b.Push([]byte("b"))
	b.Ack(7) // more than was sent
	b.Ack(1)
	b.Ack(0) // behind
	if got := fmt.Sprint(frames(b, 1)); got != "[b]" {
		t.Fatalf("Since(1) = %s, want [b]", got)
	}
}

func TestOverflowByFramesAndBytes(t *testing.T) {
	b := New(1<<20, 2)
	b.Push([]byte("a"))
	b.Push([]byte("b"))
	b.Push([]byte("c"))
	if !b.Overflowed() || b.Sent() != 3 {
		t.Fatalf("Overflowed %v Sent %d, want true 3", b.Overflowed(), b.Sent())
	}
	if _, ok := b.Since(3); ok {
		t.Fatal("Since after an overflow = ok, want the gap reported")
	}
	b.Push([]byte("d"))
	if b.Sent() != 4 {
		t.Fatalf("Sent = %d after an overflow, want numbering to go on (4)", b.Sent())
	}

	b = New(10, 100)
	b.Push([]byte("12345"))
	b.Ack(1)
	b.Push([]byte("1234567890")) // fits once the first is acknowledged
	if b.Overflowed() {
		t.Fatal("overflowed although acknowledged frames free their bytes")
	}
	b.Push([]byte("x"))
	if !b.Overflowed() {
		t.Fatal("11 bytes kept of 10 allowed, want an overflow")
	}
}
