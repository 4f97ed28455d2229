package client

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/transport"
)

// A relay draining for a restart (1012) is no failure of the language
// server or the task host: the pair is unavailable with the code, not in
// error.
func TestServiceRestartIsUnavailable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.closeWith(int(wire.CloseServiceRestart))
	s := h.expectState(t, StateUnavailable)
	require.Equal(t, int(wire.CloseServiceRestart), s.CloseCode)

	st, code := Outcome(&transport.CloseError{Code: int(wire.CloseServiceRestart)}, false)
	require.Equal(t, StateUnavailable, st)
	require.Equal(t, int(wire.CloseServiceRestart), code)
}
