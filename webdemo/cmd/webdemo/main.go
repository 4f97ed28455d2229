// Command webdemo serves the Kandev LSP demo page: Monaco with lsp.wasm, the
// relay on the same origin, and a Local PC agent over a temporary copy of
// the sample workspace — with -docker-image and a Docker engine, a Local
// Docker session over the same copy too. KANDEV_LSP_MAX_CONNECTIONS caps
// the relay's active language-server streams, as for kandev-relay. The assembly is package webdemo's;
// this command reads flags, listens and waits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kandev/lsp/internal/connlimit"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/webdemo"
)

// The variables that carry the demo's secrets, kept off its command line.
const (
	// envAgentToken is the bearer token of -agent-url's agent.
	envAgentToken = "KANDEV_DEMO_AGENT_TOKEN"
	// envSecret is the browser credential: a demo started again with the
	// same one keeps its pages signed in. Default: a fresh one.
	envSecret = "KANDEV_DEMO_SECRET"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "webdemo:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (port 0 picks a free port)")
	agentBin := flag.String("agent", "bin/kandev-agent", "the kandev-agent binary")
	assets := flag.String("assets", "bin", "folder holding lsp.wasm and wasm_exec.js")
	esmDir := flag.String("esm", "bin/esm", "the ESM entry's bundle (built from webdemo/esm), served at /esm/ when the folder exists")
	benchDir := flag.String("bench", "e2e/bench/page", "the benchmark pages, served at /bench/ when the folder exists")
	pkgDir := flag.String("package", "wasm/js", "the ES module package, served at /kandev-lsp/ when the folder exists")
	monacoDir := flag.String("monaco", "webdemo/node_modules/monaco-editor/min", "monaco-editor's min/ folder")
	sample := flag.String("sample", "webdemo/sample", "the sample workspace to copy")
	dbPath := flag.String("db", "", "the settings database (default: a demo database under the user's config folder)")
	fakeLSP := flag.String("fake-lsp", "", "the fake language server binary, to stand in for rust-analyzer and kotlin-lsp (tests)")
	hosts := flag.String("hosts", "", "names the demo is reached by, comma-separated, besides the address it listens on (and localhost on loopback)")
	toolPath := flag.String("path", "", "folders (list-separated) put first on the agent's PATH, e.g. e2e/node_modules/.bin for the npm language servers")
	dockerImage := flag.String("docker-image", "", "the task image (task docker:image) for a Local Docker session; without a Docker engine or the image, the demo runs without it")
	unlaunchable := flag.String("unlaunchable", "", "commands (comma-separated, e.g. rust-analyzer) planted first on the agent's PATH as files that cannot run, to show a server's start failure (tests)")
	workspace := flag.String("workspace", "", "an existing task workspace to serve as it is, instead of a copy of -sample")
	agentURL := flag.String("agent-url", "", "the page's session's agent, already running (its token in $"+envAgentToken+"); default: the demo starts one")
	repos := flag.String("repos", "", "folders of the sample (comma-separated) made Git repositories in the workspace copy: a task of several repositories")
	flag.Parse()
	maxConns, err := webdemo.MaxConnectionsFromEnv(os.Getenv(webdemo.EnvMaxConnections))
	if err != nil {
		return err
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	demo, err := webdemo.Start(ctx, webdemo.Options{
		AgentBin: *agentBin, Sample: *sample,
		WASMDir: *assets, ESMDir: existingDir(*esmDir), BenchDir: existingDir(*benchDir), PackageDir: existingDir(*pkgDir), MonacoDir: *monacoDir,
		DBPath: *dbPath, FakeLSP: *fakeLSP, ToolPath: *toolPath, DockerImage: *dockerImage,
		MaxConnections: maxConns, Unlaunchable: access.SplitList(*unlaunchable), Repositories: access.SplitList(*repos),
		Hosts: access.SplitList(*hosts), Logger: logger, Logs: os.Stderr,
		Workspace: *workspace, AgentURL: *agentURL, AgentToken: os.Getenv(envAgentToken), Secret: os.Getenv(envSecret),
	})
	if err != nil {
		return err
	}
	raw, err := net.Listen("tcp", *addr)
	if err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		demo.Close(cctx)
		return err
	}
	// As kandev-relay: a bound per client address and an idle timeout, so
	// a peer without the sign-in cookie cannot hold connections.
	ln := connlimit.Listen(raw, connlimit.Options{})
	srv := &http.Server{Handler: demo.Handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	if demo.Container != "" {
		fmt.Printf("docker container %s\n", demo.Container)
	}
	// Tests read every line; people read the last.
	fmt.Printf("workspace %s\n", demo.Workspace)
	fmt.Printf("open %s in a browser\n", demo.SignInURL("http://"+ln.Addr().String()))

	// Until SIGTERM, SIGINT or the task host's exit; then the relay
	// drains (1012 to every stream) and the demo closes.
	err = demo.Serve(ctx, srv, ln)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// existingDir is dir when it is a folder, else "".
func existingDir(dir string) string {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir
	}
	return ""
}
