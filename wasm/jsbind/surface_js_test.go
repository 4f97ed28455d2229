//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/stretchr/testify/require"
)

// surface() names the active editor's pair from its model and places the
// control; text() reads the catalog of the current locale.
func TestSurfaceAndText(t *testing.T) {
	ctor := jsEval(t, fakeWebSocket)
	mon := jsEval(t, fakeMonaco)
	a := newAPI("v-test", func() (jsValue, error) { return ctor, nil }, nil)
	a.clock = &clocktest.Manual{}
	lsp, err := a.object()
	require.NoError(t, err)
	require.True(t, call(t, lsp, "surface", obj(t, map[string]any{})).IsNull(), "before configure")
	require.True(t, mustBool(t, call(t, lsp, "configure", obj(t, map[string]any{
		"monaco": mon, "relayURL": "ws://h/lsp",
		"settings": obj(t, map[string]any{"lsp_status_location": "status_bar"}),
	}))))

	modelV := jsEval(t, fakeModel)
	uri := jsEval(t, `{ toString() { return 'kandev://demo/main.go'; } }`)
	require.NoError(t, modelV.Set("uri", uri))
	doc := call(t, lsp, "openDocument", obj(t, map[string]any{"sessionId": "demo", "path": "main.go", "model": modelV}))
	require.Equal(t, "go", str(t, get(t, doc, "language")))

	s := call(t, lsp, "surface", obj(t, map[string]any{"model": modelV, "statusBar": true}))
	require.JSONEq(t, `{"preferred":"status_bar","location":"status_bar","fallback":null,"disclosure":"popover",
		"pair":{"sessionId":"demo","language":"go"},"connect":true}`, stringify(t, s))
	s = call(t, lsp, "surface", obj(t, map[string]any{"model": "kandev://demo/main.go", "statusBar": true, "coarse": true}))
	require.JSONEq(t, `{"preferred":"status_bar","location":"toolbar","fallback":"coarse_pointer","disclosure":"drawer",
		"pair":{"sessionId":"demo","language":"go"},"connect":true}`, stringify(t, s))
	s = call(t, lsp, "surface", obj(t, map[string]any{"model": jsNull(), "statusBar": true}))
	require.True(t, get(t, s, "pair").IsNull())
	s = call(t, lsp, "surface", obj(t, map[string]any{"model": modelV, "phone": true}))
	require.Equal(t, "none", str(t, get(t, s, "location")))
	require.False(t, mustBool(t, get(t, s, "connect")))
	call(t, doc, "close")
	require.True(t, get(t, call(t, lsp, "surface", obj(t, map[string]any{"model": modelV})), "pair").IsNull())

	require.Equal(t, "Go · Ready", str(t, call(t, lsp, "text", "control.label", obj(t, map[string]any{"language": "Go", "summary": "Ready"}))))
	require.Equal(t, "Ln 2, Col 7", str(t, call(t, lsp, "text", "page.cursor", obj(t, map[string]any{"line": 2, "column": 7}))))
	require.Equal(t, "de", str(t, call(t, lsp, "setLocale", "de")))
	require.Equal(t, "Statusleiste anzeigen", str(t, call(t, lsp, "text", "settings.showStatusBar")))
	require.Equal(t, "", str(t, call(t, lsp, "text")))
}
