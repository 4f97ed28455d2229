package webdemo

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/assets"
)

// demoServer serves Handler with a stand-in relay and agent, behind a
// browser token whose cookie is cookie. agent records what reached it.
type demoServer struct {
	srv    *httptest.Server
	cookie string
	agent  struct {
		auth, path, method, cookie string
		n                          int
	}
}

func newDemoServer(t *testing.T) *demoServer {
	t.Helper()
	d := &demoServer{}
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.agent.n++
		d.agent.auth, d.agent.path, d.agent.method = r.Header.Get("Authorization"), r.URL.RequestURI(), r.Method
		d.agent.cookie = r.Header.Get("Cookie")
		io.WriteString(w, `["main.go"]`)
	}))
	t.Cleanup(agent.Close)
	agentURL, _ := url.Parse(agent.URL)

	relay := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "relay "+r.URL.Path) })
	wasmDir := t.TempDir()
	os.WriteFile(filepath.Join(wasmDir, "lsp.wasm"), []byte("\x00asm"), 0o644)
	os.WriteFile(filepath.Join(wasmDir, "wasm_exec.js"), []byte("// go"), 0o644)
	os.MkdirAll(filepath.Join(wasmDir, "bench-mlc", "assets"), 0o755)
	os.WriteFile(filepath.Join(wasmDir, "bench-mlc", "index.html"), []byte("<!doctype html>"), 0o644)
	os.WriteFile(filepath.Join(wasmDir, "bench-mlc", "assets", "index-Zy98Xw76.js"), []byte("// mlc"), 0o644)
	esm := t.TempDir()
	os.WriteFile(filepath.Join(esm, "entry.js"), []byte("// esm"), 0o644)
	os.MkdirAll(filepath.Join(esm, "assets"), 0o755)
	os.WriteFile(filepath.Join(esm, "assets", "lsp-Ab12Cd34.wasm"), []byte("\x00asm"), 0o644)
	bench := t.TempDir()
	os.WriteFile(filepath.Join(bench, "bench.html"), []byte("<!doctype html>bench"), 0o644)
	monaco := t.TempDir()
	os.MkdirAll(filepath.Join(monaco, "vs"), 0o755)
	os.WriteFile(filepath.Join(monaco, "vs", "loader.js"), []byte("// amd"), 0o644)

	tok := access.NewToken("page-secret", "local", "/")
	d.cookie = tok.CookieName() + "=page-secret"
	d.srv = httptest.NewServer(Handler(Config{
		Access: access.Config{Authenticate: tok.Authenticate, SignIn: tok},
		Relay:  relay, AgentURL: agentURL, AgentToken: "secret",
		WASMDir: wasmDir, ESMDir: esm, BenchDir: bench, MonacoDir: monaco, SessionID: "demo",
		TwinSessions: []string{"twin"}, DockerSessions: []string{"docker"}, PlainSessions: []string{"plain"},
	}))
	t.Cleanup(d.srv.Close)
	return d
}

// do sends one request with hdr and Host host (when not empty).
func (d *demoServer) do(t *testing.T, method, path, host string, hdr http.Header) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, d.srv.URL+path, strings.NewReader("body"))
	for k, v := range hdr {
		req.Header[k] = v
	}
	if host != "" {
		req.Host = host
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

var noRedirects = &http.Client{
	Transport:     &http.Transport{DisableKeepAlives: true},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// The page's routes reach the right piece: the relay, the agent (with the
// token added server-side and never sent by the page), and the assets.
func TestHandlerRoutes(t *testing.T) {
	d := newDemoServer(t)
	signedIn := http.Header{"Cookie": {d.cookie}}
	get := func(method, path string) (int, string, http.Header) {
		t.Helper()
		code, body, h := d.do(t, method, path, "", signedIn)
		return code, body, h
	}
	if code, body, _ := get("GET", "/lsp/demo?language=go"); code != 200 || body != "relay /lsp/demo" {
		t.Errorf("relay route: %d %q", code, body)
	}
	for _, r := range []struct{ method, path string }{{"GET", "/api/v1/user/settings"}, {"PUT", "/api/v1/user/settings"}, {"GET", "/api/v1/lsp/runtime"}, {"GET", "/api/v1/sessions/demo/lsp/installers"}} {
		if code, body, _ := get(r.method, r.path); code != 200 || body != "relay "+r.path {
			t.Errorf("%s %s: %d %q", r.method, r.path, code, body)
		}
	}
	if code, body, _ := get("GET", "/api/v1/workspace/files"); code != 200 || body != `["main.go"]` || d.agent.auth != "Bearer secret" || d.agent.path != "/api/v1/workspace/files" || d.agent.cookie != "" {
		t.Errorf("files route: %d %q auth=%q path=%q cookie=%q", code, body, d.agent.auth, d.agent.path, d.agent.cookie)
	}
	if code, _, _ := get("PUT", "/api/v1/workspace/file?path=main.go"); code != 200 || d.agent.method != "PUT" || d.agent.path != "/api/v1/workspace/file?path=main.go" {
		t.Errorf("save route: %d %s %s", code, d.agent.method, d.agent.path)
	}
	// The Files tree's create, move and delete reach the agent as sent.
	for _, r := range []struct{ method, path string }{
		{"POST", "/api/v1/workspace/entry?path=pkg%2Fnew.go&kind=file"},
		{"POST", "/api/v1/workspace/move?from=main.go&to=pkg%2Fmain.go"},
		{"DELETE", "/api/v1/workspace/entry?path=pkg"},
	} {
		if code, _, _ := get(r.method, r.path); code != 200 || d.agent.method != r.method || d.agent.path != r.path || d.agent.auth != "Bearer secret" || d.agent.cookie != "" {
			t.Errorf("%s %s: %d %s %s auth=%q cookie=%q", r.method, r.path, code, d.agent.method, d.agent.path, d.agent.auth, d.agent.cookie)
		}
	}
	if code, _, _ := get("GET", "/api/v1/library/file?path=%2Fusr%2Flocal%2Fgo%2Fsrc%2Ffmt%2Fprint.go"); code != 200 || d.agent.method != "GET" || d.agent.path != "/api/v1/library/file?path=%2Fusr%2Flocal%2Fgo%2Fsrc%2Ffmt%2Fprint.go" {
		t.Errorf("library route: %d %s %s", code, d.agent.method, d.agent.path)
	}
	for _, method := range []string{"PUT", "POST", "DELETE"} {
		n := d.agent.n
		if code, _, _ := get(method, "/api/v1/library/file?path=%2Fx"); code == 200 || d.agent.n != n {
			t.Errorf("a %s to the library reached the agent: %d", method, code)
		}
	}
	if code, _, h := get("GET", "/wasm/lsp.cd5d4935a48c.wasm"); code != 200 || h.Get("Content-Type") != "application/wasm" || h.Get("Cache-Control") != assets.ImmutableCache {
		t.Errorf("lsp.wasm: %d %q", code, h.Get("Content-Type"))
	}
	// The benchmark's monaco-languageclient page: its hashed chunks are
	// cached for good, its page is revalidated, as its users would ship it.
	if code, _, h := get("GET", "/wasm/bench-mlc/assets/index-Zy98Xw76.js"); code != 200 || h.Get("Cache-Control") != assets.ImmutableCache {
		t.Errorf("bench-mlc chunk: %d %q", code, h.Get("Cache-Control"))
	}
	if code, _, h := get("GET", "/wasm/bench-mlc/index.html"); code != 200 || h.Get("Cache-Control") == assets.ImmutableCache {
		t.Errorf("bench-mlc page: %d %q", code, h.Get("Cache-Control"))
	}
	// The benchmark pages come from their own folder, not the demo's.
	if code, body, _ := get("GET", "/bench/bench.html"); code != 200 || body != "<!doctype html>bench" {
		t.Errorf("bench page: %d %q", code, body)
	}
	if code, _, _ := get("GET", "/bench.html"); code == 200 {
		t.Errorf("the demo's own folder still serves a bench page")
	}
	if code, body, _ := get("GET", "/monaco/vs/loader.js"); code != 200 || body != "// amd" {
		t.Errorf("monaco: %d %q", code, body)
	}
	if code, body, _ := get("GET", "/config.json"); code != 200 || body != `{"sessionId":"demo","wasm":"/wasm/lsp.cd5d4935a48c.wasm","sessions":[{"id":"demo","lsp":true},{"id":"twin","lsp":true},{"id":"docker","lsp":true,"executor":"local_docker"},{"id":"plain","lsp":false}]}` {
		t.Errorf("config: %d %q", code, body)
	}
	for _, page := range []string{"/", "/esm/"} {
		if code, body, _ := get("GET", page); code != 200 || !strings.Contains(body, `src="entry.js"`) || strings.Contains(body, "secret") {
			t.Errorf("page %s: %d", page, code)
		}
	}
	if code, body, h := get("GET", "/esm/entry.js"); code != 200 || body != "// esm" || h.Get("Cache-Control") != "no-cache" {
		t.Errorf("esm entry: %d %q %q", code, body, h.Get("Cache-Control"))
	}
	if code, _, h := get("GET", "/esm/assets/lsp-Ab12Cd34.wasm"); code != 200 || h.Get("Cache-Control") != assets.ImmutableCache || h.Get("Content-Type") != "application/wasm" {
		t.Errorf("esm asset: %d %q", code, h.Get("Cache-Control"))
	}
}

// The sign-in URL sets the page's cookie and opens the page; without the
// cookie no route answers, the page and the file routes included.
func TestSignInGuardsEveryRoute(t *testing.T) {
	d := newDemoServer(t)
	for _, path := range []string{"/", "/config.json", "/lsp.wasm", "/api/v1/workspace/files", "/api/v1/user/settings", "/lsp/demo?language=go"} {
		if code, _, _ := d.do(t, "GET", path, "", nil); code != http.StatusUnauthorized {
			t.Errorf("GET %s without the cookie: %d", path, code)
		}
	}
	for _, r := range []struct{ method, path string }{
		{"PUT", "/api/v1/workspace/file?path=main.go"},
		{"POST", "/api/v1/workspace/entry?path=new.go&kind=file"},
		{"POST", "/api/v1/workspace/move?from=main.go&to=x.go"},
		{"DELETE", "/api/v1/workspace/entry?path=main.go"},
	} {
		if code, _, _ := d.do(t, r.method, r.path, "", nil); code != http.StatusUnauthorized {
			t.Errorf("%s %s without the cookie: %d", r.method, r.path, code)
		}
	}
	code, _, h := d.do(t, "GET", access.SignInPath+"?token=page-secret", "", nil)
	if code != http.StatusSeeOther || h.Get("Location") != "/" || !strings.HasPrefix(h.Get("Set-Cookie"), d.cookie+";") {
		t.Errorf("sign-in: %d location=%q cookie=%q", code, h.Get("Location"), h.Get("Set-Cookie"))
	}
	if d.agent.n != 0 {
		t.Errorf("the agent saw %d requests", d.agent.n)
	}
}

// A rebinding page (foreign Host, with a matching Origin or none) and a
// cross-origin page cannot list, read, save, create, move or delete
// workspace files, even with the page's cookie: nothing reaches the agent.
func TestFileRoutesRefuseRebindingAndCrossOrigin(t *testing.T) {
	d := newDemoServer(t)
	_, port, _ := net.SplitHostPort(d.srv.Listener.Addr().String())
	foreign := "rebind.attacker.example:" + port
	for _, tc := range []struct {
		name, host, origin string
	}{
		{"rebinding, matching Origin", foreign, "http://" + foreign},
		{"rebinding, no Origin", foreign, ""},
		{"cross-origin", "", "https://evil.example.net"},
	} {
		hdr := http.Header{"Cookie": {d.cookie}}
		if tc.origin != "" {
			hdr.Set("Origin", tc.origin)
		}
		for _, r := range []struct{ method, path string }{
			{"GET", "/api/v1/workspace/files"},
			{"GET", "/api/v1/workspace/file?path=main.go"},
			{"PUT", "/api/v1/workspace/file?path=main.go"},
			{"POST", "/api/v1/workspace/entry?path=new.go&kind=file"},
			{"POST", "/api/v1/workspace/move?from=main.go&to=x.go"},
			{"DELETE", "/api/v1/workspace/entry?path=main.go"},
			{"PUT", "/api/v1/user/settings"},
			{"GET", "/lsp/demo?language=go"},
		} {
			if code, _, _ := d.do(t, r.method, r.path, tc.host, hdr); code != http.StatusForbidden {
				t.Errorf("%s: %s %s answered %d", tc.name, r.method, r.path, code)
			}
		}
	}
	if d.agent.n != 0 {
		t.Errorf("the agent saw %d requests", d.agent.n)
	}
}

// The demo edits a copy: the sample in the repository never changes.
func TestNewWorkspaceCopies(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "pkg"), 0o755)
	os.WriteFile(filepath.Join(src, "pkg", "a.go"), []byte("package pkg"), 0o644)
	ws, err := NewWorkspace(src)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(ws)
	if !filepath.IsAbs(ws) || ws == src {
		t.Fatalf("workspace %q", ws)
	}
	os.WriteFile(filepath.Join(ws, "pkg", "a.go"), []byte("changed"), 0o644)
	if b, _ := os.ReadFile(filepath.Join(src, "pkg", "a.go")); string(b) != "package pkg" {
		t.Fatalf("sample changed: %q", b)
	}
}

// The fake stands in under the real servers' names, first on PATH, and the
// rest of the environment is kept.
func TestWithFakeServers(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakelsp")
	os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755)
	env, err := WithFakeServers([]string{"HOME=/h", "PATH=/usr/bin"}, dir, fake)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fake-servers")
	if env[0] != "HOME=/h" || env[1] != "PATH="+bin+":/usr/bin" || len(env) != 2 {
		t.Fatalf("env = %q", env)
	}
	for _, name := range FakeServerNames {
		if target, err := os.Readlink(filepath.Join(bin, name)); err != nil || target != fake {
			t.Errorf("%s -> %q, %v", name, target, err)
		}
	}
}

func TestPrependPath(t *testing.T) {
	env, err := PrependPath([]string{"HOME=/h", "PATH=/usr/bin"}, "/a"+string(os.PathListSeparator)+"/b")
	if err != nil {
		t.Fatal(err)
	}
	want := "PATH=/a" + string(os.PathListSeparator) + "/b" + string(os.PathListSeparator) + "/usr/bin"
	if len(env) != 2 || env[0] != "HOME=/h" || env[1] != want {
		t.Fatalf("env = %q, want HOME and %q", env, want)
	}
	env, _ = PrependPath([]string{"HOME=/h"}, "/a")
	if env[len(env)-1] != "PATH=/a" {
		t.Fatalf("no PATH before: %q", env)
	}
}
