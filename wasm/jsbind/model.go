//go:build js && wasm

package jsbind

import (
	"strconv"

	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/monaco"
)

// model is a Monaco ITextModel as the client's TextSource and MarkerSink.
type model struct {
	v      jsValue       // the ITextModel
	editor jsValue       // monaco.editor
	bridge *editorBridge // its shim sets markers, when there is one
	owner  string        // the marker owner ("" means monaco.MarkerOwner)
	uri    string        // model.uri.toString(), "" when the model has none
	lang   string        // model.getLanguageId(), "" when unknown
}

// ModelURI implements client.ModelInfo.
func (m *model) ModelURI() string { return m.uri }

// MonacoLanguage implements client.ModelInfo.
func (m *model) MonacoLanguage() string { return m.lang }

// describe reads the model's URI and language id once, at open.
func (m *model) describe() {
	if u, err := m.v.Get("uri"); err == nil && u.Type() == jsTypeObject {
		if s, err := u.Call("toString"); err == nil {
			m.uri, _ = s.String()
		}
	}
	if isFunc(m.v, "getLanguageId") {
		if s, err := m.v.Call("getLanguageId"); err == nil && s.Type() == jsTypeString {
			m.lang, _ = s.String()
		}
	}
}

// Text reads the whole text: one crossing per debounced change.
func (m *model) Text() string {
	v, err := m.v.Call("getValue")
	if err == nil {
		var s string
		if s, err = v.String(); err == nil {
			return s
		}
	}
	consoleError("model.getValue: %v", err)
	return ""
}

// SetMarkers replaces the model's kandev-lsp markers: the array crosses as
// one JSON string, is parsed once and set with one call.
func (m *model) SetMarkers(ms []monaco.Marker) {
	owner := m.owner
	if owner == "" {
		owner = monaco.MarkerOwner
	}
	js := monaco.MarkersJSON(ms)
	if m.bridge != nil && m.bridge.markers(m.v, owner, js) {
		return
	}
	arr, err := parseJSON(js)
	if err == nil {
		_, err = m.editor.Call("setModelMarkers", m.v, owner, arr)
	}
	if err != nil {
		consoleError("setModelMarkers: %v", err)
	}
}

// ForSlot implements client.SlotSinks: the same model, its markers from
// the language's slot-th server under their own owner, so each server's
// diagnostics replace only its own.
func (m *model) ForSlot(slot int) client.MarkerSink {
	x := *m
	owner := m.owner
	if owner == "" {
		owner = monaco.MarkerOwner
	}
	x.owner = owner + ":" + strconv.Itoa(slot)
	return &x
}

// dispose calls disposable.dispose() if there is one.
func dispose(disposable jsValue) {
	if disposable.Type() == jsTypeObject && isFunc(disposable, "dispose") {
		if _, err := disposable.Call("dispose"); err != nil {
			consoleError("dispose: %v", err)
		}
	}
}
