package client

import (
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/stretchr/testify/require"
)

// A pair the Policy does not let connect is not dialed by Prepare either:
// the page's early connect follows the same auto-start rule as its editors.
func TestPrepareRespectsPolicy(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(c *Config) {
		c.Policy = policyFunc(func(string, wire.Language) bool { return false })
	})
	require.False(t, h.client.Prepare("s", wire.Go))
	noDial(t, h)
	_, seen := h.client.Status("s", wire.Go)
	require.False(t, seen, "a refused Prepare records nothing")
	require.False(t, h.client.Prepare("s", "cobol"))
}

// Prepare dials an off pair with no document; the server initializes
// before any editor exists, and a document opened later joins that
// generation with a single didOpen and no second dial.
func TestPrepareThenOpenJoinsTheConnection(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	require.True(t, h.client.Prepare("s", wire.Go))
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	s, _ := h.client.Status("s", wire.Go)
	require.Equal(t, 0, s.Documents)
	gen := s.Gen

	require.True(t, h.client.Prepare("s", wire.Go), "a live connection is left as it is")
	m := newModel("package main\n")
	d, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	open := a.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), "file:///w/main.go")
	a.nothingQueued()
	noDial(t, h)
	s, _ = h.client.Status("s", wire.Go)
	require.Equal(t, gen, s.Gen)
	require.Equal(t, 1, s.Documents)

	// The document's lease holds the connection past the idle timeout.
	h.clock.Advance(time.Hour)
	a.nothingQueued()
	d.Close()
	a.recvMethod("textDocument/didClose")
}

// A prepared connection nobody opens a document on ends after the idle
// timeout, as off: it never keeps a server running for an editor that
// does not come.
func TestPreparedConnectionIdlesOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	require.True(t, h.client.Prepare("s", wire.Go))
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	h.clock.Advance(time.Duration(DefaultIdleTimeout - clock.Millisecond))
	a.nothingQueued()
	h.clock.Advance(time.Millisecond)
	h.expectState(t, StateStopping)
	stopAnswered(a)
	s := h.expectState(t, StateOff)
	require.Equal(t, 0, s.CloseCode)
}

// A failed pair waits for Retry: Prepare does not dial it again.
func TestPrepareLeavesAFailedPair(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	require.True(t, h.client.Prepare("s", wire.Go))
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.closeWith(int(wire.CloseStartFailed))
	h.expectState(t, StateError)
	require.False(t, h.client.Prepare("s", wire.Go))
	noDial(t, h)
}
