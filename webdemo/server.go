// Package webdemo is the demo page of Kandev LSP: Monaco and lsp.wasm in the
// browser, the relay mounted on the same origin, and a Local PC agent serving
// a sample workspace. It is a real deployment in miniature, used by the e2e
// suite and by anyone who wants to try the product.
package webdemo

import (
	"embed"
	"io/fs"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/assets"
)

//go:embed static
var static embed.FS

// Config wires the demo page to the pieces it serves.
type Config struct {
	// Access is the guard in front of every route, the page, its assets
	// and the workspace file routes included: the Host allowlist, the
	// browser credential and its sign-in route, and the Origin rule (see
	// package access). The relay applies the same checks again.
	Access access.Config
	// Relay serves /lsp/{sessionId}.
	Relay http.Handler
	// AgentURL and AgentToken reach the task host's workspace file routes,
	// which the page uses for its Files tree, opening and saving. The token
	// stays on the server: the page never sees it.
	AgentURL   *url.URL
	AgentToken string
	// WASMDir holds lsp.wasm and wasm_exec.js, and their compressed
	// siblings (package relay/assets), served under /wasm/.
	WASMDir string
	// ESMDir holds the ESM entry's bundle (webdemo/esm, built into
	// bin/esm), served under /esm/ with the same page. Empty: no ESM entry.
	ESMDir string
	// BenchDir holds the benchmark pages (e2e/bench/page), served at
	// /bench/ when set; the demo's own folder has none of them.
	BenchDir string
	// PackageDir is the ES module package (wasm/js, built), served under
	// /kandev-lsp/ for pages that import it without a bundler:
	// import { loadKandevLSP } from '/kandev-lsp/index.js'. Empty: not served.
	PackageDir string
	// MonacoDir is monaco-editor's min/ folder.
	MonacoDir string
	// SessionID is the session the page opens with its language servers.
	SessionID string
	// TwinSessions are further sessions with language servers of their
	// own, served by another agent over the same workspace directory — as
	// two Docker tasks both rooted at /workspace would be: same task-host
	// paths, separate models, content and servers.
	TwinSessions []string
	// DockerSessions are further sessions on Local Docker: a task container
	// with its own agent and servers, the same workspace mounted at
	// /workspace (see DockerTask).
	DockerSessions []string
	// PlainSessions are further sessions over the same workspace whose
	// editors get no language server: Monaco's own intelligence only (the
	// page's ?session= switch), for comparing the two side by side.
	PlainSessions []string
	// SSHSessions are sessions on an SSH executor, which the relay refuses
	// (unsupported task host) before starting anything: the page shows
	// what a user of such a task sees.
	SSHSessions []string
}

// Handler returns the demo's HTTP handler: every route behind
// access.Guard(cfg.Access).
func Handler(cfg Config) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /lsp/", cfg.Relay)
	mux.Handle("GET "+wire.RelaySettingsPath, cfg.Relay)
	mux.Handle("PUT "+wire.RelaySettingsPath, cfg.Relay)
	mux.Handle("GET "+wire.RelayRuntimePath, cfg.Relay)
	mux.Handle("GET "+wire.RelayInstallersPattern, cfg.Relay)
	// The relay's Prometheus text: streams refused by code, agents it
	// started — what a test checks to see that nothing was started.
	mux.Handle("GET "+relay.MetricsPath, cfg.Relay)
	files := agentProxy(cfg.AgentURL, cfg.AgentToken)
	// The workspace routes: list, read, save (PUT), and the Files tree's
	// create, move (POST) and delete (DELETE).
	mux.Handle("GET /api/v1/workspace/", files)
	mux.Handle("PUT /api/v1/workspace/", files)
	mux.Handle("POST /api/v1/workspace/", files)
	mux.Handle("DELETE /api/v1/workspace/", files)
	// The agent's library routes, read-only: GET alone is forwarded.
	mux.Handle("GET /api/v1/library/", files)
	mux.Handle("GET /monaco/", http.StripPrefix("/monaco/", http.FileServer(http.Dir(cfg.MonacoDir))))
	// lsp.wasm and wasm_exec.js: Brotli or gzip as the browser accepts,
	// ETags, and lsp.wasm's content-hashed name cached for good. The
	// benchmark's monaco-languageclient page (bench-mlc, a Vite build)
	// has content-hashed names under assets/: cached for good too, as
	// that client's users would ship them.
	wasm := assets.New(os.DirFS(cfg.WASMDir), assets.Options{Immutable: func(name string) bool {
		return strings.HasPrefix(name, "bench-mlc/assets/")
	}})
	mux.Handle("GET /wasm/", http.StripPrefix("/wasm/", wasm))
	mux.Handle("GET /lsp.wasm", wasm)
	if cfg.PackageDir != "" {
		mux.Handle("GET /kandev-lsp/", http.StripPrefix("/kandev-lsp/", assets.New(os.DirFS(cfg.PackageDir), assets.Options{})))
	}
	if cfg.BenchDir != "" {
		mux.Handle("GET /bench/", http.StripPrefix("/bench/", assets.New(os.DirFS(cfg.BenchDir), assets.Options{})))
	}
	if cfg.ESMDir != "" {
		// Vite writes content-hashed names only under assets/.
		esm := assets.New(os.DirFS(cfg.ESMDir), assets.Options{Immutable: func(name string) bool {
			return strings.HasPrefix(name, "assets/")
		}})
		mux.Handle("GET /esm/{file...}", http.StripPrefix("/esm/", esm))
		mux.HandleFunc("GET /esm/{$}", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, static, "static/index.html")
		})
	}
	mux.HandleFunc("GET /config.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		sessions := `[{"id":` + quote(cfg.SessionID) + `,"lsp":true}`
		for _, id := range cfg.TwinSessions {
			sessions += `,{"id":` + quote(id) + `,"lsp":true}`
		}
		for _, id := range cfg.DockerSessions {
			sessions += `,{"id":` + quote(id) + `,"lsp":true,"executor":"local_docker"}`
		}
		for _, id := range cfg.SSHSessions {
			sessions += `,{"id":` + quote(id) + `,"lsp":true,"executor":"ssh"}`
		}
		for _, id := range cfg.PlainSessions {
			sessions += `,{"id":` + quote(id) + `,"lsp":false}`
		}
		wasmName, err := wasm.HashName("lsp.wasm")
		if err != nil {
			http.Error(w, "lsp.wasm is missing: run the build", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Write([]byte(`{"sessionId":` + quote(cfg.SessionID) + `,"wasm":` + quote("/wasm/"+wasmName) + `,"sessions":` + sessions + `]}`))
	})
	page, _ := fs.Sub(static, "static")
	mux.Handle("GET /", http.FileServer(http.FS(page)))
	return access.Guard(cfg.Access, mux)
}

// agentProxy forwards the workspace and library file routes to the agent, adding the
// bearer token server-side.
func agentProxy(target *url.URL, token string) http.Handler {
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Header.Set("Authorization", "Bearer "+token)
			r.Out.Header.Del("Cookie")
		},
	}
}
