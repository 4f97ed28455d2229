//go:build linux

package stream

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// TestNoGoroutineLeak runs sessions to each kind of end and checks that the
// goroutine count returns to where it was. It is not parallel, so the other
// tests (all parallel) are paused while it runs.
func TestNoGoroutineLeak(t *testing.T) {
	base := runtime.NumGoroutine()
	func() {
		f := newFixture(t, "exec cat")
		c, _ := readReady(t, f)
		require.NoError(t, c.Write(testCtx(t), websocket.MessageText, []byte("{}")))
		_, _, err := c.Read(testCtx(t))
		require.NoError(t, err)
		require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))

		c, _ = readReady(t, f)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- f.h.Shutdown(ctx) }() // the close handshake needs our read
		closeStatus(t, c)
		require.NoError(t, <-done)
		c.CloseNow()
		f.srv.Close()

		g := newFixture(t, "exit 3")
		c, _ = readReady(t, g)
		closeStatus(t, c)
		c.CloseNow()
		require.NoError(t, g.h.Shutdown(ctx))
		g.srv.Close()

		// Installs: one that completes and bridges, one cancelled by a
		// disconnect, one failed; the pending read and the watcher of each
		// must be gone with the session.
		k := newInstallFixture(t, "ok")
		c = k.dialLang(t, "typescript", true)
		requireStatuses(t, c, "typescript", wire.StatusInstalling, wire.StatusInstalled, wire.StatusReady)
		initialize(t, c, 1)
		require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
		require.NoError(t, os.RemoveAll(k.cache))
		k.mode(t, "hang")
		c = k.dialLang(t, "typescript", true)
		requireStatuses(t, c, "typescript", wire.StatusInstalling)
		k.installerPids(t)
		c.CloseNow()
		k.mode(t, "fail")
		c = k.dialLang(t, "typescript", true)
		requireStatuses(t, c, "typescript", wire.StatusInstalling, wire.StatusInstallFailed)
		closeStatus(t, c)
		c.CloseNow()
		require.NoError(t, k.h.Shutdown(ctx))
		k.srv.Close()
	}()
	// http.Client keep-alive and the test servers' goroutines wind down
	// asynchronously; poll rather than sleep.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for runtime.NumGoroutine() > base {
		select {
		case <-ctx.Done():
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines: %d, was %d\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		case <-time.After(10 * time.Millisecond):
		}
	}
}
