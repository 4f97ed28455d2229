//go:build linux

package stream

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// dialQuery dials the stream with a raw query string.
func dialQuery(t *testing.T, f *fixture, query, tok string) (*http.Response, error) {
	t.Helper()
	h := http.Header{}
	if tok != "" {
		h.Set("Authorization", "Bearer "+tok)
	}
	u := "ws" + strings.TrimPrefix(f.srv.URL, "http") + wire.AgentStreamPath + "?" + query
	_, resp, err := websocketDial(t, u, h)
	return resp, err
}

// everyCommand puts, for every built-in entry, a server on the task PATH
// that records its start in the workspace and echoes.
func everyCommand(t *testing.T, f *fixture) {
	t.Helper()
	for _, e := range catalog.Builtin().Entries() {
		script := "#!/bin/sh\necho \"$0 $*\" >> " + filepath.Join(f.ws, "started") + "\nenv > " + filepath.Join(f.ws, "env-"+e.ID) + "\nexec cat\n"
		require.NoError(t, os.WriteFile(filepath.Join(f.bin, e.Command), []byte(script), 0o755))
	}
}

// An unknown server, one of another language, and anything shaped like a
// path or a command line are refused with HTTP 400 — like an unknown
// language — and nothing starts.
func TestServerParamRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	everyCommand(t, f)
	for _, q := range []string{
		"language=go&server=gopls2", "language=python&server=tsgo", "language=go&server=typescript-language-server",
		"language=go&server=/usr/bin/gopls", "language=go&server=..%2Fgopls", "language=go&server=..", "language=go&server=.%2Fgopls",
		"language=go&server=gopls%20-rpc.trace", "language=go&server=C:%5Cgopls.exe", "language=go&server=GOPLS",
		"language=go&server=" + strings.Repeat("g", 65), "language=go&server=gopls&server=gopls",
		"language=cobol&server=gopls", "server=gopls",
	} {
		resp, err := dialQuery(t, f, q, token)
		require.Error(t, err, q)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, q)
	}
	require.NoFileExists(t, filepath.Join(f.ws, "started"), "no process started")
}

// server=ID picks the entry: its command and arguments run, and every
// status frame names it; without it, the language's default runs. The
// ready frame carries the entry's initialization options, features and
// default configuration.
func TestServerParamChoosesEntry(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	everyCommand(t, f)
	const tsOptions = `{"tsserver":{"useClientFileWatcher":true},"codeLensShowLocationsCommandName":"editor.action.showReferences"}`
	for _, c := range []struct {
		query, want, argv string
		options           string
	}{
		{"language=typescript&server=tsgo", "tsgo", "tsgo --lsp --stdio", tsOptions},
		{"language=typescript", "typescript-language-server", "typescript-language-server --stdio", tsOptions},
		{"language=typescript&server=", "typescript-language-server", "typescript-language-server --stdio", tsOptions},
		{"language=python&server=basedpyright", "basedpyright", "basedpyright-langserver --stdio", ""},
		{"language=json", "vscode-json-language-server", "vscode-json-language-server --stdio", `{"provideFormatter":true}`},
		{"language=shell", "bash-language-server", "bash-language-server start", ""},
		{"language=dockerfile", "dockerfile-language-server", "docker-langserver --stdio", ""},
		{"language=c&server=clangd", "clangd", "clangd ", ""},
		{"language=typescript&server=eslint", "eslint", "vscode-eslint-language-server --stdio", ""},
	} {
		_ = os.Remove(filepath.Join(f.ws, "started"))
		cn, _, err := websocketDial(t, "ws"+strings.TrimPrefix(f.srv.URL, "http")+wire.AgentStreamPath+"?"+c.query, http.Header{"Authorization": {"Bearer " + token}})
		require.NoError(t, err, c.query)
		st := readStatus(t, cn)
		require.Equal(t, wire.StatusReady, st.Status, c.query)
		require.Equal(t, c.want, st.Server, c.query)
		require.Equal(t, c.options, string(st.InitializationOptions), c.query)
		e, _ := catalog.Builtin().Lookup(c.want)
		require.Equal(t, string(e.Configuration), string(st.Configuration), c.query)
		require.Equal(t, e.Features, st.Features, c.query)
		if c.want == "eslint" {
			require.Contains(t, string(st.Configuration), `"useFlatConfig":true`, "ESLint's settings reach the client")
			require.Equal(t, []string{wire.FeatureDiagnostics, wire.FeatureCodeAction, wire.FeatureWorkspaceCommand}, st.Features)
		}
		var b []byte
		waitFor(t, func() bool {
			b, _ = os.ReadFile(filepath.Join(f.ws, "started"))
			return bytes.HasSuffix(b, []byte("\n"))
		})
		require.Equal(t, filepath.Join(f.bin, c.argv)+"\n", string(b), c.query)
		cn.CloseNow()
	}
}

// Workspace PATH entries and a HOME inside the workspace never supply a
// command, for any entry: every built-in command planted there stays
// unstarted and the stream reports its server missing.
func TestWorkspaceNeverSuppliesAnyCommand(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ran := filepath.Join(t.TempDir(), "planted-ran")
	planted := "#!/bin/sh\ntouch " + ran + "\nexec cat\n"
	wsBin := filepath.Join(f.ws, "node_modules", ".bin")
	home := filepath.Join(f.ws, "home")
	require.NoError(t, os.MkdirAll(wsBin, 0o755))
	homeEnv := taskenv.New(map[string]string{"HOME": home})
	for _, e := range catalog.Builtin().Entries() {
		require.NoError(t, os.WriteFile(filepath.Join(wsBin, e.Command), []byte(planted), 0o755))
		for _, d := range e.InstallDirs(homeEnv) {
			require.NoError(t, os.MkdirAll(d, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(d, e.Command), []byte(planted), 0o755))
		}
	}
	g := newFixture(t, "", func(c *Config) {
		c.Workspace = f.h.cfg.Workspace
		// Nothing but the workspace on the task PATH: no clangd of the
		// machine's own is found instead.
		c.Env = taskenv.New(map[string]string{"PATH": wsBin + ":" + f.ws, "HOME": home})
	})
	for _, e := range catalog.Builtin().Entries() {
		c, _, err := websocketDial(t, "ws"+strings.TrimPrefix(g.srv.URL, "http")+wire.AgentStreamPath+"?language="+string(e.Languages[0])+"&server="+e.ID,
			http.Header{"Authorization": {"Bearer " + token}})
		require.NoError(t, err)
		ce := closeStatus(t, c)
		want := wire.CloseBinaryMissing
		if !e.AutoInstallable("linux", "amd64") {
			want = wire.CloseNoInstaller
		}
		require.EqualValues(t, want, ce.Code, e.ID)
	}
	require.NoFileExists(t, ran)
}

// bash-language-server gets the shellcheck discovery finds outside the
// workspace, never the one a workspace directory on the task PATH holds,
// and no shfmt at all when the task host has none.
func TestToolsFoundOutsideWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	everyCommand(t, f)
	tools := t.TempDir()
	wsBin := filepath.Join(f.ws, "bin")
	require.NoError(t, os.MkdirAll(wsBin, 0o755))
	for _, dir := range []string{wsBin, tools} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "shellcheck"), []byte("#!/bin/sh\n"), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(wsBin, "shfmt"), []byte("#!/bin/sh\n"), 0o755))
	g := newFixture(t, "", func(c *Config) {
		c.Workspace = f.h.cfg.Workspace
		c.Env = taskenv.New(map[string]string{"PATH": wsBin + ":" + f.bin + ":" + tools + ":/usr/bin:/bin", "HOME": t.TempDir(), "SHFMT_PATH": filepath.Join(wsBin, "shfmt")})
	})
	c, _, err := websocketDial(t, "ws"+strings.TrimPrefix(g.srv.URL, "http")+wire.AgentStreamPath+"?language=shell", http.Header{"Authorization": {"Bearer " + token}})
	require.NoError(t, err)
	require.Equal(t, wire.StatusReady, readStatus(t, c).Status)
	envFile := filepath.Join(f.ws, "env-bash-language-server")
	waitFor(t, func() bool { b, _ := os.ReadFile(envFile); return bytes.Contains(b, []byte("SHFMT_PATH")) })
	b, err := os.ReadFile(envFile)
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	require.Contains(t, lines, "SHELLCHECK_PATH="+filepath.Join(tools, "shellcheck"))
	require.Contains(t, lines, "SHFMT_PATH=", "the task's own value, inside the workspace, is replaced")
}

// An operator's npm entry whose lockfile does not match the registry's
// tarball (another digest in its integrity) fails to install with npm's
// own EINTEGRITY error in install_failed, then 4003; nothing is
// published. The real npm, against a loopback registry.
func TestTamperedLockfileCloses4003(t *testing.T) {
	t.Parallel()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	tgz := fakeServerPackage(t)
	sum := sha512.Sum512(tgz)
	integrity := []byte("sha512-" + base64.StdEncoding.EncodeToString(sum[:]))
	integrity[10] ^= 1 // still valid base64, another digest
	registry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(tgz) }))
	t.Cleanup(registry.Close)
	// The lockfile of an operator catalog: https is what a catalog may
	// name; the test registry is reached through npm's registry mapping
	// rather than a plain-http lockfile.
	resolved := "https://registry.example.invalid/kandev-fake-server/-/kandev-fake-server-1.0.0.tgz"
	lock := `{"name":"x","lockfileVersion":3,"requires":true,"packages":{` +
		`"":{"dependencies":{"kandev-fake-server":"1.0.0"}},` +
		`"node_modules/kandev-fake-server":{"version":"1.0.0","resolved":"` + resolved + `","integrity":"` + string(integrity) + `",` +
		`"bin":{"fake-ls":"cli.js"}}}}`
	ops, err := catalog.Parse([]byte(`{"servers":[{"id":"fake-ls","languages":["yaml"],"command":"fake-ls","args":["--stdio"],
		"install":{"kind":"npm","packages":["kandev-fake-server@1.0.0"],"lockfile":`+lock+`}}]}`), "")
	require.NoError(t, err)
	cat, err := catalog.New(ops)
	require.NoError(t, err)
	home := t.TempDir()
	u, _ := url.Parse(registry.URL)
	f := newFixture(t, "", func(c *Config) {
		c.Catalog = cat
		c.Env = taskenv.New(map[string]string{
			"PATH": filepath.Dir(npm) + ":/usr/bin:/bin", "HOME": home,
			// npm fetches what the lockfile names from the configured
			// registry when the lockfile's host is the default one; here
			// the tarball URL is replaced outright.
			"npm_config_registry": registry.URL + "/", "npm_config_replace_registry_host": "always",
			"npm_config_fetch_retries": "0", "npm_config_proxy": "", "npm_config_https_proxy": "", "npm_config_noproxy": u.Hostname(),
		})
		c.Installs = install.New(install.Config{Runner: &install.Runner{KillGrace: 200 * time.Millisecond}})
	})
	c, _, err := websocketDial(t, "ws"+strings.TrimPrefix(f.srv.URL, "http")+wire.AgentStreamPath+"?language=yaml&server=fake-ls&autoInstall=true",
		http.Header{"Authorization": {"Bearer " + token}})
	require.NoError(t, err)
	st := readStatus(t, c)
	require.Equal(t, wire.StatusInstalling, st.Status)
	require.Equal(t, "fake-ls", st.Server)
	st = readStatus(t, c)
	require.Equal(t, wire.StatusInstallFailed, st.Status)
	require.Equal(t, "yaml", st.Language)
	require.Equal(t, "fake-ls", st.Server)
	require.Contains(t, st.Error, "install fake-ls: ")
	require.Contains(t, st.Error, "EINTEGRITY", "npm's own integrity error reaches the user")
	requireClose(t, c, int(wire.CloseInstallFailed))
	entries, _ := os.ReadDir(filepath.Join(home, ".kandev", "lsp-servers", "operator"))
	require.Empty(t, entries, "nothing published")
}

// fakeServerPackage is a registry tarball providing the fake-ls launcher.
func fakeServerPackage(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{
		"package/package.json": `{"name":"kandev-fake-server","version":"1.0.0","bin":{"fake-ls":"cli.js"}}`,
		"package/cli.js":       "#!/usr/bin/env node\n",
	} {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body)), ModTime: time.Unix(0, 0)}))
		_, err := tw.Write([]byte(body))
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// websocketDial dials u with header h, with the stream's read limit.
func websocketDial(t *testing.T, u string, h http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	c, resp, err := websocket.Dial(testCtx(t), u, &websocket.DialOptions{HTTPHeader: h})
	if c != nil {
		c.SetReadLimit(wire.MaxMessageSize + 1)
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

// Without the token, an operator's server id, a built-in one, an unknown
// one and an unknown language all get the same 401: an anonymous peer
// cannot probe which servers the agent's catalog holds.
func TestAnonymousLearnsNoServerIDs(t *testing.T) {
	t.Parallel()
	ops, err := catalog.Parse([]byte(`{"servers":[{"id":"acme-internal-ls","languages":["yaml"],"command":"acme-ls",
		"install":{"kind":"manual"}}]}`), "")
	require.NoError(t, err)
	cat, err := catalog.New(ops)
	require.NoError(t, err)
	f := newFixture(t, "", func(c *Config) { c.Catalog = cat })
	everyCommand(t, f)
	var bodies []string
	for _, q := range []string{
		"language=yaml&server=acme-internal-ls", "language=yaml&server=acme-other-ls", "language=go&server=gopls",
		"language=go&server=nope", "language=cobol", "language=yaml&server=acme-internal-ls&autoInstall=maybe",
	} {
		for _, tok := range []string{"", "wrong"} {
			resp, err := dialQuery(t, f, q, tok)
			require.Error(t, err, q)
			require.Equal(t, http.StatusUnauthorized, resp.StatusCode, q)
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			bodies = append(bodies, string(b))
		}
	}
	require.NotEmpty(t, bodies[0])
	for _, b := range bodies {
		require.Equal(t, bodies[0], b, "every refusal reads the same")
	}
	// With the token, the catalog answers as before.
	resp, err := dialQuery(t, f, "language=yaml&server=acme-other-ls", token)
	require.Error(t, err)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	require.NoFileExists(t, filepath.Join(f.ws, "started"), "no process started")
}
