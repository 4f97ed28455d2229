package client

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/stretchr/testify/require"
)

// diskModel is a fake Monaco model that lsp.wasm can reload: its version
// id moves with every edit, and Replace reports its edit to the document
// as the binding's change listener does.
type diskModel struct {
	*model
	t       *testing.T
	version int
	doc     *Document
}

func newDiskModel(t *testing.T, text string) *diskModel {
	return &diskModel{model: newModel(text), t: t, version: 1}
}

func (m *diskModel) VersionID() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.version
}

// typed is the user's edit: a new text and version, the whole text sent.
func (m *diskModel) typed(text string) {
	m.mu.Lock()
	m.text = text
	m.version++
	m.mu.Unlock()
	m.doc.MarkDirty()
}

// Replace stands in for the binding's one-edit reload: the new text, a
// new version, and the change reported as the model's listener does.
func (m *diskModel) Replace(text string) int {
	m.mu.Lock()
	m.text = text
	m.version++
	v := m.version
	m.mu.Unlock()
	m.doc.MarkDirty()
	return v
}

// taskDisk is the page's readFile over files the test sets.
type taskDisk struct {
	mu    sync.Mutex
	files map[string]string
}

func (d *taskDisk) set(path, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.files[path] = text
}

func (d *taskDisk) read(_ ctxlite.Context, session, path string) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.files[session+":"+path]
	return t, ok
}

// diskHarness is a harness whose client reads files from disk and reports
// disk changes to changes.
func diskHarness(t *testing.T) (*harness, *taskDisk, chan DiskChange) {
	disk := &taskDisk{files: map[string]string{}}
	changes := make(chan DiskChange, 16)
	h := newHarness(t, func(c *Config) {
		c.ReadFile = disk.read
		c.OnDiskChange = func(ch DiskChange) { changes <- ch }
	})
	return h, disk, changes
}

func nextChange(t *testing.T, changes chan DiskChange) DiskChange {
	t.Helper()
	select {
	case ch := <-changes:
		return ch
	case <-time.After(10 * time.Second):
		t.Fatal("no disk change reported")
		return DiskChange{}
	}
}

// settle sends the client a request and waits for its answer: the client
// handles the agent's frames in order, so whatever an earlier frame made it
// send has been sent by then.
func settle(t *testing.T, a *fakeAgent) {
	t.Helper()
	a.send(`{"jsonrpc":"2.0","id":"settle","method":"workspace/workspaceFolders"}`)
	m := a.recv()
	require.Equal(t, `"settle"`, string(m.ID), "expected nothing before the answer, got %s", m.raw)
}

// openDiskDoc opens path (session demo) with text in a reloadable model
// and plays the agent to the document's didOpen.
func openDiskDoc(t *testing.T, h *harness, path, text string) (*diskModel, *fakeAgent) {
	t.Helper()
	m := newDiskModel(t, text)
	doc, err := h.client.OpenDocument("demo", path, m, m)
	require.NoError(t, err)
	m.doc = doc
	a := h.agent(t)
	handshake(t, h, a, "/srv/my task", "file:///srv/my%20task")
	a.recvMethod("textDocument/didOpen")
	return m, a
}

func TestInitializeAdvertisesWatchedFiles(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, err := h.client.OpenDocument("demo", "main.go", newModel(""), newModel(""))
	require.NoError(t, err)
	init := handshake(t, h, h.agent(t), "/w", "file:///w")
	var p struct {
		Capabilities struct {
			Workspace struct {
				DidChangeWatchedFiles map[string]bool `json:"didChangeWatchedFiles"`
			} `json:"workspace"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(init.Params, &p))
	require.Equal(t, map[string]bool{"dynamicRegistration": true, "relativePatternSupport": true}, p.Capabilities.Workspace.DidChangeWatchedFiles)
}

// A server's own initializationOptions (the TypeScript servers' leaving
// file watching to the client) are its catalog entry's, from the ready
// frame, laid under the client's: no language is special-cased, so a
// TypeScript connection whose task host names none sends none.
func TestInitializeSendsTheEntrysOptions(t *testing.T) {
	t.Parallel()
	const ts = `{"tsserver":{"useClientFileWatcher":true},"codeLensShowLocationsCommandName":"editor.action.showReferences"}`
	for _, c := range []struct{ file, ready, want string }{
		{"ts/main.ts", `,"server":"typescript-language-server","initializationOptions":` + ts, ts},
		{"ts/main.ts", `,"server":"eslint"`, ""},
		{"main.go", "", ""},
	} {
		h := newHarness(t)
		_, err := h.client.OpenDocument("demo", c.file, newModel(""), newModel(""))
		require.NoError(t, err)
		a := h.agent(t)
		h.expectState(t, StateConnecting)
		a.send(`{"status":"ready","workspacePath":"/w","workspaceUri":"file:///w"%s}`, c.ready)
		init := a.recvMethod("initialize")
		var p struct {
			InitializationOptions json.RawMessage `json:"initializationOptions"`
		}
		require.NoError(t, json.Unmarshal(init.Params, &p))
		if c.want == "" {
			require.Nil(t, p.InitializationOptions, c.ready)
		} else {
			require.JSONEq(t, c.want, string(p.InitializationOptions), c.ready)
		}
	}
}

// The server's watchers decide which changes it hears of, with its own
// URIs; before it registers any, and after it unregisters them, none.
func TestWatchedFilesFollowRegistrations(t *testing.T) {
	t.Parallel()
	h, _, _ := diskHarness(t)
	_, a := openDiskDoc(t, h, "main.go", "package main\n")
	const frame = `{"files":[{"path":"greet/greet.go","type":2},{"path":"README.md","type":2},{"path":"go.mod","type":1}]}`

	a.send(frame)
	settle(t, a)

	a.send(`{"jsonrpc":"2.0","id":"r1","method":"client/registerCapability","params":{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles",` +
		`"registerOptions":{"watchers":[{"globPattern":{"baseUri":{"uri":"file:///srv/my%%20task","name":"my task"},"pattern":"**/*.{go,mod,sum,work,tmpl}"},"kind":7}]}}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":"r1","result":null}`, a.recv().raw)
	a.send(frame)
	m := a.recvMethod("workspace/didChangeWatchedFiles")
	require.JSONEq(t, `{"changes":[{"uri":"file:///srv/my%20task/greet/greet.go","type":2},{"uri":"file:///srv/my%20task/go.mod","type":1}]}`, string(m.Params))

	a.send(`{"jsonrpc":"2.0","id":"u1","method":"client/unregisterCapability","params":{"unregisterations":[{"id":"w","method":"workspace/didChangeWatchedFiles"}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":"u1","result":null}`, a.recv().raw)
	a.send(frame)
	settle(t, a)
}

// An open document without edits takes the new text, and the server gets
// it as its didChange.
func TestCleanDocumentReloads(t *testing.T) {
	t.Parallel()
	h, disk, changes := diskHarness(t)
	m, a := openDiskDoc(t, h, "greet/greet.go", "package greet\n\nfunc Hello(name string) string {\n\treturn name\n}\n")
	disk.set("demo:greet/greet.go", "package greet\n\nfunc Hello(name, greeting string) string {\n\treturn name\n}\n")

	a.send(`{"files":[{"path":"greet/greet.go","type":2}]}`)
	ch := nextChange(t, changes)
	require.Equal(t, DiskChange{SessionID: "demo", Path: "greet/greet.go", Model: "kandev://demo/greet/greet.go",
		Type: wire.FileChanged, Reloaded: true, Version: 2}, ch)
	require.Equal(t, "package greet\n\nfunc Hello(name, greeting string) string {\n\treturn name\n}\n", m.Text())

	h.clock.Advance(time.Duration(DefaultDebounce))
	change := a.recvMethod("textDocument/didChange")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///srv/my%20task/greet/greet.go","version":2},"contentChanges":[`+
		`{"text":"package greet\n\nfunc Hello(name, greeting string) string {\n\treturn name\n}\n"}]}`, string(change.Params))

	// The same text again (a touch, or the page's own save): nothing.
	a.send(`{"files":[{"path":"greet/greet.go","type":2}]}`)
	disk.set("demo:greet/greet.go", "package greet\n")
	require.True(t, m.doc.Reload())
	require.True(t, nextChange(t, changes).Reloaded, "the touch reported nothing; the reload is next")
	require.Equal(t, "package greet\n", m.Text())
}

// An open document with edits keeps them: the page hears of the change
// and may reload on the user's word; the server hears nothing of it.
func TestDirtyDocumentKeepsItsEdits(t *testing.T) {
	t.Parallel()
	h, disk, changes := diskHarness(t)
	m, a := openDiskDoc(t, h, "main.go", "package main\n")
	m.typed("package main // mine\n")
	h.clock.Advance(time.Duration(DefaultDebounce))
	a.recvMethod("textDocument/didChange")
	disk.set("demo:main.go", "package main // theirs\n")

	a.send(`{"files":[{"path":"main.go","type":2}]}`)
	require.Equal(t, DiskChange{SessionID: "demo", Path: "main.go", Model: "kandev://demo/main.go",
		Type: wire.FileChanged, Dirty: true, Version: 2}, nextChange(t, changes))
	require.Equal(t, "package main // mine\n", m.Text())
	h.clock.Advance(time.Duration(DefaultDebounce))
	settle(t, a)

	// Deleted: reported, nothing changes.
	a.send(`{"files":[{"path":"main.go","type":3}]}`)
	require.Equal(t, DiskChange{SessionID: "demo", Path: "main.go", Model: "kandev://demo/main.go",
		Type: wire.FileDeleted, Dirty: true, Version: 2}, nextChange(t, changes))
	require.Equal(t, "package main // mine\n", m.Text())

	// Reload: the user chose the file's text.
	require.True(t, m.doc.Reload())
	ch := nextChange(t, changes)
	require.True(t, ch.Reloaded)
	require.False(t, ch.Dirty)
	require.Equal(t, "package main // theirs\n", m.Text())
	h.clock.Advance(time.Duration(DefaultDebounce))
	require.Contains(t, a.recvMethod("textDocument/didChange").raw, "theirs")
}

// Saving, then typing on before the save's change arrives: the file holds
// what was saved, so the change is the page's own and nobody is asked.
func TestSaveWhileTypingIsNoConflict(t *testing.T) {
	t.Parallel()
	h, disk, changes := diskHarness(t)
	m, a := openDiskDoc(t, h, "main.go", "package main\n")
	m.typed("package main\n\nfunc main() {}\n")
	a.recvMethod("textDocument/didChange") // the turn's first edit, at once
	saved := m.Text()
	disk.set("demo:main.go", saved)
	m.typed("package main\n\nfunc main() { x }\n") // typed during the write
	out, err := h.client.Saved(fmt.Sprintf(`{"model":"kandev://demo/main.go","ok":true,"persistedVersion":2,"liveVersion":3,"text":%q}`, saved))
	require.NoError(t, err)
	require.JSONEq(t, `{"dirty":true}`, out)
	require.Contains(t, a.recvMethod("textDocument/didChange").raw, "{ x }") // the save's flush
	a.recvMethod("textDocument/didSave")

	a.send(`{"files":[{"path":"main.go","type":2}]}`)
	settle(t, a)
	// A later deletion is reported, and is the first report.
	a.send(`{"files":[{"path":"main.go","type":3}]}`)
	ch := nextChange(t, changes)
	require.Equal(t, wire.FileDeleted, ch.Type, "the save's own change must not be reported: %+v", ch)
	require.Equal(t, "package main\n\nfunc main() { x }\n", m.Text())
}

// Without the page's readFile nothing can be reloaded: every change to an
// open document is reported and the model left alone.
func TestNoReadFileOnlyReports(t *testing.T) {
	t.Parallel()
	changes := make(chan DiskChange, 4)
	h := newHarness(t, func(c *Config) { c.OnDiskChange = func(ch DiskChange) { changes <- ch } })
	m, a := openDiskDoc(t, h, "main.go", "package main\n")
	a.send(`{"files":[{"path":"main.go","type":2}]}`)
	require.Equal(t, DiskChange{SessionID: "demo", Path: "main.go", Model: "kandev://demo/main.go", Type: wire.FileChanged, Version: 1}, nextChange(t, changes))
	require.False(t, m.doc.Reload())
	require.Equal(t, "package main\n", m.Text())
}

// A readFile that never answers does not hold the connection: stopping it
// ends the read at once.
func TestStopEndsAPendingRead(t *testing.T) {
	t.Parallel()
	reading := make(chan ctxlite.Context, 1)
	h := newHarness(t, func(c *Config) {
		c.ReadFile = func(ctx ctxlite.Context, _, _ string) (string, bool) {
			reading <- ctx
			<-ctx.Done()
			return "", false
		}
	})
	_, a := openDiskDoc(t, h, "main.go", "package main\n")
	a.send(`{"files":[{"path":"main.go","type":2}]}`)
	ctx := <-reading
	stopped := make(chan error, 1)
	go func() {
		sctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 5*clock.Second)
		defer cancel()
		stopped <- h.client.Stop(sctx, "demo", wire.Go)
	}()
	require.NoError(t, <-stopped)
	require.Error(t, ctx.Err(), "the read was ended with the connection")
}

// Every change a files frame names reaches the page, opened or not, once
// per session however many of its connections carry the frame; each
// session reports its own.
func TestWorkspaceFilesReportedOncePerSession(t *testing.T) {
	t.Parallel()
	type report struct {
		session string
		changes []FileChange
	}
	got := make(chan report, 8)
	h := newHarness(t, func(c *Config) {
		c.OnWorkspaceFiles = func(s string, ch []FileChange) { got <- report{s, ch} }
	})
	open := func(session, path string) *fakeAgent {
		m := newModel("x\n")
		_, err := h.client.OpenDocument(session, path, m, m)
		require.NoError(t, err)
		a := h.agent(t)
		handshake(t, h, a, "/w", "file:///w")
		a.recvMethod("textDocument/didOpen")
		return a
	}
	goAgent, tsAgent, otherAgent := open("demo", "main.go"), open("demo", "web/app.ts"), open("other", "main.go")

	const frame = `{"files":[{"path":"gen/api.go","type":1},{"path":"../escape","type":1},{"path":"notes.txt","type":3}]}`
	tsAgent.send(frame)
	goAgent.send(frame)
	otherAgent.send(frame)
	for _, a := range []*fakeAgent{tsAgent, goAgent, otherAgent} {
		settle(t, a) // every frame handled
	}
	want := []FileChange{{Path: "gen/api.go", Type: wire.FileCreated}, {Path: "notes.txt", Type: wire.FileDeleted}}
	seen := map[string]int{}
	for len(got) > 0 {
		r := <-got
		require.Equal(t, want, r.changes, "a malformed path is dropped")
		seen[r.session]++
	}
	require.Equal(t, map[string]int{"demo": 1, "other": 1}, seen)
}

// A model a workspace edit made and filled (the TypeScript server's "Move
// to a new file" writes the empty file, then sends the edit that fills
// it): opened with the text it was made from as what is on disk, the
// watcher's news of the empty file is no change, and the edit stays.
func TestEditedModelKeepsItsEditWhenItsFileAppears(t *testing.T) {
	t.Parallel()
	h, disk, changes := diskHarness(t)
	m := newDiskModel(t, "")
	m.version = 2
	m.text = "export function twice() {}\n" // made at version 1 from "", then edited
	doc, err := h.client.OpenDocument("demo", "twice.ts", m, m)
	require.NoError(t, err)
	m.doc = doc
	doc.SetPersistedText(1, "")
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	disk.set("demo:twice.ts", "")

	a.send(`{"files":[{"path":"twice.ts","type":1}]}`)
	settle(t, a)
	require.Equal(t, "export function twice() {}\n", m.Text())
	require.Empty(t, changes, "nothing to tell: the file holds what the model was made from")

	// Anything else on disk is told as a change under the edit, never
	// reloaded over it.
	disk.set("demo:twice.ts", "// theirs\n")
	a.send(`{"files":[{"path":"twice.ts","type":2}]}`)
	ch := nextChange(t, changes)
	require.True(t, ch.Dirty)
	require.False(t, ch.Reloaded)
	require.Equal(t, "export function twice() {}\n", m.Text())
}
