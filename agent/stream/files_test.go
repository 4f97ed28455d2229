//go:build linux

package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/watch"
	"github.com/kandev/lsp/internal/wire"
)

// watchedFixture is an echo-server fixture whose workspace is watched,
// with a short coalescing window.
func watchedFixture(t *testing.T) (*fixture, *watch.Watcher) {
	t.Helper()
	var w *watch.Watcher
	f := newFixture(t, "exec cat", func(c *Config) {
		w = watch.New(c.Workspace.Dir(), watch.Options{Interval: 20 * time.Millisecond})
		c.Watch = w
	})
	t.Cleanup(w.Close)
	return f, w
}

// After ready, a change on disk reaches the peer as one files frame. It
// never reaches the server: the echo server would send it back, and the
// next message after it is the echo of what the peer sent, byte for byte.
func TestFilesFramesReachThePeerNotTheServer(t *testing.T) {
	t.Parallel()
	f, _ := watchedFixture(t)
	c, _ := readReady(t, f)

	require.NoError(t, os.MkdirAll(filepath.Join(f.ws, "greet"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(f.ws, "greet", "greet.go"), []byte("package greet\n"), 0o644))
	got := map[string]int{}
	for got["greet/greet.go"] != wire.FileCreated {
		_, b, err := c.Read(testCtx(t))
		require.NoError(t, err)
		require.True(t, wire.IsFilesFrame(b), "only files frames before anything is sent: %s", b)
		require.True(t, strings.HasPrefix(string(b), `{"files":[{"path":"greet`), "%s", b)
		var fr wire.Files
		require.NoError(t, json.Unmarshal(b, &fr))
		for _, ch := range fr.Files {
			got[ch.Path] = ch.Type
		}
	}
	require.Equal(t, map[string]int{"greet": wire.FileCreated, "greet/greet.go": wire.FileCreated}, got)

	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"files":[1]}}`)
	require.NoError(t, c.Write(testCtx(t), websocket.MessageText, msg))
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.Equal(t, string(msg), string(b))
}

// Files frames and the server's messages share the socket: under a
// stream of large messages and a stream of changes, every message arrives
// whole, in order, byte for byte, and every frame is one or the other.
func TestFilesFramesInterleaveWithMessages(t *testing.T) {
	t.Parallel()
	f, _ := watchedFixture(t)
	c, _ := readReady(t, f)
	ctx := testCtx(t)

	const n = 40
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			_ = os.WriteFile(filepath.Join(f.ws, fmt.Sprintf("f%d.go", i%7)), []byte("package f"), 0o644)
			time.Sleep(2 * time.Millisecond) // spread the changes over many windows
		}
	}()
	msg := func(i int) []byte {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"m","params":{"i":%d,"pad":"%s"}}`, i, bytes.Repeat([]byte{'x'}, 100<<10))
	}
	go func() {
		for i := range n {
			if c.Write(ctx, websocket.MessageText, msg(i)) != nil {
				return
			}
		}
	}()
	files := 0
	for i := 0; i < n; {
		_, b, err := c.Read(ctx)
		require.NoError(t, err)
		if wire.IsFilesFrame(b) {
			var fr wire.Files
			require.NoError(t, json.Unmarshal(b, &fr))
			files++
			continue
		}
		require.True(t, bytes.Equal(msg(i), b), "message %d arrived changed", i)
		i++
	}
	<-done
	// The changes were made: their frame comes, if it did not come
	// between the messages (they can all be echoed within one window).
	for files == 0 {
		_, b, err := c.Read(ctx)
		require.NoError(t, err)
		require.True(t, wire.IsFilesFrame(b), "after the messages only files frames come: %.80s", b)
		files++
	}
}

// The workspace is watched while streams are open, and no longer once the
// last has ended.
func TestWatchingEndsWithTheLastStream(t *testing.T) {
	t.Parallel()
	f, w := watchedFixture(t)
	a, _ := readReady(t, f)
	b, _ := readReady(t, f)
	require.Positive(t, w.Watched())
	require.NoError(t, a.Close(websocket.StatusNormalClosure, ""))
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	waitFor(t, func() bool { return w.Watched() == 0 })
}
