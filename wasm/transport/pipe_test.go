package transport

import (
	"context"
	"errors"
	"testing"
	"time"
)

// What one end writes the other reads, whole; a close with a code reaches
// the reader as that code and makes later writes fail.
func TestPipe(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, b := Pipe()
	msg := []byte(`{"jsonrpc":"2.0"}`)
	if err := a.Write(ctx, msg); err != nil {
		t.Fatal(err)
	}
	msg[0] = 'x' // the pipe holds its own copy
	got, err := b.Read(ctx)
	if err != nil || string(got) != `{"jsonrpc":"2.0"}` {
		t.Fatalf("Read = %q, %v", got, err)
	}
	b.CloseWith(4006)
	var ce *CloseError
	if _, err := a.Read(ctx); !errors.As(err, &ce) || ce.Code != 4006 {
		t.Fatalf("Read after close = %v, want close code 4006", err)
	}
	if err := a.Write(ctx, msg); err == nil {
		t.Fatal("Write after close succeeded")
	}
}
