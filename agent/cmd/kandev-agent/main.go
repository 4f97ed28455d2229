// Command kandev-agent is the task-host agent: it serves the LSP stream and
// the workspace file routes for one task workspace.
//
//	KANDEV_AGENT_TOKEN=... kandev-agent -addr 127.0.0.1:0 -workspace /abs/dir
//
// Its first stdout line is "listening on http://HOST:PORT" with the bound
// port, so a parent that passed port 0 can read where to connect. SIGTERM,
// SIGINT or a POST to the stop route (wire.AgentTaskStopPath) is task stop:
// admission closes, installs are cancelled and drained (nothing half-made is
// published), streams close with 1001, every language-server process tree
// is reaped, and the agent exits 0.
//
// What may run is the catalog (package agent/catalog): the built-in
// entries and, with -catalog FILE (or KANDEV_AGENT_CATALOG), an operator's
// entries from that JSON file. The file is checked at start: a bad field
// stops the agent with an error naming the entry and the field.
// It is the agent's setting, never the workspace's or a request's.
//
// A missing language server is installed when the stream request asks for
// it (npm and go from the task PATH, rust-analyzer as a checksummed release
// download). KANDEV_RELEASE_BASE_URL, when set, replaces the release
// download base URL of the built-in release entries (the directory holding
// the pinned release's assets, e.g. a mirror, or a loopback server in
// tests); downloads are still checked against the pinned SHA-256 sums, so
// it cannot change what is installed, only where it comes from.
//
// Limits, each a flag with an environment variable read when the flag is
// not given (limits.go): -install-stall (KANDEV_AGENT_INSTALL_STALL, 2m)
// and -install-timeout (KANDEV_AGENT_INSTALL_TIMEOUT, 15m) fail an install
// that makes no progress or does not finish; -ping-interval
// (KANDEV_AGENT_PING_INTERVAL, 30s) and -ping-timeout
// (KANDEV_AGENT_PING_TIMEOUT, 15s) close a stream whose peer vanished;
// -max-connections (KANDEV_AGENT_MAX_CONNECTIONS, 16) caps open streams;
// -log-format (KANDEV_AGENT_LOG_FORMAT, text) is text or json (slog's
// JSON, one object per line; stream lines carry session, language and
// conn, the ids the relay sends); -max-watches (KANDEV_AGENT_MAX_WATCHES,
// 8192) caps the workspace directories watched for changes, which streams
// report to their peers.
//
// Language servers and installers do not get the agent's environment: only
// the allowlist of package taskenv (Allowed: PATH without relative or
// workspace entries, HOME, locale, temporary directories, the Go, C, Node,
// Python, Java, Rust and .NET toolchain variables, npm's registry and cache
// settings, proxies and CA bundles) and the variables named with
// -pass-env NAME,NAME2 (exact names, for a task variable a server really
// needs). Database passwords, cloud keys and the agent's own settings
// never reach them.
//
// Connections: a request without the token gets 401 with "Connection:
// close", and the connection is closed after it; a connection idle
// between requests is closed after 30 s, one that does not send a whole
// request header within 10 s too; and one client IP address holds at most
// -max-client-connections (256) connections at once, a further one being
// closed as soon as it is accepted.
//
// GET /metrics answers the Prometheus text format (package agent/metrics)
// to a request with the token, like every route.
//
// Language servers run under a re-execution of this binary (the reaper
// shim of package proc), which kills a server's whole tree if the agent
// dies without a task stop; where a cgroup v2 is delegated to the agent,
// each server also runs in a cgroup of its own, which no descendant
// escapes.
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
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/server"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/connlimit"
	"github.com/kandev/lsp/internal/logging"
)

// tokenEnv names the variable carrying the bearer token.
const tokenEnv = "KANDEV_AGENT_TOKEN"

// idleTimeout closes a keep-alive connection with no request in flight.
// The relay reconnects at will; a connection kept open without a request
// only holds the agent's resources.
const idleTimeout = 30 * time.Second

// releaseBaseEnv names the variable overriding the release download base
// URL (the rust-analyzer entry's baseUrl in agent/catalog/builtin.json).
const releaseBaseEnv = "KANDEV_RELEASE_BASE_URL"

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address HOST:PORT")
	dir := flag.String("workspace", "", "task workspace directory")
	perClient := flag.Int("max-client-connections", connlimit.DefaultPerClient,
		"connections one client IP address may hold open at once; one more is closed at accept")
	passEnv := flag.String("pass-env", "", "comma-separated names of task variables language servers and installers get besides the allowlist")
	var lim limits
	lim.register(flag.CommandLine)
	flag.Parse()
	lim.passEnv = splitNames(*passEnv)
	lim.perClient = *perClient
	if err := run(*addr, *dir, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "kandev-agent:", err)
		os.Exit(2)
	}
}

func run(addr, dir string, lim *limits) error {
	// The process environment is the task environment, read here once.
	env := taskenv.Parse(os.Environ())
	token := env[tokenEnv]
	if token == "" {
		return fmt.Errorf("%s is required", tokenEnv)
	}
	if err := lim.fromEnv(flag.CommandLine, env); err != nil {
		return err
	}
	// The token and the download setting are the agent's, not the
	// task's: servers and installers must not see them.
	delete(env, tokenEnv)
	releaseBase := env[releaseBaseEnv]
	delete(env, releaseBaseEnv)
	cat, err := loadCatalog(lim.catalogFile)
	if err != nil {
		return err
	}
	if dir == "" {
		return errors.New("-workspace is required")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("-workspace %s: not an existing directory", abs)
	}

	logger, err := logging.New(lim.logFormat, os.Stderr, slog.LevelInfo)
	if err != nil {
		return err
	}
	logger.Info("limits", "set", lim.String())
	if len(lim.passEnv) > 0 {
		logger.Info("passed to language servers", "variables", lim.passEnv)
	}
	if ids := operatorIDs(cat); len(ids) > 0 {
		logger.Info("operator catalog", "file", lim.catalogFile, "servers", ids)
	}
	srv, err := server.New(server.Config{
		Workspace: abs, Token: token, Env: env, PassEnv: lim.passEnv, Catalog: cat, Logger: logger, ServerStderr: os.Stderr,
		PingInterval: lim.pingInterval, PingTimeout: lim.pingTimeout, MaxConnections: lim.maxConnections,
		ResumeGrace: lim.serverResumeGrace(), MaxWatches: lim.maxWatches,
		Install: install.Config{ReleaseBaseURL: releaseBase, StallTimeout: lim.installStall, InstallTimeout: lim.installTimeout},
	})
	if err != nil {
		return err
	}
	if lim.perClient <= 0 {
		return errors.New("-max-client-connections must be positive")
	}
	// The signals are ours before the port is announced: a parent that
	// reads the line and stops the task at once must get the graceful stop
	// (1001 on each stream, servers reaped), not the default action's
	// abrupt exit.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	raw, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("listening on http://%s\n", raw.Addr())
	ln := connlimit.Listen(raw, connlimit.Options{PerClient: lim.perClient, Refused: func(a net.Addr) {
		logger.Debug("connection refused: per-client bound reached", "remote", a.String(), "max", lim.perClient)
	}})

	// ReadHeaderTimeout ends a connection that never completes a request,
	// IdleTimeout one that sits silent between requests; upgraded stream
	// connections are the stream's, with pings of their own.
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idleTimeout}
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
		logger.Info("task stop", "by", "signal")
	case <-srv.Stopped():
		logger.Info("task stop", "by", "stop route")
	}
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// Streams first: http.Server.Shutdown neither closes nor waits for
	// upgraded connections.
	if err := srv.Shutdown(sctx); err != nil {
		logger.Warn("shutdown", "err", err)
	}
	return ignoreClosed(hs.Shutdown(sctx))
}

// loadCatalog is the built-in catalog with the operator's file's entries,
// if a file is named.
func loadCatalog(file string) (*catalog.Catalog, error) {
	if file == "" {
		return catalog.Builtin(), nil
	}
	entries, err := catalog.Load(file)
	if err != nil {
		return nil, err
	}
	return catalog.New(entries)
}

// operatorIDs are the ids of the catalog's operator entries.
func operatorIDs(cat *catalog.Catalog) []string {
	var ids []string
	for _, e := range cat.Entries() {
		if e.Operator {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

func ignoreClosed(err error) error {
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// splitNames splits -pass-env's comma-separated list, dropping empty
// names and white space around each.
func splitNames(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}
