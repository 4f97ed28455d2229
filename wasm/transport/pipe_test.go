package transport

import (
	"errors"
	"testing"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
)

// What one end writes the other reads, whole; a close with a code reaches
// the reader as that code and makes later writes fail.
func TestPipe(t *testing.T) {
	ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 5*clock.Second)
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
