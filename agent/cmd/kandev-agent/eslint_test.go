//go:build linux

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// eslintWorkspace is e2e/workspaces/eslint: a flat eslint.config.js, a
// pinned eslint in its lockfile (installed by `task setup:npm` with npm ci
// --ignore-scripts) and unused.js, whose `width` is never read.
func eslintWorkspace(t *testing.T) string {
	t.Helper()
	ws, err := filepath.Abs(filepath.Join("..", "..", "..", "e2e", "workspaces", "eslint"))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(ws, "node_modules", "eslint", "package.json"))
	require.NoError(t, err, "the workspace's own eslint is installed by `task setup:npm` (npm ci --ignore-scripts in %s)", ws)
	return ws
}

// TestRealESLintThroughAgent is ESLint as a user gets it: the agent
// installs the eslint entry from its embedded lockfile (the shared
// vscode-langservers-extracted install) into a fresh task HOME, the ready
// frame carries the entry's default settings, and the client answers the
// server's workspace/configuration requests with them. The server then
// loads the workspace's own eslint and flat config and reports
// no-unused-vars for unused.js through a textDocument/diagnostic pull —
// the only way it reports. Only with KANDEV_REAL_INSTALL=1 (the test
// command sets it), like the other installs from the registry.
func TestRealESLintThroughAgent(t *testing.T) {
	if os.Getenv("KANDEV_REAL_INSTALL") != "1" {
		t.Skip("set KANDEV_REAL_INSTALL=1 to npm install the ESLint server from the registry")
	}
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "npm on PATH")
	ws := eslintWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "KANDEV_") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+t.TempDir(), "PATH="+filepath.Dir(npm)+":"+os.Getenv("PATH"))
	_, base := launch(t, ctx, ws, env)

	c := stream(t, ctx, base, "typescript&server=eslint")
	nextStatus(t, ctx, c, wire.StatusInstalling)
	nextStatus(t, ctx, c, wire.StatusInstalled)
	ready := nextStatus(t, ctx, c, wire.StatusReady)
	require.Equal(t, "eslint", ready.Server)
	require.Equal(t, []string{wire.FeatureDiagnostics, wire.FeatureCodeAction, wire.FeatureWorkspaceCommand}, ready.Features)
	require.NotEmpty(t, ready.Configuration, "the ready frame carries ESLint's default settings")

	l := &lspPeer{t: t, ctx: ctx, c: c, configuration: json.RawMessage(ready.Configuration)}
	init := l.call(1, "initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": ready.WorkspaceURI,
		"workspaceFolders": []map[string]any{{"uri": ready.WorkspaceURI, "name": "eslint"}},
		"capabilities": map[string]any{
			"workspace":    map[string]any{"configuration": true},
			"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": false}},
		},
	})
	var caps struct {
		Capabilities struct {
			DiagnosticProvider *struct {
				Identifier string `json:"identifier"`
			} `json:"diagnosticProvider"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(init, &caps))
	require.NotNil(t, caps.Capabilities.DiagnosticProvider, "ESLint reports by pull: %s", init)
	l.notify("initialized", map[string]any{})

	text, err := os.ReadFile(filepath.Join(ws, "unused.js"))
	require.NoError(t, err)
	uri := ready.WorkspaceURI + "/unused.js"
	l.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": wire.LanguageID("unused.js"), "version": 1, "text": string(text),
	}})
	start := time.Now()
	report := l.call(2, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}})
	var got struct {
		Kind  string `json:"kind"`
		Items []struct {
			Code    string `json:"code"`
			Source  string `json:"source"`
			Message string `json:"message"`
			Range   struct {
				Start struct{ Line, Character int }
			} `json:"range"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal(report, &got))
	require.Equal(t, "full", got.Kind)
	require.Len(t, got.Items, 1, "%s", report)
	d := got.Items[0]
	require.Equal(t, "no-unused-vars", d.Code)
	require.Equal(t, "eslint", d.Source)
	require.Contains(t, d.Message, "'width' is assigned a value but never used")
	require.Equal(t, 5, d.Range.Start.Line, "the line of `const width`")
	require.Positive(t, l.configurations, "the server asked for its settings")
	t.Logf("ESLint's diagnostics pulled through the agent in %v", time.Since(start).Round(time.Millisecond))
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
}

// lspPeer is the client end of a stream for a real server: it sends
// requests and notifications and, while it waits for an answer, answers
// the server's own requests as an editor would — workspace/configuration
// from the ready frame's configuration, anything else with null — and
// skips notifications and the agent's files frames.
type lspPeer struct {
	t             *testing.T
	ctx           context.Context
	c             *websocket.Conn
	configuration json.RawMessage
	// configurations counts the workspace/configuration requests answered.
	configurations int
}

func (l *lspPeer) send(msg map[string]any) {
	l.t.Helper()
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	require.NoError(l.t, err)
	require.NoError(l.t, l.c.Write(l.ctx, websocket.MessageText, b))
}

func (l *lspPeer) notify(method string, params any) {
	l.t.Helper()
	l.send(map[string]any{"method": method, "params": params})
}

// call sends a request and returns its result; an error answer fails the
// test.
func (l *lspPeer) call(id int, method string, params any) json.RawMessage {
	l.t.Helper()
	l.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		_, b, err := l.c.Read(l.ctx)
		require.NoError(l.t, err, "waiting for the answer to %s", method)
		if wire.IsFilesFrame(b) {
			continue
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		require.NoError(l.t, json.Unmarshal(b, &msg), string(b))
		switch {
		case msg.Method == "eslint/noLibrary" || msg.Method == "eslint/noConfig" || msg.Method == "eslint/probeFailed":
			l.t.Fatalf("ESLint did not load the workspace's eslint and config: %s", b)
		case msg.Method != "" && msg.ID != nil:
			l.answer(msg.ID, msg.Method, msg.Params)
		case msg.Method != "":
			continue // a notification: log messages, eslint/status
		case string(msg.ID) == jsonInt(id):
			if len(msg.Error) > 0 {
				l.t.Fatalf("%s answered with an error: %s", method, b)
			}
			return msg.Result
		}
	}
}

// answer replies to a request of the server.
func (l *lspPeer) answer(id json.RawMessage, method string, params json.RawMessage) {
	l.t.Helper()
	var result any
	if method == "workspace/configuration" {
		var p struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		require.NoError(l.t, json.Unmarshal(params, &p))
		items := make([]json.RawMessage, len(p.Items))
		for i, it := range p.Items {
			items[i] = section(l.t, l.configuration, it.Section)
		}
		result = items
		l.configurations++
	}
	l.send(map[string]any{"id": id, "result": result})
}

// section returns the member of a settings object at a dotted path, the
// whole object for "" (what ESLint asks for), or null where there is none.
func section(t *testing.T, settings json.RawMessage, path string) json.RawMessage {
	t.Helper()
	v := settings
	for _, key := range strings.Split(path, ".") {
		if key == "" {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil || m[key] == nil {
			return json.RawMessage("null")
		}
		v = m[key]
	}
	return v
}

func jsonInt(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
