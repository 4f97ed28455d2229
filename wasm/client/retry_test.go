package client

import (
	"encoding/json"
	"testing"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/features"
	"github.com/stretchr/testify/require"
)

// readyPulled opens a.ts on a server like tsgo and answers the first pull.
func readyPulled(t *testing.T, h *harness) (*Document, *model, *fakeAgent) {
	t.Helper()
	m := newModel("const answer = 42;\n")
	d, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, tsgoInitializeResult)
	a.recvMethod("textDocument/didOpen")
	req, _ := recvPull(t, a)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"1","items":[]}}`, req.ID)
	require.Empty(t, m.nextMarkers(t))
	providersPublished(t, d)
	return d, m, a
}

const hoverReq = `{"uri":"kandev://s/a.ts","lineNumber":1,"column":8}`

func TestARequestTheServerAsksToRetryIsSentAgain(t *testing.T) {
	for _, code := range []int{-32801, -32802} {
		h := newHarness(t)
		d, _, a := readyPulled(t, h)
		id := d.p.conn.id()
		ans := provide(h, id, features.Hover, hoverReq)
		for range 2 {
			req := a.recvMethod("textDocument/hover")
			a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":"try again"}}`, req.ID, code)
		}
		req := a.recvMethod("textDocument/hover")
		a.send(`{"jsonrpc":"2.0","id":%s,"result":{"contents":{"kind":"markdown","value":"const answer: 42"}}}`, req.ID)
		require.Contains(t, answer(t, ans), "const answer: 42")
	}
}

func TestRetriesStopAtTheBoundAndWhenTheTextChanged(t *testing.T) {
	h := newHarness(t)
	d, m, a := readyPulled(t, h)
	id := d.p.conn.id()

	ans := provide(h, id, features.Hover, hoverReq)
	for range maxRequestRetries + 1 {
		req := a.recvMethod("textDocument/hover")
		a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32801,"message":"content modified"}}`, req.ID)
	}
	require.Equal(t, "null", answer(t, ans))

	// The text changes while the request is out: its ContentModified is
	// final, the next hover is Monaco's to ask.
	ans = provide(h, id, features.Hover, hoverReq)
	req := a.recvMethod("textDocument/hover")
	m.set("const answer = 43;\n")
	require.NoError(t, d.Changed(`{"versionId":2,"changes":[{"range":{"startLineNumber":1,"startColumn":16,"endLineNumber":1,"endColumn":18},"rangeOffset":15,"rangeLength":2,"text":"43"}]}`))
	a.recvMethod("textDocument/didChange")
	pull, _ := recvPull(t, a)
	a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32801,"message":"content modified"}}`, req.ID)
	require.Equal(t, "null", answer(t, ans))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"unchanged","resultId":"1"}}`, pull.ID)
	h.clock.EndTurn()
	a.nothingQueued()
}

// A server that counts positions in anything but UTF-16 is refused before
// initialized: every range it sent would be shifted on lines with
// non-ASCII text. The status says why; the client asked for UTF-16 only.
func TestAServerWithAnotherPositionEncodingIsRefused(t *testing.T) {
	h := newHarness(t)
	m := newModel("const π = 3;\n")
	_, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	a.send(`{"status":"ready","workspacePath":"/w"}`)
	init := a.recvMethod("initialize")
	var params struct {
		Capabilities struct {
			General struct {
				PositionEncodings []string `json:"positionEncodings"`
			} `json:"general"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(init.Params, &params))
	require.Equal(t, []string{"utf-16"}, params.Capabilities.General.PositionEncodings)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"positionEncoding":"utf-8","textDocumentSync":1}}}`, init.ID)
	s := waitStatus(t, h.client, "s", wire.TypeScript, "the refusal", func(s Status) bool { return s.State == StateError })
	require.Equal(t, "utf-8", s.Encoding)
	// Nothing followed the answer: no initialized, no didOpen.
	_, err = a.end.Read(t.Context())
	require.Error(t, err, "the socket is closed")
}
