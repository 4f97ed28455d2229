package client

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/stretchr/testify/require"
)

// editorEvent is one call the client made on its Editor.
type editorEvent struct {
	kind    string // provider, ended, refresh, suppress
	connID  string
	lang    string
	feature features.Feature
	opts    string // "" disposes
	snap    string
}

type recordingEditor chan editorEvent

func (r recordingEditor) Provider(connID, lang string, f features.Feature, opts string) {
	r <- editorEvent{kind: "provider", connID: connID, lang: lang, feature: f, opts: opts}
}
func (r recordingEditor) Ended(connID string) {
	r <- editorEvent{kind: "ended", connID: connID}
}
func (r recordingEditor) Refresh(connID string, f features.Feature) {
	r <- editorEvent{kind: "refresh", connID: connID, feature: f}
}

// Apply records the plan (in snap) and reports it applied.
func (r recordingEditor) Apply(_ ctxlite.Context, plan string) (bool, string) {
	r <- editorEvent{kind: "apply", snap: plan}
	return true, ""
}
func (r recordingEditor) Suppress(snapshot string) {
	r <- editorEvent{kind: "suppress", snap: snapshot}
}

// providers collects the provider events queued now, by feature name.
// Go's go.mod and go.work ids get the same events as go (see
// TestProvidersFollowCapabilities); they are left out here.
func (r recordingEditor) providers(t *testing.T) map[string]editorEvent {
	t.Helper()
	out := map[string]editorEvent{}
	for {
		select {
		case e := <-r:
			if e.kind == "provider" && e.lang != "go.mod" && e.lang != "go.work" {
				out[e.feature.String()] = e
			}
		default:
			return out
		}
	}
}

// providerEvents returns the provider events queued now, in order.
func (r recordingEditor) providerEvents() []editorEvent {
	var out []editorEvent
	for {
		select {
		case e := <-r:
			if e.kind == "provider" {
				out = append(out, e)
			}
		default:
			return out
		}
	}
}

// next returns the next event of kind, skipping others.
func (r recordingEditor) next(t *testing.T, kind string) editorEvent {
	t.Helper()
	for {
		select {
		case e := <-r:
			if e.kind == kind {
				return e
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s event", kind)
		}
	}
}

// none checks that no event of kind is queued. It does not wait: the
// caller first waits on a barrier, something that happens only after any
// such event would have been recorded (an answer the client sends after
// deciding, a connection's done).
func (r recordingEditor) none(t *testing.T, kind string) {
	t.Helper()
	for {
		select {
		case e := <-r:
			require.NotEqual(t, kind, e.kind, "%+v", e)
		default:
			return
		}
	}
}

func editorHarness(t *testing.T) (*harness, recordingEditor) {
	h := newHarness(t)
	rec := make(recordingEditor, 256)
	h.client.cfg.Editor = rec
	return h, rec
}

// provide runs Provide in the background: it waits for the server.
func provide(h *harness, connID string, f features.Feature, req string) <-chan string {
	out := make(chan string, 1)
	go func() {
		s, err := h.client.Provide(ctxlite.Background(), connID, f.String(), req)
		if err != nil {
			s = "error: " + err.Error()
		}
		out <- s
	}()
	return out
}

func answer(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no provider answer")
		return ""
	}
}

// Providers follow the advertised capabilities (static and dynamic);
// requests go out only for them, after the model's pending edits, with the
// server's clean URI; locations come back as session-scoped model URIs.
func TestProvidersFollowCapabilities(t *testing.T) {
	h, rec := editorHarness(t)
	m := newModel("package main\n\nfunc main() {}\n")
	doc, err := h.client.OpenDocument("S1", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/srv/t", "file:///srv/t")
	a.recvMethod("textDocument/didOpen")
	providersPublished(t, doc)

	ev := rec.next(t, "provider")
	id := ev.connID
	registered := map[string]string{ev.feature.String(): ev.opts}
	byLang := map[string][]string{ev.lang: {ev.feature.String()}}
	for _, e := range rec.providerEvents() {
		require.Equal(t, id, e.connID)
		registered[e.feature.String()] = e.opts
		byLang[e.lang] = append(byLang[e.lang], e.feature.String())
	}
	// Go's Monaco ids: its files, go.mod and go.work alike.
	require.ElementsMatch(t, []string{"go", "go.mod", "go.work"}, slices.Collect(maps.Keys(byLang)))
	require.ElementsMatch(t, byLang["go"], byLang["go.mod"])
	require.Equal(t, map[string]string{
		"completion": `{"triggerCharacters":["."],"resolve":false}`,
		"hover":      "{}", "definition": "{}", "references": "{}",
	}, registered, "gopls here advertises neither signature help nor semantic tokens")

	// Unadvertised: null, nothing sent.
	require.Equal(t, "null", answer(t, provide(h, id, features.SignatureHelp, `{"uri":"kandev://s1/main.go","lineNumber":1,"column":1,"context":{"triggerKind":1}}`)))
	require.Equal(t, "null", answer(t, provide(h, id, features.SemanticTokens, `{"uri":"kandev://s1/main.go","lineNumber":1,"column":1}`)))
	// A model this connection does not serve: null for every feature, so
	// Monaco takes another connection's answer; never an empty result.
	for _, f := range features.All {
		req := `{"uri":"kandev://s2/main.go","lineNumber":1,"column":1,"wordStart":1,"wordEnd":1,"triggerKind":0,"triggerCharacter":"","context":{"triggerKind":1}}`
		require.Equal(t, "null", answer(t, provide(h, id, f, req)), f.String())
	}
	a.nothingQueued()

	// An edit inside the debounce goes out before the completion request.
	require.NoError(t, doc.Changed(`{"versionId":2,"changes":[{"range":{"startLineNumber":3,"startColumn":15,"endLineNumber":3,"endColumn":15},"rangeOffset":0,"rangeLength":0,"text":"x"}]}`))
	got := provide(h, id, features.Completion, `{"uri":"kandev://s1/main.go","lineNumber":3,"column":16,"wordStart":15,"wordEnd":16,"triggerKind":1,"triggerCharacter":"."}`)
	change := a.recvMethod("textDocument/didChange")
	require.Contains(t, string(change.Params), `"version":2`)
	req := a.recvMethod("textDocument/completion")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///srv/t/main.go"},"position":{"line":2,"character":15},"context":{"triggerKind":2,"triggerCharacter":"."}}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"isIncomplete":true,"items":[{"label":"Hello","kind":3}]}}`, req.ID)
	comp := answer(t, got)
	require.Contains(t, comp, `"incomplete":true`)
	require.Contains(t, comp, `"label":"Hello"`)
	require.Contains(t, comp, `"range":{"startLineNumber":3,"startColumn":15,"endLineNumber":3,"endColumn":16}`)

	// Definition: LocationLink into another file → this session's model URI.
	got = provide(h, id, features.Definition, `{"uri":"kandev://s1/main.go","lineNumber":3,"column":6}`)
	req = a.recvMethod("textDocument/definition")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[{"targetUri":"file:///srv/t/greet/greet.go","targetRange":{"start":{"line":4,"character":0},"end":{"line":6,"character":1}},"targetSelectionRange":{"start":{"line":4,"character":5},"end":{"line":4,"character":10}}}]}`, req.ID)
	require.Contains(t, answer(t, got), `"uri":"kandev://s1/greet/greet.go"`)

	// A dynamic registration adds signature help, and only it; the
	// server's refresh reaches the semantic-token providers.
	a.send(`{"jsonrpc":"2.0","id":"r1","method":"client/registerCapability","params":{"registrations":[{"id":"sig","method":"textDocument/signatureHelp","registerOptions":{"triggerCharacters":["("]}}]}}`)
	a.recvMethod("") // the answer to the registration
	require.Equal(t, map[string]editorEvent{"signatureHelp": {kind: "provider", connID: id, lang: "go", feature: features.SignatureHelp,
		opts: `{"triggerCharacters":["("],"retriggerCharacters":[]}`}}, rec.providers(t))
	a.send(`{"jsonrpc":"2.0","id":"r2","method":"workspace/semanticTokens/refresh"}`)
	require.Equal(t, id, rec.next(t, "refresh").connID)
	// LSP 3.18's folding-range refresh reaches the folding providers.
	a.send(`{"jsonrpc":"2.0","id":"r3","method":"workspace/foldingRange/refresh"}`)
	ev = rec.next(t, "refresh")
	require.Equal(t, id, ev.connID)
	require.Equal(t, features.FoldingRange, ev.feature)
}

// A stop or crash disposes only that connection's providers; the other
// session's connection keeps its own.
func TestCrashDisposesOnlyItsProviders(t *testing.T) {
	h, rec := editorHarness(t)
	m1, m2 := newModel("package a\n"), newModel("package b\n")
	d1, err := h.client.OpenDocument("s1", "a.go", m1, m1)
	require.NoError(t, err)
	a1 := h.agent(t)
	handshake(t, h, a1, "/w1", "file:///w1")
	a1.recvMethod("textDocument/didOpen")
	providersPublished(t, d1)
	id1 := rec.next(t, "provider").connID
	rec.providers(t) // its other features

	_, err = h.client.OpenDocument("s2", "b.go", m2, m2)
	require.NoError(t, err)
	a2 := h.agent(t)
	a2.send(`{"status":"ready","workspacePath":"/w2"}`)
	init := a2.recvMethod("initialize")
	a2.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, init.ID, goplsInitializeResult)
	a2.recvMethod("initialized")
	a2.recvMethod("textDocument/didOpen")
	id2 := rec.next(t, "provider").connID
	require.NotEqual(t, id1, id2)

	c1 := h.current("s1", wire.Go)
	a1.closeWith(4006)
	ev := rec.next(t, "ended")
	require.Equal(t, id1, ev.connID)

	// The survivor still answers.
	got := provide(h, id2, features.Hover, `{"uri":"kandev://s2/b.go","lineNumber":1,"column":1}`)
	req := a2.recvMethod("textDocument/hover")
	a2.send(`{"jsonrpc":"2.0","id":%s,"result":{"contents":{"kind":"markdown","value":"package b"}}}`, req.ID)
	require.Contains(t, answer(t, got), "package b")
	// The crashed connection's end is wholly handled and the survivor has
	// answered since: no other provider was disposed.
	<-c1.done
	rec.none(t, "ended")
	// The ended one answers empty, sending nothing.
	require.Equal(t, "null", answer(t, provide(h, id1, features.Hover, `{"uri":"kandev://s1/a.go","lineNumber":1,"column":1}`)))
}

// Navigation resolves with the task host's workspace, activates an open
// tab, and leaves targets outside the workspace unhandled — also after the
// connection stopped.
func TestNavigate(t *testing.T) {
	h, _ := editorHarness(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s1", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/srv/t", "file:///srv/t")

	out := h.client.Navigate(`{"source":"kandev://s1/main.go","target":"kandev://s1/pkg/greet/greet.go","tabs":[]}`)
	require.JSONEq(t, `{"handled":true,"path":"pkg/greet/greet.go","model":"kandev://s1/pkg/greet/greet.go","ancestors":["pkg","pkg/greet"],"sessionId":"s1"}`, out)
	out = h.client.Navigate(`{"source":"kandev://s1/main.go","target":"file:///srv/t/main.go","tabs":[{"id":"tab-7","path":"main.go"}]}`)
	require.Contains(t, out, `"tabId":"tab-7"`)
	require.JSONEq(t, `{"handled":false}`, h.client.Navigate(`{"source":"kandev://s1/main.go","target":"file:///etc/passwd"}`))

	h.client.Stop(ctxlite.Background(), "s1", "go")
	out = h.client.Navigate(`{"source":"kandev://s1/main.go","target":"file:///srv/t/a/b.go"}`)
	require.True(t, strings.Contains(out, `"handled":true`), out)
}

// A save flushes the final didChange and sends didSave as the server asked;
// a failed write sends nothing.
func TestSavedSynchronizesServers(t *testing.T) {
	h, _ := editorHarness(t)
	m := newModel("package main\n")
	doc, err := h.client.OpenDocument("s1", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/srv/t", "file:///srv/t") // gopls: save {} without includeText
	a.recvMethod("textDocument/didOpen")

	// The turn's first edit leaves at once; the second waits for the end
	// of the turn, or for the save.
	require.NoError(t, doc.Changed(`{"versionId":2,"changes":[{"range":{"startLineNumber":2,"startColumn":1,"endLineNumber":2,"endColumn":1},"rangeOffset":13,"rangeLength":0,"text":"//"}]}`))
	require.Contains(t, string(a.recvMethod("textDocument/didChange").Params), `"text":"//"`)
	require.NoError(t, doc.Changed(`{"versionId":3,"changes":[{"range":{"startLineNumber":2,"startColumn":3,"endLineNumber":2,"endColumn":3},"rangeOffset":15,"rangeLength":0,"text":"x"}]}`))
	out, err := h.client.Saved(`{"model":"kandev://s1/main.go","ok":false,"persistedVersion":3,"liveVersion":3}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"dirty":true}`, out)
	a.nothingQueued()

	out, err = h.client.Saved(`{"model":"kandev://s1/main.go","ok":true,"persistedVersion":3,"liveVersion":3,"text":"package main\n//x"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"dirty":false}`, out)
	change := a.recvMethod("textDocument/didChange")
	require.Contains(t, string(change.Params), `"version":3`)
	require.Contains(t, string(change.Params), `"text":"x"`)
	save := a.recvMethod("textDocument/didSave")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///srv/t/main.go"}}`, string(save.Params))
}
