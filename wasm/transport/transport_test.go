package transport

import (
	"errors"
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/stretchr/testify/require"
)

func TestInboxOrderThenClose(t *testing.T) {
	t.Parallel()
	in := NewInbox()
	in.Push([]byte("a"))
	in.Push([]byte("b"))
	in.Close(4006)
	in.Push([]byte("late"))
	in.Close(1000)

	ctx := ctxlite.Background()
	for _, want := range []string{"a", "b"} {
		got, err := in.Read(ctx)
		require.NoError(t, err)
		require.Equal(t, want, string(got))
	}
	_, err := in.Read(ctx)
	var ce *CloseError
	require.True(t, errors.As(err, &ce))
	require.Equal(t, 4006, ce.Code)
	require.False(t, ce.Normal())
	select {
	case <-in.Done():
	default:
		t.Fatal("Done not closed")
	}
}

func TestInboxReadWaitsForPush(t *testing.T) {
	t.Parallel()
	in := NewInbox()
	got := make(chan string)
	go func() {
		f, err := in.Read(ctxlite.Background())
		if err != nil {
			got <- err.Error()
			return
		}
		got <- string(f)
	}()
	in.Push([]byte("x"))
	require.Equal(t, "x", <-got)
}

func TestInboxReadContext(t *testing.T) {
	t.Parallel()
	in := NewInbox()
	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	cancel()
	_, err := in.Read(ctx)
	require.ErrorIs(t, err, ctxlite.Canceled)
}
