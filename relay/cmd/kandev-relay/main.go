// Command kandev-relay serves the relay on its own: the browser-facing LSP
// stream, the user-settings API, the boot runtime and task stop.
//
//	kandev-relay -addr HOST:PORT -sessions FILE.json [-db FILE|postgres://...]
//	             [-agent-binary PATH] [-agent-pass-env NAME,...]
//	             [-max-client-connections 256]
//	             [-hosts NAME,...] [-origins HOST,...]
//	             [-browser-token TOKEN | -insecure-no-browser-auth]
//	             [-replica-id ID] [-lease-ttl 30s] [-lease-heartbeat 10s]
//	             [-catalog FILE]
//	             [-log-format text|json] [-v]
//
// With -db postgres://... the relay is one of several replicas on that
// database: settings live there, and the connection cap is global — each
// admitted stream holds a slot lease row that this replica renews every
// -lease-heartbeat; a replica that dies has its slots back -lease-ttl after
// its last renewal.
//
// Environment: KANDEV_LSP_MAX_CONNECTIONS caps active streams (default 8;
// give every replica the same); KANDEV_LSP_MAX_CONNECTIONS_PER_USER caps one
// user's share of them (default none; give every replica the same);
// KANDEV_RELAY_BROWSER_TOKEN is the browser token when -browser-token is not
// given (prefer it: a flag shows in the process list);
// KANDEV_RELAY_CATALOG is the operator catalog when -catalog is not given.
//
// Every request must carry the browser token — the cookie the sign-in URL
// sets, or "Authorization: Bearer TOKEN" — unless -insecure-no-browser-auth
// turns that off (and the log says so). Without a token from the flag or
// the environment a fresh one is made at each start.
//
// It prints "listening on http://HOST:PORT" as its first stdout line once the
// socket is bound (so -addr 127.0.0.1:0 is usable from scripts); when it made
// the token itself, the second line is "sign in at URL", the one place the
// token is shown: open URL once in the browser that will use the relay. It
// shuts down gracefully on SIGINT or SIGTERM: streams close with 1012 to the
// browser (connect again) and 1001 to the agent, then the agents it started
// are stopped (their servers reaped).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/connlimit"
	"github.com/kandev/lsp/internal/logging"
	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/pgdb"
	"github.com/kandev/lsp/relay/settings"
)

// idleTimeout closes a keep-alive connection that sits silent between
// requests.
const idleTimeout = 30 * time.Second

// shutdownGrace bounds the wait for streams to finish their close handshakes
// (coder/websocket gives each peer up to 5 s to answer) and for started
// agents to stop.
const shutdownGrace = 15 * time.Second

// Environment variables read here, and only here.
const (
	envMaxConnections = "KANDEV_LSP_MAX_CONNECTIONS"
	envMaxPerUser     = "KANDEV_LSP_MAX_CONNECTIONS_PER_USER"
	envBrowserToken   = "KANDEV_RELAY_BROWSER_TOKEN"
	envCatalog        = "KANDEV_RELAY_CATALOG"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "kandev-relay:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends. environ is the process environment
// (os.Environ form).
func run(ctx context.Context, args []string, environ []string, stdout, stderr io.Writer) error {
	getenv := func(k string) string {
		v := ""
		for _, kv := range environ {
			if name, val, ok := strings.Cut(kv, "="); ok && name == k {
				v = val // the last one wins, as for os.Getenv
			}
		}
		return v
	}
	fs := flag.NewFlagSet("kandev-relay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address HOST:PORT (port 0 picks a free port)")
	sessionsPath := fs.String("sessions", "", "sessions file (JSON: {\"sessions\":[...]})")
	dbPath := fs.String("db", "", "settings database: a file (SQLite; default <user config dir>/kandev/settings.db), or a\npostgres:// URL of the database replicas share (settings and the global connection cap);\nkeep its password out of the URL: PGPASSWORD or ~/.pgpass")
	agentBinary := fs.String("agent-binary", "", "kandev-agent executable for local_pc sessions without agent.url\n(default: kandev-agent beside this binary, else on PATH)")
	agentPassEnv := fs.String("agent-pass-env", "", "comma-separated names of variables of this environment that agents it starts, and their\nlanguage servers, get besides the task-environment allowlist (PATH, HOME, toolchain, locale, proxy)")
	perClient := fs.Int("max-client-connections", connlimit.DefaultPerClient, "most connections one client address may hold open (streams included);\nbehind a balancer every browser shares its address: raise it there")
	hosts := fs.String("hosts", "", "names the relay is reached by, comma-separated, besides the address it listens on\n(and localhost on loopback); requests for any other Host are refused")
	origins := fs.String("origins", "", "extra browser origins allowed besides same-origin, comma-separated host patterns\n(never one that matches every host, such as * or https://*)")
	browserToken := fs.String("browser-token", "", "token every request must carry (the sign-in cookie or Authorization: Bearer);\ndefault $"+envBrowserToken+", else a fresh one printed in the sign-in URL")
	noAuth := fs.Bool("insecure-no-browser-auth", false, "serve requests without a browser token: any local program or page that reaches\nthe relay's address can use it")
	replicaID := fs.String("replica-id", "", "this replica's name in the shared database's slot leases and in /metrics\n(default host-pid-random); only with -db postgres://")
	leaseTTL := fs.Duration("lease-ttl", capacity.DefaultLeaseTTL, "with -db postgres://: how long after its last heartbeat a dead replica's\nconnection slots come back")
	leaseBeat := fs.Duration("lease-heartbeat", capacity.DefaultHeartbeat, "with -db postgres://: how often this replica renews its slot leases\n(well below -lease-ttl)")
	catalogFile := fs.String("catalog", "", "the operator catalog its task hosts' agents are given (kandev-agent -catalog), so users\nmay choose its servers in their settings; default $"+envCatalog)
	verbose := fs.Bool("v", false, "debug logging")
	logFormat := fs.String("log-format", logging.Text, logging.Usage)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *sessionsPath == "" {
		return errors.New("-sessions is required")
	}
	token := *browserToken
	if token == "" {
		token = getenv(envBrowserToken)
	}
	if *noAuth && token != "" {
		return errors.New("-insecure-no-browser-auth and a browser token (-browser-token or $" + envBrowserToken + ") exclude each other")
	}
	sessions, err := relay.LoadSessions(*sessionsPath)
	if err != nil {
		return err
	}
	if *catalogFile == "" {
		*catalogFile = getenv(envCatalog)
	}
	servers, err := operatorServers(*catalogFile)
	if err != nil {
		return err
	}
	maxConns, err := maxConnections(envMaxConnections, getenv(envMaxConnections), relay.DefaultMaxConnections)
	if err != nil {
		return err
	}
	perUser, err := maxConnections(envMaxPerUser, getenv(envMaxPerUser), 0)
	if err != nil {
		return err
	}
	patterns, err := originPatterns(*origins)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger, err := logging.New(*logFormat, stderr, level)
	if err != nil {
		return err
	}

	if *dbPath == "" {
		if *dbPath, err = settings.DefaultPath(); err != nil {
			return err
		}
	}
	var (
		store  settings.Store
		leases *capacity.Leases
	)
	if pgdb.IsDSN(*dbPath) {
		// Replicas on one database: settings there, and one connection
		// cap for all of them through slot leases.
		pool, err := pgdb.Open(ctx, *dbPath)
		if err != nil {
			return err
		}
		defer pool.Close()
		store = settings.NewPostgres(pool)
		leases, err = capacity.NewLeases(capacity.LeasesConfig{
			Pool: pool, Max: maxConns, PerUser: perUser, Replica: *replicaID, TTL: *leaseTTL, Heartbeat: *leaseBeat, Logger: logger,
		})
		if err != nil {
			return err
		}
		// After the streams have ended (deferred calls run last first):
		// whatever is still held is given back at once.
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := leases.Close(cctx); err != nil {
				logger.Warn("shutdown: slot leases left to expire", "ttl", leases.TTL(), "err", err)
			}
		}()
		logger.Info("connection cap shared through the database", "max", maxConns,
			"replica", leases.Replica(), "leaseTTL", leases.TTL(), "heartbeat", *leaseBeat)
	} else {
		if *replicaID != "" {
			return errors.New("-replica-id needs -db postgres://: without a shared database the cap is this process's")
		}
		sqlite, err := settings.OpenSQLite(*dbPath)
		if err != nil {
			return err
		}
		defer sqlite.Close()
		store = sqlite
	}

	bin := *agentBinary
	if bin == "" {
		bin = findAgent()
	}
	if bin == "" {
		logger.Warn("no kandev-agent found: local_pc sessions without agent.url will close with 4002")
	}

	if *perClient < 1 {
		return errors.New("-max-client-connections must be positive")
	}
	raw, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "listening on http://%s\n", raw.Addr())
	ln := connlimit.Listen(raw, connlimit.Options{PerClient: *perClient, Refused: func(a net.Addr) {
		logger.Debug("connection over the per-client bound closed", "remote", a.String())
	}})

	var (
		authenticate func(*http.Request) (string, error)
		signIn       *access.Token
	)
	switch {
	case *noAuth:
		logger.Warn("browser authentication is OFF (-insecure-no-browser-auth): any program or page that reaches " +
			ln.Addr().String() + " can change settings, open streams and stop tasks")
	default:
		generated := token == ""
		if generated {
			token = access.NewSecret()
		}
		signIn = access.NewToken(token, settings.LocalUser, "")
		authenticate = signIn.Authenticate
		if generated {
			fmt.Fprintf(stdout, "sign in at %s\n", signIn.SignInURL("http://"+browserAddr(ln.Addr())))
		} else {
			logger.Info("browser sign-in: open http://" + browserAddr(ln.Addr()) + access.SignInPath + "?token=<the browser token>")
		}
	}
	cfg := relay.Config{
		Sessions:              sessions,
		Hosts:                 access.SplitList(*hosts),
		Authenticate:          authenticate,
		OriginPatterns:        patterns,
		MaxConnections:        maxConns,
		MaxConnectionsPerUser: perUser,
		Settings:              store,
		Servers:               servers,
		AgentBinary:           bin,
		AgentOutput:           stderr,
		// Started agents get the relay's environment as their task
		// environment, through the task-environment allowlist: the
		// relay's own secrets (the browser token, PGPASSWORD, cloud keys)
		// must not reach language servers, which run the repository's code.
		AgentEnv:     taskenv.FilterEnviron(environ, access.SplitList(*agentPassEnv)...),
		AgentPassEnv: access.SplitList(*agentPassEnv),
		Logger:       logger,
		Replica:      *replicaID,
		// Metrics nil: the relay serves GET /metrics itself, behind the
		// browser token like every route (a scraper sends it as a bearer
		// token).
	}
	if signIn != nil {
		cfg.SignIn = signIn
	}
	if leases != nil {
		cfg.Capacity = leases
	}
	rl := relay.New(cfg)
	srv := &http.Server{
		Handler:           rl,
		ReadHeaderTimeout: 10 * time.Second,
		// A keep-alive connection silent between requests is closed (a
		// refused one at once: access answers it with Connection: close).
		// Streams are hijacked and keep their own pings.
		IdleTimeout: idleTimeout,
		ErrorLog:    slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		_ = rl.Shutdown(context.Background())
		_ = rl.Close(context.Background())
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	// Stop accepting and finish plain requests while the relay drains its
	// streams (http.Server.Shutdown neither closes nor waits for them):
	// browsers get 1012 and may connect again at once, elsewhere.
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(sctx) }()
	if rl.Shutdown(sctx) != nil {
		logger.Info("shutdown: streams still closing at the deadline")
	}
	err = <-shut
	// Task stop for every agent this relay started: their servers are
	// reaped before the relay exits.
	if cerr := rl.Close(sctx); cerr != nil {
		logger.Warn("shutdown: stopping agents", "err", cerr)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return nil // reported above; exiting is what was asked
	}
	return err
}

// maxConnections parses a cap from the environment variable name: empty
// is def, anything else must be a positive integer (a typo must not
// silently mean "no cap" or "no streams").
func maxConnections(name, v string, def int) (int, error) {
	if strings.TrimSpace(v) == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: want a positive integer", name, v)
	}
	return n, nil
}

// originPatterns splits -origins and refuses a pattern that matches every
// host ("*", "https://*"): any page on the web could then drive the user's
// language servers.
func originPatterns(v string) ([]string, error) {
	out := access.SplitList(v)
	if err := access.CheckOriginPatterns(out); err != nil {
		return nil, fmt.Errorf("-origins: %w", err)
	}
	return out, nil
}

// browserAddr is addr as a browser on this machine reaches it: an
// unspecified listen address (0.0.0.0, ::) becomes loopback.
func browserAddr(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}

// findAgent returns kandev-agent beside this executable, else on PATH, else "".
func findAgent() string {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "kandev-agent")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	if p, err := exec.LookPath("kandev-agent"); err == nil {
		return p
	}
	return ""
}

// operatorServers reads the operator catalog, checked as the agent checks
// it at start, into the servers users may choose besides the built-in ones
// (nil without a file).
func operatorServers(file string) (settings.Servers, error) {
	if file == "" {
		return nil, nil
	}
	entries, err := catalog.Load(file)
	if err != nil {
		return nil, err
	}
	servers := settings.Servers{}
	for _, e := range entries {
		if !e.Operator {
			continue
		}
		for _, l := range e.Languages {
			servers[e.ID] = append(servers[e.ID], string(l))
		}
	}
	return servers, nil
}
