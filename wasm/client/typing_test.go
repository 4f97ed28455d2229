package client

import (
	"regexp"
	"testing"
	"time"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/stretchr/testify/require"
)

const typingCaps = `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2},` +
	`"completionProvider":{"triggerCharacters":["."]},"foldingRangeProvider":true,"codeActionProvider":true}}`

const (
	typingCompletion = `{"uri":"kandev://s1/main.go","lineNumber":3,"column":15,"wordStart":15,"wordEnd":15,"triggerKind":0,"triggerCharacter":""}`
	typingFolding    = `{"uri":"kandev://s1/main.go"}`
	typingRange      = `"range":{"startLineNumber":3,"startColumn":1,"endLineNumber":3,"endColumn":1}`
	typingBulb       = `{"uri":"kandev://s1/main.go",` + typingRange + `,"trigger":2}`
	typingAsked      = `{"uri":"kandev://s1/main.go",` + typingRange + `,"trigger":1}`
)

// servedMain opens main.go on a server answering initialize with caps, and
// returns the harness, the agent, the document and its connection's id once
// its providers are published.
func servedMain(t *testing.T, caps string) (*harness, *fakeAgent, *Document, string) {
	t.Helper()
	h, rec := editorHarness(t)
	m := newModel("package main\n\nfunc main() {}\n")
	doc, err := h.client.OpenDocument("S1", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, caps)
	a.recvMethod("textDocument/didOpen")
	providersPublished(t, doc)
	return h, a, doc, rec.next(t, "provider").connID
}

// While the suggest widget's request is out, what Monaco asks on its own
// (folding ranges, the light bulb's code actions) waits for its answer,
// so the server answers what the user waits on first; code actions the
// user asks for do not wait.
func TestBackgroundCallsWaitForTyping(t *testing.T) {
	t.Parallel()
	h, a, _, id := servedMain(t, typingCaps)

	comp := provide(h, id, features.Completion, typingCompletion)
	creq := a.recvMethod("textDocument/completion")
	armed := h.clock.Armed()
	fold := provide(h, id, features.FoldingRange, typingFolding)
	bulb := provide(h, id, features.CodeAction, typingBulb)
	waitFor(t, func() bool { return h.clock.Armed() == armed+2 }) // both held
	asked := provide(h, id, features.CodeAction, typingAsked)
	areq := a.recvMethod("textDocument/codeAction")
	require.Contains(t, string(areq.Params), `"triggerKind":1`)
	a.nothingQueued() // the held two are still held
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[]}`, areq.ID)
	require.Equal(t, `{"actions":[]}`, answer(t, asked))

	// The completion's answer lets them go.
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"isIncomplete":true,"items":[{"label":"Hello","kind":3}]}}`, creq.ID)
	require.Contains(t, answer(t, comp), `"label":"Hello"`)
	sent := map[string]bool{}
	for range 2 {
		r := a.recv()
		sent[r.Method] = true
		a.send(`{"jsonrpc":"2.0","id":%s,"result":[]}`, r.ID)
	}
	require.Equal(t, map[string]bool{"textDocument/foldingRange": true, "textDocument/codeAction": true}, sent)
	require.NotEqual(t, "null", answer(t, fold))
	require.NotEqual(t, "null", answer(t, bulb))
}

// A background call held by a typing call that stays unanswered goes out
// after backgroundHold; one whose text changed meanwhile is answered null
// without a request (Monaco asks again for the new text).
func TestBackgroundCallsHeldAtMostAWhile(t *testing.T) {
	t.Parallel()
	h, a, doc, id := servedMain(t, typingCaps)

	comp := provide(h, id, features.Completion, typingCompletion)
	creq := a.recvMethod("textDocument/completion")
	armed := h.clock.Armed()
	fold := provide(h, id, features.FoldingRange, typingFolding)
	waitFor(t, func() bool { return h.clock.Armed() == armed+1 })
	a.nothingQueued()
	h.clock.Advance(time.Duration(backgroundHold))
	freq := a.recvMethod("textDocument/foldingRange")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[{"startLine":2,"endLine":3}]}`, freq.ID)
	require.NotEqual(t, "null", answer(t, fold))

	// Held again, and the user types meanwhile.
	armed = h.clock.Armed()
	bulb := provide(h, id, features.CodeAction, typingBulb)
	waitFor(t, func() bool { return h.clock.Armed() == armed+1 })
	require.NoError(t, doc.Changed(`{"versionId":2,"changes":[{"range":{"startLineNumber":3,"startColumn":15,"endLineNumber":3,"endColumn":15},"rangeOffset":0,"rangeLength":0,"text":"x"}]}`))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"isIncomplete":false,"items":[]}}`, creq.ID)
	answer(t, comp)
	require.Equal(t, "null", answer(t, bulb))
	a.recvMethod("textDocument/didChange")
	a.nothingQueued() // no code action for the old text
}

const resolveCaps = `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2},` +
	`"completionProvider":{"triggerCharacters":["."],"resolveProvider":true}}}`

// Monaco resolves an item once and shares that resolve between the focused
// item's details and its acceptance; the widget closing on Enter cancels it.
// The resolve runs to the server's answer anyway, so the accepted item's
// additionalTextEdits (an auto-import's line) reach the editor, and the
// server gets no $/cancelRequest for it.
func TestCompletionResolveOutlivesCancel(t *testing.T) {
	t.Parallel()
	h, a, _, id := servedMain(t, resolveCaps)

	comp := provide(h, id, features.Completion, typingCompletion)
	creq := a.recvMethod("textDocument/completion")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"isIncomplete":false,"items":[{"label":"Greeter","kind":7,"data":{"n":1}}]}}`, creq.ID)
	list := answer(t, comp)
	key := regexp.MustCompile(`"lsp":\[(\d+),0\]`).FindStringSubmatch(list)
	require.NotNil(t, key, list)

	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	resolved := make(chan string, 1)
	go func() {
		s, err := h.client.Provide(ctx, id, "completionResolve", `{"uri":"kandev://s1/main.go","lsp":[`+key[1]+`,0]}`)
		if err != nil {
			s = "error: " + err.Error()
		}
		resolved <- s
	}()
	rreq := a.recvMethod("completionItem/resolve")
	cancel() // the widget closed
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"label":"Greeter","kind":7,"additionalTextEdits":[`+
		`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"import \"greet\"\n"}]}}`, rreq.ID)
	require.Contains(t, answer(t, resolved), `"additionalTextEdits":[{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1},"text":"import \"greet\"\n"}]`)
	a.nothingQueued() // no $/cancelRequest
}
