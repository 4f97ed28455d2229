package app

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/status"
)

type surfaceJSON struct {
	Preferred string `json:"preferred"`
	Location  string `json:"location"`
	Fallback  *string
	Pair      *struct {
		SessionID string `json:"sessionId"`
		Language  string `json:"language"`
	} `json:"pair"`
	Connect bool `json:"connect"`
}

func (h *harness) surface(model string, l status.Layout) surfaceJSON {
	h.t.Helper()
	var s surfaceJSON
	require.NoError(h.t, json.Unmarshal([]byte(h.app.Surface(model, l)), &s))
	return s
}

// The active pair is the one whose open document owns the mounted model:
// it follows the active editor, and a model without a document (closed, a
// file without a server) has none. The preference comes from the user's
// settings, normalized, and a fallback does not change it.
func TestSurfaceFollowsTheActiveModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, `{"lsp_status_location":"status_bar"}`)
	bar := status.Layout{StatusBar: true}

	goDoc := h.open("s", "main.go")
	h.open("s", "py/app.py")
	s := h.surface("kandev://s/main.go", bar)
	require.Equal(t, "status_bar", s.Location)
	require.NotNil(t, s.Pair)
	require.Equal(t, "go", s.Pair.Language)
	require.Equal(t, "s", s.Pair.SessionID)
	s = h.surface("kandev://s/py/app.py", bar)
	require.Equal(t, "python", s.Pair.Language)

	require.Nil(t, h.surface("kandev://s/README.md", bar).Pair, "no document: no pair")
	require.Nil(t, h.surface("", bar).Pair, "no model mounted")
	require.Nil(t, h.surface("kandev://other/main.go", bar).Pair, "another session's model")
	goDoc.Close()
	require.Nil(t, h.surface("kandev://s/main.go", bar).Pair, "a closed document")

	coarse := h.surface("kandev://s/py/app.py", status.Layout{StatusBar: true, Coarse: true})
	require.Equal(t, "toolbar", coarse.Location)
	require.Equal(t, "status_bar", coarse.Preferred)
	require.True(t, coarse.Connect)

	phone := h.surface("kandev://s/py/app.py", status.Layout{Phone: true})
	require.Equal(t, "none", phone.Location)
	require.Nil(t, phone.Pair)
	require.False(t, phone.Connect)

	require.NoError(t, h.app.SetSettings([]byte(`{"lsp_status_location":"bottom"}`)))
	require.Equal(t, "toolbar", h.surface("kandev://s/py/app.py", bar).Preferred)
}

func TestTextFollowsTheLocale(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, "")
	require.Equal(t, "Go · Ready", h.app.Text("control.label", "language", "Go", "summary", "Ready"))
	require.Equal(t, "Show status bar", h.app.Text("settings.showStatusBar"))
	h.app.SetLocale("de")
	require.Equal(t, "Statusleiste anzeigen", h.app.Text("settings.showStatusBar"))
	h.app.SetLocale("en-XA")
	require.Contains(t, h.app.Text("settings.showStatusBar"), "Šĥöŵ")
}

func TestTextJSONFillsPlaceholders(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, "")
	require.Equal(t, "Go · Ready", h.app.TextJSON("control.label", []byte(`{"language":"Go","summary":"Ready"}`)))
	require.Equal(t, "Ln 3, Col 14", h.app.TextJSON("page.cursor", []byte(`{"line":3,"column":14}`)))
	require.Equal(t, "{language} · {summary}", h.app.TextJSON("control.label", []byte(`[1]`)))
	require.Equal(t, "{language} · {summary}", h.app.TextJSON("control.label", nil))
}
