package app

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/stretchr/testify/require"
)

// Spec: after Stop, a remounted editor or a settings change keeps the server
// off in this runtime even with auto-start on; a manual Start is remembered
// in local storage and survives a reload.
func TestStopSuppressesAutoStartUntilStart(t *testing.T) {
	t.Parallel()
	store := &memStore{m: map[string]string{}}
	h := newHarness(t, store, `{"lsp_auto_start_languages":["go"]}`)
	d := h.open("s", "main.go")
	a := h.agent()
	a.initialized(a.ready())
	a.recvMethod("textDocument/didOpen")
	v := h.waitView("ready", state("ready"))
	require.Equal(t, "stop", v.action())

	h.app.Stop("s", wire.Go)
	sd := a.recvMethod("shutdown")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, sd.ID)
	a.recvMethod("exit")
	v = h.waitView("off", state("off"))
	require.Equal(t, "start", v.action())
	require.Nil(t, v.CloseCode)

	// Remount: the editor closes and opens again.
	d.Close()
	h.open("s", "main.go")
	h.noDial()
	// A settings change, auto-start still on.
	require.NoError(t, h.app.SetSettings([]byte(`{"lsp_auto_start_languages":["go","python"],"lsp_server_configs":{"go":{"gopls":{}}}}`)))
	h.noDial()
	require.Contains(t, h.app.View("s", wire.Go, false), `"state":"off"`)
	_, remembered := store.Get("kandev.lsp.manual.s.go")
	require.False(t, remembered)

	// Another session is unaffected by the stop.
	h.open("other", "main.go")
	a2 := h.agent()
	require.Equal(t, "ws://relay.test/lsp/other?language=go", a2.url)

	// Explicit Start: connects, reopens the document and is remembered.
	h.app.Start("s", wire.Go)
	a3 := h.agent()
	require.Equal(t, "ws://relay.test/lsp/s?language=go", a3.url)
	a3.initialized(a3.ready())
	a3.recvMethod("textDocument/didOpen")
	val, _ := store.Get("kandev.lsp.manual.s.go")
	require.Equal(t, "1", val)

	// A reload: a new App over the same local storage, auto-start off.
	h2 := newHarness(t, store, `{"lsp_auto_start_languages":[]}`)
	h2.open("s", "main.go")
	h2.agent()
	h2.open("s", "app.py") // python: neither auto nor manual
	h2.noDial()
	pv := h2.waitView("python off", func(v viewJSON) bool { return v.Language == "python" })
	require.Equal(t, "off", pv.State)
	require.Equal(t, "start", pv.action())
}

// The initialize wait is shown with locally measured elapsed time, ticking
// every second from Go, turning long-running after 60 s with Stop kept, and
// the tick stops once nothing elapses.
func TestInitializeElapsedTickAndLongRunning(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, `{"lsp_auto_start_languages":["kotlin"]}`)
	h.open("s", "Main.kt")
	a := h.agent()
	init := a.ready()
	v := h.waitView("initializing", func(v viewJSON) bool { return v.Summary == "Initializing (0 s)" })
	require.Equal(t, "starting", v.State)
	require.Equal(t, "stop", v.action())
	require.Contains(t, v.Details, "The kotlin-lsp process started. Waiting for its initialize response.")

	require.Eventually(t, func() bool { return h.clock.Armed() == 1 }, 5*time.Second, time.Millisecond, "one tick timer")
	h.clock.Advance(time.Second)
	h.waitView("1 s", func(v viewJSON) bool { return v.Summary == "Initializing (1 s)" })
	for i := 0; i < 59; i++ {
		require.Eventually(t, func() bool { return h.clock.Armed() == 1 }, 5*time.Second, time.Millisecond)
		h.clock.Advance(time.Second)
	}
	v = h.waitView("long", func(v viewJSON) bool { return v.Summary == "Initialization is taking longer than usual (1 min 0 s)" })
	require.Equal(t, "starting", v.State, "the long-running warning does not change the state")
	require.Equal(t, "stop", v.action())
	require.Contains(t, v.Details, "Kotlin LSP may be importing a Gradle project. Cross-file features stay unavailable until initialization completes.")

	// Kotlin reports import progress on the initialize token.
	var params struct {
		WorkDoneToken json.RawMessage `json:"workDoneToken"`
	}
	require.NoError(t, json.Unmarshal(init.Params, &params))
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":%s,"value":{"kind":"begin","title":"Importing Gradle project","message":"sync","percentage":120}}}`, params.WorkDoneToken)
	v = h.waitView("progress", func(v viewJSON) bool { return v.Progress != nil })
	require.Equal(t, "Importing Gradle project 100%", v.Summary)
	require.Equal(t, 100, *v.Progress.Percentage)
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":%s,"value":{"kind":"end"}}}`, params.WorkDoneToken)

	a.initialized(init)
	v = h.waitView("ready, work finished", func(v viewJSON) bool { return v.State == "ready" && v.Progress == nil })
	require.Contains(t, v.Details, "Server-reported work finished: Importing Gradle project")
	// Nothing elapses now: the pending tick fires once more and is not
	// scheduled again.
	h.clock.Advance(time.Second)
	require.Eventually(t, func() bool { return h.clock.Armed() == 0 }, 5*time.Second, time.Millisecond)
	h.clock.Advance(10 * time.Second)
	h.quiet()
}

// Scripted progress shows title, percentage and count; a crash shows the
// server-exited error with Retry; Retry reconnects without stale progress.
func TestProgressCrashRetry(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, `{"lsp_auto_start_languages":["go"]}`)
	h.open("s", "main.go")
	a := h.agent()
	a.initialized(a.ready())
	a.recvMethod("textDocument/didOpen")
	for i, tok := range []string{`"a"`, `2`} {
		a.send(`{"jsonrpc":"2.0","id":%d,"method":"window/workDoneProgress/create","params":{"token":%s}}`, 100+i, tok)
		require.JSONEq(t, `null`, string(mustResult(t, a.recv())))
	}
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"a","value":{"kind":"begin","title":"Loading packages","percentage":10}}}`)
	h.waitView("first item", func(v viewJSON) bool { return v.Progress != nil })
	h.clock.Advance(2 * time.Second)
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":2,"value":{"kind":"begin","title":"Indexing"}}}`)
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"a","value":{"kind":"report","message":"42/100"}}}`)
	v := h.waitView("two items", func(v viewJSON) bool {
		return v.Progress != nil && v.Progress.Others == 1 && v.Progress.Message == "42/100"
	})
	require.Equal(t, "Loading packages 10% · 1 more", v.Summary)
	require.Equal(t, int64(2000), v.Progress.ElapsedMs)
	require.Contains(t, v.Details, "Cross-file results may be incomplete while the server reports work.")

	a.closeWith(int(wire.CloseServerExited))
	v = h.waitView("error", state("error"))
	require.Equal(t, "The language server exited.", v.Summary)
	require.Equal(t, "retry", v.action())
	require.Equal(t, 4006, *v.CloseCode)
	require.Nil(t, v.Progress)

	h.app.Retry("s", wire.Go)
	a2 := h.agent()
	a2.initialized(a2.ready())
	a2.recvMethod("textDocument/didOpen")
	v = h.waitView("ready again", state("ready"))
	require.Nil(t, v.Progress)
	require.Equal(t, "Ready", v.Summary)
	require.Contains(t, v.Details, "The server has not reported ongoing analysis.")
}

func mustResult(t *testing.T, m msg) json.RawMessage {
	t.Helper()
	require.Nil(t, m.Error, m.raw)
	var r struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(m.raw), &r))
	return r.Result
}

// A settings change reaches the live server with didChangeConfiguration and
// later workspace/configuration answers, without a new process.
func TestSettingsChangeReachesLiveServer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, `{"lsp_auto_start_languages":["go"],"lsp_server_configs":{"go":{"gopls":{"staticcheck":false}}}}`)
	h.open("s", "main.go")
	a := h.agent()
	a.initialized(a.ready())
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","id":1,"method":"workspace/configuration","params":{"items":[{"section":"gopls"},{"section":"go"}]}}`)
	require.JSONEq(t, `[{"staticcheck":false},null]`, string(mustResult(t, a.recv())))

	// Unchanged Go config: nothing is pushed.
	require.NoError(t, h.app.SetSettings([]byte(`{"lsp_auto_start_languages":["go","python"],"lsp_server_configs":{"go":{"gopls":{"staticcheck":false}}}}`)))
	require.NoError(t, h.app.SetSettings([]byte(`{"lsp_auto_start_languages":["go"],"lsp_server_configs":{"go":{"gopls":{"staticcheck":true}}}}`)))
	ch := a.recvMethod("workspace/didChangeConfiguration")
	require.JSONEq(t, `{"settings":{"gopls":{"staticcheck":true}}}`, string(ch.Params))
	a.send(`{"jsonrpc":"2.0","id":2,"method":"workspace/configuration","params":{"items":[{"section":"gopls"}]}}`)
	require.JSONEq(t, `[{"staticcheck":true}]`, string(mustResult(t, a.recv())))
	h.noDial()
	require.Error(t, h.app.SetSettings([]byte(`{`)))
}

// Locale switches re-render every view; unknown locales fall back to English.
func TestLocaleAndViewLookup(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, ``)
	h.open("s", "app.py")
	h.waitView("off", state("off"))
	h.app.SetLocale("de-DE")
	v := h.waitView("german", func(v viewJSON) bool { return v.Summary == "Aus" })
	require.Equal(t, "start", v.action())
	h.app.SetLocale("xx")
	h.waitView("english", func(v viewJSON) bool { return v.Summary == "Off" })

	require.Equal(t, "de", h.app.SetLocale("de"))
	require.Equal(t, "en", h.app.SetLocale("en"))
	require.Equal(t, "null", h.app.View("s", "cobol", false))
	require.Equal(t, "null", h.app.View("", wire.Go, false))
	require.Equal(t, "null", h.app.View("never", wire.Rust, true))
	require.Contains(t, h.app.View("s", wire.Python, true), `"state":"off"`)
	var fresh viewJSON
	require.NoError(t, json.Unmarshal([]byte(h.app.View("never", wire.Rust, false)), &fresh))
	require.Equal(t, "off", fresh.State)
	require.Equal(t, "start", fresh.action())
}

// 4003 keeps a preceding install_failed detail; 4001 in German shows the
// catalog text, never the close reason.
func TestCloseCodeViews(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, `{"lsp_auto_start_languages":["python"]}`)
	h.app.SetLocale("de")
	h.open("s", "app.py")
	a := h.agent()
	a.send(`{"status":"installing","language":"python"}`)
	h.waitView("installing", state("installing"))
	a.send(`{"status":"install_failed","language":"python","error":"npm ERR! 404 pyright"}`)
	a.closeWith(int(wire.CloseInstallFailed))
	v := h.waitView("error", state("error"))
	require.Equal(t, "Die Installation von pyright-langserver ist fehlgeschlagen.", v.Summary)
	require.Contains(t, v.Details, "npm ERR! 404 pyright")
	require.Equal(t, "npm ERR! 404 pyright", v.Message)

	h.app.Retry("s", wire.Python)
	a2 := h.agent()
	a2.closeWith(int(wire.CloseBinaryMissing))
	v = h.waitView("4001", func(v viewJSON) bool { return v.CloseCode != nil && *v.CloseCode == 4001 })
	require.Equal(t, "pyright-langserver ist auf dem Task-Host nicht installiert.", v.Summary)
	require.Empty(t, v.Message)
}

// A server's message arrives as one JSON ready for a notice, titled and
// with its dismiss label in the page's locale; a request's choice goes
// back to the server.
func TestServerMessageNotice(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, `{"lsp_auto_start_languages":["go"]}`)
	h.app.SetLocale("de")
	h.open("s", "main.go")
	a := h.agent()
	a.initialized(a.ready())
	a.recvMethod("textDocument/didOpen")
	next := func() map[string]any {
		t.Helper()
		select {
		case js := <-h.msgs:
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(js), &m), js)
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no message")
			return nil
		}
	}
	a.send(`{"jsonrpc":"2.0","method":"window/showMessage","params":{"type":1,"message":"gopls: broken go.mod"}}`)
	require.Equal(t, map[string]any{"id": nil, "sessionId": "s", "language": "go", "type": "error", "message": "gopls: broken go.mod",
		"actions": []any{}, "title": "Meldung von gopls", "dismissLabel": "Schließen"}, next())

	a.send(`{"jsonrpc":"2.0","id":5,"method":"window/showMessageRequest","params":{"type":3,"message":"Reload?","actions":[{"title":"Reload"}]}}`)
	m := next()
	require.Equal(t, []any{"Reload"}, m["actions"])
	require.True(t, h.app.Respond(m["id"].(string), "Reload", true))
	ans := a.recv()
	require.JSONEq(t, `5`, string(ans.ID))
	require.Contains(t, ans.raw, `"result":{"title":"Reload"}`)
}

// Prepare dials only what auto-start allows, is not remembered as a manual
// Start, does not lift a Stop, and the document opened later joins it.
func TestPrepareFollowsTheStartPolicy(t *testing.T) {
	t.Parallel()
	store := &memStore{m: map[string]string{}}
	h := newHarness(t, store, `{"lsp_auto_start_languages":["go"]}`)
	require.False(t, h.app.Prepare("s", wire.Python), "python does not auto-start")
	h.noDial()

	require.True(t, h.app.Prepare("s", wire.Go))
	a := h.agent()
	a.initialized(a.ready())
	h.waitView("ready", state("ready"))
	_, remembered := store.Get("kandev.lsp.manual.s.go")
	require.False(t, remembered, "Prepare is not a manual Start")
	h.open("s", "main.go")
	a.recvMethod("textDocument/didOpen")
	h.noDial()

	h.app.Stop("other", wire.Go)
	require.False(t, h.app.Prepare("other", wire.Go), "a Stop holds")
	h.noDial()
}
