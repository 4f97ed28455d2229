//go:build linux

package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

const token = "tok"

func start(t *testing.T, env map[string]string, ws string) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(Config{Workspace: ws, Token: token, Env: env, StopGrace: time.Second, KillGrace: time.Second})
	require.NoError(t, err)
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
		hs.Close()
	})
	return s, hs
}

func dial(t *testing.T, ctx context.Context, hs *httptest.Server, lang string) *websocket.Conn {
	t.Helper()
	u := "ws" + strings.TrimPrefix(hs.URL, "http") + wire.AgentStreamPath + "?" + wire.ParamLanguage + "=" + lang
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	require.NoError(t, err)
	c.SetReadLimit(wire.MaxMessageSize)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	_, err := New(Config{Workspace: t.TempDir()})
	require.Error(t, err, "empty token")
	_, err = New(Config{Workspace: "relative", Token: token})
	require.Error(t, err)
}

func TestRoutesWired(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n"), 0o644))
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gopls"), []byte("#!/bin/sh\nexec cat\n"), 0o755))
	s, hs := start(t, map[string]string{"PATH": bin + ":/usr/bin:/bin"}, ws)

	req, _ := http.NewRequest(http.MethodGet, hs.URL+wire.AgentFilesPath, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.JSONEq(t, `["a.go"]`, string(b))

	// The Files tree's create, move and delete reach the workspace.
	for _, r := range []struct {
		method, route string
		want          int
	}{
		{http.MethodPost, wire.AgentEntryPath + "?path=d&kind=dir", http.StatusCreated},
		{http.MethodPost, wire.AgentMovePath + "?from=a.go&to=d%2Fa.go", http.StatusNoContent},
		{http.MethodDelete, wire.AgentEntryPath + "?path=d", http.StatusNoContent},
	} {
		req, _ := http.NewRequest(r.method, hs.URL+r.route, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, r.want, resp.StatusCode, "%s %s", r.method, r.route)
	}
	entries, err := os.ReadDir(ws)
	require.NoError(t, err)
	require.Empty(t, entries)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := dial(t, ctx, hs, "go")
	_, _, err = c.Read(ctx) // ready
	require.NoError(t, err)
	go func() { _ = s.Shutdown(ctx) }()
	_, _, err = c.Read(ctx)
	require.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err))
}

// findGopls looks where `go install` puts gopls, then on PATH.
func findGopls() string {
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
			p := filepath.Join(dir, "bin", "gopls")
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
		}
	}
	p, _ := exec.LookPath("gopls")
	return p
}

// TestRealGopls drives the real gopls through the agent: initialize,
// initialized, didOpen of a file with a type error, and waits for
// publishDiagnostics to report it.
func TestRealGopls(t *testing.T) {
	t.Parallel()
	gopls := findGopls()
	if gopls == "" {
		if os.Getenv("KANDEV_REQUIRE_GOPLS") == "1" {
			t.Fatal("gopls not found in $(go env GOPATH)/bin or PATH, and KANDEV_REQUIRE_GOPLS=1")
		}
		t.Skip("gopls not found in $(go env GOPATH)/bin or PATH; install gopls v0.23.0 (go install golang.org/x/tools/gopls@v0.23.0) to run this test")
	}
	ws := t.TempDir()
	src := "package main\n\nfunc main() {\n\tvar x int = \"not an int\"\n\t_ = x\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "main.go"), []byte(src), 0o644))

	// The test process's environment is the task environment, with gopls'
	// directory first on PATH.
	env := taskenv.Parse(os.Environ())
	env["PATH"] = filepath.Dir(gopls) + string(filepath.ListSeparator) + env["PATH"]
	_, hs := start(t, env, ws)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := dial(t, ctx, hs, "go")
	_, b, err := c.Read(ctx)
	require.NoError(t, err)
	var ready wire.Status
	require.NoError(t, json.Unmarshal(b, &ready))
	require.Equal(t, wire.StatusReady, ready.Status)

	send := func(v any) {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.NoError(t, c.Write(ctx, websocket.MessageText, b))
	}
	type msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	// next returns the next message that is not a server request; server
	// requests get a minimal answer so gopls is never left waiting.
	next := func() msg {
		for {
			_, b, err := c.Read(ctx)
			require.NoError(t, err)
			var m msg
			require.NoError(t, json.Unmarshal(b, &m))
			if m.Method == "" || len(m.ID) == 0 {
				return m
			}
			var result any
			if m.Method == "workspace/configuration" {
				var p struct{ Items []any }
				_ = json.Unmarshal(m.Params, &p)
				result = make([]any, len(p.Items))
			}
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		}
	}

	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"processId": nil, "rootUri": ready.WorkspaceURI, "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": ready.WorkspaceURI, "name": "m"}},
	}})
	for {
		m := next()
		if string(m.ID) == "1" {
			require.Empty(t, m.Error, "initialize failed")
			break
		}
	}
	uri := wire.FileURI(filepath.Join(ws, "main.go"))
	send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": src},
	}})
	for {
		m := next()
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string            `json:"uri"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
		}
		require.NoError(t, json.Unmarshal(m.Params, &p))
		if p.URI == uri && len(p.Diagnostics) > 0 {
			t.Logf("diagnostic: %s", p.Diagnostics[0])
			break
		}
	}
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
}
