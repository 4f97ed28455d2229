// Command webdemo serves the Kandev LSP demo page: Monaco with lsp.wasm, the
// relay on the same origin, and a Local PC agent over a temporary copy of
// the sample workspace — with -docker-image and a Docker engine, a Local
// Docker session over the same copy too.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/settings"
	"github.com/kandev/lsp/webdemo"
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
	pkgDir := flag.String("package", "wasm/js", "the ES module package, served at /kandev-lsp/ when the folder exists")
	monacoDir := flag.String("monaco", "webdemo/node_modules/monaco-editor/min", "monaco-editor's min/ folder")
	sample := flag.String("sample", "webdemo/sample", "the sample workspace to copy")
	dbPath := flag.String("db", "", "the settings database (default: a demo database under the user's config folder)")
	fakeLSP := flag.String("fake-lsp", "", "the fake language server binary, to stand in for rust-analyzer and kotlin-lsp (tests)")
	hosts := flag.String("hosts", "", "names the demo is reached by, comma-separated, besides the address it listens on (and localhost on loopback)")
	toolPath := flag.String("path", "", "folders (list-separated) put first on the agent's PATH, e.g. e2e/node_modules/.bin for the npm language servers")
	dockerImage := flag.String("docker-image", "", "the task image (task docker:image) for a Local Docker session; without a Docker engine or the image, the demo runs without it")
	flag.Parse()

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	workspace, err := webdemo.NewWorkspace(*sample)
	if err != nil {
		return err
	}
	defer os.RemoveAll(workspace)

	token, err := randomToken()
	if err != nil {
		return err
	}
	env := os.Environ()
	if *toolPath != "" {
		if env, err = webdemo.PrependPath(env, *toolPath); err != nil {
			return err
		}
	}
	if *fakeLSP != "" {
		tools, err := os.MkdirTemp("", "kandev-demo-tools-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tools)
		if env, err = webdemo.WithFakeServers(env, tools, *fakeLSP); err != nil {
			return err
		}
	}
	agent, err := webdemo.StartAgent(ctx, *agentBin, workspace, token, env, os.Stderr)
	if err != nil {
		return err
	}
	defer agent.Stop()
	// The twin session's own task host over the same directory: its
	// servers see the same file URIs as the demo session's.
	twinToken, err := randomToken()
	if err != nil {
		return err
	}
	twin, err := webdemo.StartAgent(ctx, *agentBin, workspace, twinToken, env, os.Stderr)
	if err != nil {
		return err
	}
	defer twin.Stop()

	store, err := openSettings(*dbPath)
	if err != nil {
		return err
	}
	defer store.Close()

	// The browser credential: a fresh secret each run, shown only in the
	// sign-in URL printed below, which sets the page's cookie and opens
	// the page.
	signIn := access.NewToken(access.NewSecret(), settings.LocalUser, "/")
	guard := access.Config{Hosts: access.SplitList(*hosts), Authenticate: signIn.Authenticate, SignIn: signIn, Logger: logger}

	const sessionID, twinID, dockerID = "demo", "twin", "docker"
	sessions := []relay.Session{{
		ID: sessionID, Executor: relay.ExecutorLocalPC, Workspace: workspace,
		Agent: relay.AgentRef{URL: agent.URL.String(), Token: token},
	}, {
		ID: twinID, Executor: relay.ExecutorLocalPC, Workspace: workspace,
		Agent: relay.AgentRef{URL: twin.URL.String(), Token: twinToken},
	}}
	// The Local Docker session: a task container over the same workspace,
	// resumed by the relay on its first stream.
	var dockerSessions []string
	var container *webdemo.DockerTask
	if *dockerImage != "" {
		dockerToken, err := randomToken()
		if err != nil {
			return err
		}
		container, err = webdemo.CreateDockerTask(ctx, *dockerImage, workspace, dockerToken)
		if err != nil {
			logger.Warn("no Local Docker session", "err", err)
		} else {
			defer container.Remove()
			sessions = append(sessions, relay.Session{
				ID: dockerID, Executor: relay.ExecutorLocalDocker, Workspace: "/workspace", Container: container.Name,
				Agent: relay.AgentRef{URL: container.URL.String(), Token: dockerToken},
			})
			dockerSessions = []string{dockerID}
		}
	}
	rl := relay.New(relay.Config{
		Hosts:        guard.Hosts,
		Authenticate: guard.Authenticate,
		Settings:     store,
		Sessions:     relay.StaticSessions(sessions...),
		Logger:       logger,
	})
	handler := webdemo.Handler(webdemo.Config{
		Access: guard,
		Relay:  rl, AgentURL: agent.URL, AgentToken: token,
		WASMDir: *assets, ESMDir: existingDir(*esmDir), PackageDir: existingDir(*pkgDir), MonacoDir: *monacoDir, SessionID: sessionID,
		TwinSessions: []string{twinID}, DockerSessions: dockerSessions, PlainSessions: []string{"demo2"},
	})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	if container != nil {
		fmt.Printf("docker container %s\n", container.Name)
	}
	// Tests read every line; people read the last.
	fmt.Printf("workspace %s\n", workspace)
	fmt.Printf("open %s in a browser\n", signIn.SignInURL("http://"+ln.Addr().String()))

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-agent.Done():
		return errors.New("the agent exited")
	case <-twin.Done():
		return errors.New("the twin session's agent exited")
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Hijacked WebSockets are not tracked by Shutdown; stopping the agent
	// closes them from the task-host side with 1001.
	agent.Stop()
	twin.Stop()
	if container != nil {
		container.Remove()
	}
	rl.Close(shutdown)
	return srv.Shutdown(shutdown)
}

// openSettings opens the demo's settings database. A new database starts
// with Go, TypeScript and Python set to auto-start and auto-install, so the
// demo shows intelligence as soon as a file opens — installing a missing
// server on the (local) task host first, as the product does; what the
// user saves is kept.
func openSettings(path string) (*settings.SQLite, error) {
	if path == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return nil, err
		}
		path = filepath.Join(dir, "kandev", "demo-settings.db")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	_, statErr := os.Stat(path)
	store, err := settings.OpenSQLite(path)
	if err != nil {
		return nil, err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		auto := []string{string(wire.Go), string(wire.TypeScript), string(wire.Python)}
		// gopls shows inlay hints only when asked to.
		configs := map[string]json.RawMessage{string(wire.Go): json.RawMessage(goplsHints)}
		patch := settings.Patch{AutoStartLanguages: &auto, AutoInstallLanguages: &auto, ServerConfigs: &configs}
		if _, err := store.Update(context.Background(), settings.LocalUser, patch); err != nil {
			store.Close()
			return nil, err
		}
	}
	return store, nil
}

// goplsHints is the demo's default gopls configuration: the inlay hints
// gopls offers, on.
const goplsHints = `{"gopls":{"hints":{"assignVariableTypes":true,"compositeLiteralFields":true,"constantValues":true,"functionTypeParameters":true,"parameterNames":true,"rangeVariableTypes":true}}}`

// existingDir is dir when it is a folder, else "".
func existingDir(dir string) string {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir
	}
	return ""
}

func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
