package client

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/stretchr/testify/require"
)

// slotted is a fake model whose further servers' markers land on models of
// their own (SlotSinks), as the binding gives each its own marker owner.
type slotted struct {
	*model
	extra map[int]*model
}

func (s *slotted) ForSlot(slot int) MarkerSink { return s.extra[slot] }

// twoServers is a harness with TypeScript served by "tsgo" then "eslint",
// recording the editor's provider registrations and each slot's statuses.
type twoServers struct {
	h         *harness
	ed        recordingEditor
	mu        sync.Mutex
	formatter string
	list      []string
	features  map[string][]string
}

func newTwoServers(t *testing.T) *twoServers {
	ts := &twoServers{ed: make(recordingEditor, 1024), list: []string{"tsgo", "eslint"}, features: map[string][]string{}}
	ts.h = newHarness(t, func(c *Config) {
		c.Editor = ts.ed
		c.Servers = func(lang wire.Language) []string {
			ts.mu.Lock()
			defer ts.mu.Unlock()
			if lang == wire.TypeScript {
				return ts.list
			}
			return nil
		}
		c.Formatter = func(wire.Language) string {
			ts.mu.Lock()
			defer ts.mu.Unlock()
			return ts.formatter
		}
		c.Features = func(id string) []string {
			ts.mu.Lock()
			defer ts.mu.Unlock()
			return ts.features[id]
		}
	})
	return ts
}

// agents returns the two dialed connections by the server they asked for.
func (ts *twoServers) agents(t *testing.T) map[string]*fakeAgent {
	out := map[string]*fakeAgent{}
	for len(out) < 2 {
		a := ts.h.agent(t)
		i := strings.Index(a.url, "server=")
		require.GreaterOrEqual(t, i, 0, a.url)
		out[a.url[i+len("server="):]] = a
	}
	return out
}

// ready plays one server's handshake with the ready frame's extra members
// and the server's capabilities.
func ready(t *testing.T, a *fakeAgent, server, extra, caps string) {
	t.Helper()
	a.send(`{"status":"ready","server":%q,"workspacePath":"/w","workspaceUri":"file:///w"%s}`, server, extra)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":%s}}`, init.ID, caps)
	a.recvMethod("initialized")
}

const bothCaps = `{"textDocumentSync":{"openClose":true,"change":2},"hoverProvider":true,"codeActionProvider":true,` +
	`"documentFormattingProvider":true,"renameProvider":true}`

// providerOwners drains the provider events and returns, per feature
// name, the set of connections that have it registered now.
func (ts *twoServers) providerOwners(t *testing.T, wait time.Duration) map[string]map[string]bool {
	t.Helper()
	owners := map[string]map[string]bool{}
	deadline := time.After(wait)
	for {
		select {
		case e := <-ts.ed:
			if e.kind != "provider" || e.lang != "typescript" {
				continue
			}
			f := e.feature.String()
			if owners[f] == nil {
				owners[f] = map[string]bool{}
			}
			owners[f][e.connID] = e.opts != ""
		case <-deadline:
			return owners
		}
	}
}

func registeredBy(owners map[string]map[string]bool, f string) []string {
	var out []string
	for id, on := range owners[f] {
		if on {
			out = append(out, id)
		}
	}
	return out
}

// A document of a language with two servers is opened on both; edits
// reach both; each server's diagnostics land under its own owner; the
// second server's catalog mask keeps it to diagnostics and code actions;
// formatting and rename come from the first capable server only.
func TestTwoServersOnOneDocument(t *testing.T) {
	ts := newTwoServers(t)
	lead, eslintMarkers := newModel("let a = 1;\n"), newModel("")
	src := &slotted{lead, map[int]*model{1: eslintMarkers}}
	d, err := ts.h.client.OpenDocument("s", "a.js", src, src)
	require.NoError(t, err)
	agents := ts.agents(t)
	ready(t, agents["tsgo"], "tsgo", "", bothCaps)
	ready(t, agents["eslint"], "eslint", `,"features":["diagnostics","code-action","workspace-command"]`, bothCaps)
	for _, a := range agents {
		open := a.recvMethod("textDocument/didOpen")
		require.Contains(t, string(open.Params), `"text":"let a = 1;\n"`)
	}

	owners := ts.providerOwners(t, 300*time.Millisecond)
	tsID, esID := "s\x00typescript\x001", "s\x00typescript\x001\x001"
	require.ElementsMatch(t, []string{tsID}, registeredBy(owners, "hover"), "eslint's mask has no hover")
	require.ElementsMatch(t, []string{tsID, esID}, registeredBy(owners, "codeAction"), "code actions from both, merged by Monaco")
	require.ElementsMatch(t, []string{tsID}, registeredBy(owners, "formatting"), "formatting from one server")
	require.ElementsMatch(t, []string{tsID}, registeredBy(owners, "rename"))

	// An edit goes to both servers.
	lead.set("let ab = 1;\n")
	d.MarkDirty()
	ts.h.clock.Advance(time.Duration(DefaultDebounce))
	for _, a := range agents {
		a.recvMethod("textDocument/didChange")
	}

	// Each server's diagnostics replace only its own markers.
	agents["tsgo"].send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/a.js","diagnostics":[{"range":{"start":{"line":0,"character":4},"end":{"line":0,"character":6}},"message":"type"}]}}`)
	require.Equal(t, "type", lead.nextMarkers(t)[0].Message)
	agents["eslint"].send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/a.js","diagnostics":[{"range":{"start":{"line":0,"character":4},"end":{"line":0,"character":6}},"message":"'ab' is assigned a value but never used."}]}}`)
	require.Equal(t, "'ab' is assigned a value but never used.", eslintMarkers.nextMarkers(t)[0].Message)
	select {
	case ms := <-lead.markers:
		t.Fatalf("eslint's diagnostics touched the first server's markers: %v", ms)
	default:
	}

	// Close reaches both servers.
	d.Close()
	for _, a := range agents {
		a.recvMethod("textDocument/didClose")
	}
}

// The formatter the user names formats; when the first server, the one
// that owned formatting, crashes, the other takes its features over, its
// diagnostics stay, and only the crashed server shows the error.
func TestFormatterChoiceAndOneServerCrashing(t *testing.T) {
	ts := newTwoServers(t)
	lead, second := newModel("x\n"), newModel("")
	src := &slotted{lead, map[int]*model{1: second}}
	_, err := ts.h.client.OpenDocument("s", "a.ts", src, src)
	require.NoError(t, err)
	agents := ts.agents(t)
	ready(t, agents["tsgo"], "tsgo", "", bothCaps)
	ready(t, agents["eslint"], "eslint", "", bothCaps)
	tsID, esID := "s\x00typescript\x001", "s\x00typescript\x001\x001"
	owners := ts.providerOwners(t, 300*time.Millisecond)
	require.ElementsMatch(t, []string{tsID}, registeredBy(owners, "formatting"))

	ts.mu.Lock()
	ts.formatter = "eslint"
	ts.mu.Unlock()
	ts.h.client.Republish(wire.TypeScript)
	owners = ts.providerOwners(t, 300*time.Millisecond)
	require.False(t, owners["formatting"][tsID], "the first server's formatter is disposed")
	require.True(t, owners["formatting"][esID], "the named formatter registers")
	require.False(t, owners["rename"][esID], "rename stays with the first capable server")

	agents["eslint"].send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/a.ts","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"lint"}]}}`)
	require.Equal(t, "lint", second.nextMarkers(t)[0].Message)

	// The first server crashes: the second takes rename over.
	agents["tsgo"].closeWith(int(wire.CloseServerExited))
	owners = ts.providerOwners(t, 300*time.Millisecond)
	require.True(t, owners["rename"][esID], "rename moves to the remaining server")
	sts := ts.h.client.Statuses("s", wire.TypeScript)
	require.Equal(t, StateError, sts[0].State)
	require.Equal(t, "tsgo", sts[0].Server)
	require.Equal(t, StateReady, sts[1].State)
	require.Equal(t, "eslint", sts[1].Server)
	select {
	case ms := <-second.markers:
		t.Fatalf("the other server's markers changed: %v", ms)
	default:
	}

	// Retry of the crashed one alone: a new connection to tsgo.
	require.True(t, ts.h.client.StartSlot("s", wire.TypeScript, 0))
	a := ts.h.agent(t)
	require.Contains(t, a.url, "server=tsgo")
}

// Changing the list adds a server to the open document and removes one,
// without closing the document: the connection of the slot that changed
// ends, the new server gets the didOpen.
func TestChangingTheListReachesOpenDocuments(t *testing.T) {
	ts := newTwoServers(t)
	ts.list = []string{"tsgo"}
	lead, second := newModel("x\n"), newModel("")
	src := &slotted{lead, map[int]*model{1: second}}
	_, err := ts.h.client.OpenDocument("s", "a.ts", src, src)
	require.NoError(t, err)
	first := ts.h.agent(t)
	ready(t, first, "tsgo", "", bothCaps)
	first.recvMethod("textDocument/didOpen")

	ts.mu.Lock()
	ts.list = []string{"tsgo", "eslint"}
	ts.mu.Unlock()
	ts.h.client.Restart(wire.TypeScript)
	es := ts.h.agent(t)
	require.Contains(t, es.url, "server=eslint")
	ready(t, es, "eslint", "", bothCaps)
	es.recvMethod("textDocument/didOpen")
	first.nothingQueued()

	ts.mu.Lock()
	ts.list = []string{"tsgo"}
	ts.mu.Unlock()
	ts.h.client.Restart(wire.TypeScript)
	// The removed server's connection ends (its document may be closed
	// first, as the document leaves the slot).
	for m := es.recv(); m.Method != "shutdown"; m = es.recv() {
		require.Equal(t, "textDocument/didClose", m.Method, m.raw)
	}
	first.nothingQueued()
	require.Len(t, ts.h.client.Statuses("s", wire.TypeScript), 1)
}

// A user's feature list for a server narrows its catalog entry's: with
// eslint limited to diagnostics, its code actions are not registered.
func TestUserFeatureListNarrowsTheServer(t *testing.T) {
	ts := newTwoServers(t)
	ts.features["eslint"] = []string{wire.FeatureDiagnostics}
	m := newModel("x\n")
	src := &slotted{m, map[int]*model{1: newModel("")}}
	_, err := ts.h.client.OpenDocument("s", "a.ts", src, src)
	require.NoError(t, err)
	agents := ts.agents(t)
	ready(t, agents["tsgo"], "tsgo", "", bothCaps)
	ready(t, agents["eslint"], "eslint", `,"features":["diagnostics","code-action"]`, bothCaps)
	owners := ts.providerOwners(t, 300*time.Millisecond)
	require.ElementsMatch(t, []string{"s\x00typescript\x001"}, registeredBy(owners, "codeAction"))
}

// Two servers answering one hover with the same text show it once; what
// only one of them knows stays. Code actions the same, by title and kind.
func TestAnswersAreUniqueAcrossTheServers(t *testing.T) {
	ts := newTwoServers(t)
	m := newModel("let a = 1;\n")
	src := &slotted{m, map[int]*model{1: newModel("")}}
	d, err := ts.h.client.OpenDocument("s", "a.ts", src, src)
	require.NoError(t, err)
	agents := ts.agents(t)
	ready(t, agents["tsgo"], "tsgo", "", bothCaps)
	ready(t, agents["eslint"], "eslint", "", bothCaps)
	for _, a := range agents {
		a.recvMethod("textDocument/didOpen")
	}
	tsID, esID := "s\x00typescript\x001", "s\x00typescript\x001\x001"
	req := `{"uri":"` + d.Model() + `","lineNumber":1,"column":5}`
	ask := func(connID string, a *fakeAgent, result string) string {
		t.Helper()
		got := make(chan string, 1)
		go func() {
			out, err := ts.h.client.Provide(ctxlite.Background(), connID, "hover", req)
			require.NoError(t, err)
			got <- out
		}()
		call := a.recvMethod("textDocument/hover")
		a.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, call.ID, result)
		return <-got
	}
	first := ask(tsID, agents["tsgo"], `{"contents":{"kind":"markdown","value":"let a: number"}}`)
	require.Contains(t, first, "let a: number")
	second := ask(esID, agents["eslint"], `{"contents":[{"language":"ts","value":"x"},"let a: number"]}`)
	require.NotContains(t, second, "let a: number", "the first server's text is not shown twice")
	require.Contains(t, second, "x")
	require.Equal(t, "null", ask(esID, agents["eslint"], `{"contents":{"kind":"markdown","value":"let a: number"}}`), "nothing of its own: no hover")
}

// A code action goes back to the server that offered it: its resolve and
// its command reach that server's connection only.
func TestResolveAndCommandGoToTheServerThatAnswered(t *testing.T) {
	ts := newTwoServers(t)
	m := newModel("let a = 1;\n")
	src := &slotted{m, map[int]*model{1: newModel("")}}
	d, err := ts.h.client.OpenDocument("s", "a.ts", src, src)
	require.NoError(t, err)
	agents := ts.agents(t)
	caps := `{"textDocumentSync":{"openClose":true,"change":2},"codeActionProvider":{"resolveProvider":true},"executeCommandProvider":{"commands":["eslint.applyFix"]}}`
	ready(t, agents["tsgo"], "tsgo", "", caps)
	ready(t, agents["eslint"], "eslint", "", caps)
	for _, a := range agents {
		a.recvMethod("textDocument/didOpen")
	}
	esID := "s\x00typescript\x001\x001"
	provide := func(name, req string) chan string {
		got := make(chan string, 1)
		go func() {
			out, err := ts.h.client.Provide(ctxlite.Background(), esID, name, req)
			require.NoError(t, err)
			got <- out
		}()
		return got
	}
	got := provide("codeAction", `{"uri":"`+d.Model()+`","range":{"startLineNumber":1,"startColumn":5,"endLineNumber":1,"endColumn":6},"trigger":1}`)
	call := agents["eslint"].recvMethod("textDocument/codeAction")
	agents["eslint"].send(`{"jsonrpc":"2.0","id":%s,"result":[{"title":"Disable no-unused-vars for this line","kind":"quickfix","data":{"rule":"no-unused-vars"}},`+
		`{"title":"Fix all","command":{"title":"Fix all","command":"eslint.applyFix","arguments":["a"]}}]}`, call.ID)
	out := <-got
	require.Contains(t, out, "Disable no-unused-vars for this line")
	var actions struct {
		Actions []struct {
			Title string `json:"title"`
			LSP   string `json:"lsp"`
		} `json:"actions"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &actions))
	require.Len(t, actions.Actions, 2)

	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	// Resolve: to eslint, never to tsgo.
	got = provide("codeActionApply", `{"uri":"`+d.Model()+`","lsp":`+quote(actions.Actions[0].LSP)+`}`)
	res := agents["eslint"].recvMethod("codeAction/resolve")
	require.Contains(t, string(res.Params), `"rule":"no-unused-vars"`)
	agents["eslint"].send(`{"jsonrpc":"2.0","id":%s,"result":{"title":"Disable no-unused-vars for this line","kind":"quickfix"}}`, res.ID)
	require.Equal(t, "true", <-got)
	// The command: executeCommand on eslint's connection.
	got = provide("codeActionApply", `{"uri":"`+d.Model()+`","lsp":`+quote(actions.Actions[1].LSP)+`}`)
	res = agents["eslint"].recvMethod("codeAction/resolve") // no edit yet: resolved first
	agents["eslint"].send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, res.ID, res.Params)
	exec := agents["eslint"].recvMethod("workspace/executeCommand")
	require.Contains(t, string(exec.Params), `"command":"eslint.applyFix"`)
	agents["eslint"].send(`{"jsonrpc":"2.0","id":%s,"result":null}`, exec.ID)
	require.Equal(t, "true", <-got)
	agents["tsgo"].nothingQueued()
}

// The page's own calls (outline, format on save) name no connection: the
// language's first server that offers the feature answers, never one
// picked by chance, and never one that lacks it while another has it.
func TestPageCallsGoToTheFirstServerThatOffers(t *testing.T) {
	ts := newTwoServers(t)
	src := &slotted{newModel("let a = 1;\n"), map[int]*model{1: newModel("")}}
	d, err := ts.h.client.OpenDocument("s", "a.ts", src, src)
	require.NoError(t, err)
	agents := ts.agents(t)
	ready(t, agents["tsgo"], "tsgo", "", bothCaps)
	ready(t, agents["eslint"], "eslint", "", `{"textDocumentSync":{"openClose":true,"change":2},"documentSymbolProvider":true,"hoverProvider":true}`)
	for _, a := range agents {
		a.recvMethod("textDocument/didOpen")
	}
	ask := func(method, name, req string, a *fakeAgent) {
		t.Helper()
		got := make(chan string, 1)
		go func() {
			out, err := ts.h.client.Provide(ctxlite.Background(), "", name, req)
			require.NoError(t, err)
			got <- out
		}()
		call := a.recvMethod(method)
		a.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, call.ID)
		<-got
	}
	for range 8 { // the connections live in a map: chance would show
		ask("textDocument/documentSymbol", "documentSymbol", `{"uri":"`+d.Model()+`"}`, agents["eslint"])
		ask("textDocument/hover", "hover", `{"uri":"`+d.Model()+`","lineNumber":1,"column":5}`, agents["tsgo"])
	}
	for _, a := range agents {
		a.nothingQueued()
	}
}
