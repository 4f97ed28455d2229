// Command kandev-relay serves the relay on its own: the browser-facing LSP
// stream, the user-settings API, the boot runtime and task stop.
//
//	kandev-relay -addr HOST:PORT -sessions FILE.json [-db FILE|postgres://...]
//	             [-agent-binary PATH] [-agent-pass-env NAME,...]
//	             [-max-client-connections 256]
//	             [-hosts NAME,...] [-origins HOST,...]
//	             [-browser-token TOKEN | -insecure-no-browser-auth]
//	             [-replica-id ID] [-lease-ttl 30s] [-lease-heartbeat 10s]
//	             [-catalog FILE] [-resume-grace 1m]
//	             [-log-format text|json] [-v]
//
// With -db postgres://... the relay is one of several replicas on that
// database: settings live there, and the connection cap is global — each
// admitted stream holds a slot lease row that this replica renews every
// -lease-heartbeat; a replica that dies has its slots back -lease-ttl after
// its last renewal. -resume-grace is how long the slot of a stream whose
// browser was lost stays held for its resume: give it the task hosts'
// agents' -resume-grace (agents it starts get it); 0 holds nothing.
//
// Environment: KANDEV_LSP_MAX_CONNECTIONS caps active streams (default 8;
// give every replica the same); KANDEV_LSP_MAX_CONNECTIONS_PER_USER caps one
// user's share of them (default none; give every replica the same);
// KANDEV_RELAY_BROWSER_TOKEN is the browser token when -browser-token is not
// given (prefer it: a flag shows in the process list);
// KANDEV_RELAY_CATALOG is the operator catalog when -catalog is not given;
// KANDEV_RELAY_RESUME_GRACE is the resume grace when -resume-grace is not.
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
// shuts down gracefully on SIGINT or SIGTERM (relay.Relay.Serve): streams
// close with 1012 to the browser (connect again) and to the agent (hold the
// server for that resume), then the agents it started are stopped (their
// servers reaped).
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kandev/lsp/internal/connlimit"
	"github.com/kandev/lsp/relay"
)

// idleTimeout closes a keep-alive connection that sits silent between
// requests.
const idleTimeout = 30 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "kandev-relay:", err)
		os.Exit(1)
	}
}

// run turns the command line and environ (the process environment, in
// os.Environ form) into a relay.Config and serves it until ctx ends; the
// relay drains itself then.
func run(ctx context.Context, args []string, environ []string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, lookupEnv(environ), stderr)
	if err != nil {
		return err
	}
	sessions, err := relay.LoadSessions(o.sessionsPath)
	if err != nil {
		return err
	}
	servers, err := operatorServers(o.catalogFile)
	if err != nil {
		return err
	}
	logger, err := o.logger(stderr)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, o, logger)
	if err != nil {
		return err
	}
	defer st.close() // after the drain: deferred calls run last first
	bin := agentBinary(o.agentBinary, logger)

	raw, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "listening on http://%s\n", raw.Addr())
	ln := connlimit.Listen(raw, connlimit.Options{PerClient: o.perClient, Refused: func(a net.Addr) {
		logger.Debug("connection over the per-client bound closed", "remote", a.String())
	}})

	cfg := o.relayConfig(environ)
	cfg.Sessions = sessions
	cfg.Authenticate, cfg.SignIn = browserAuth(o, ln.Addr(), stdout, logger)
	cfg.Settings = st.settings
	cfg.Capacity = st.capacity
	cfg.Servers = servers
	cfg.AgentBinary = bin
	cfg.AgentOutput = stderr
	cfg.Logger = logger
	rl := relay.New(cfg)
	return rl.Serve(ctx, &http.Server{
		Handler:           rl,
		ReadHeaderTimeout: 10 * time.Second,
		// A keep-alive connection silent between requests is closed (a
		// refused one at once: access answers it with Connection: close).
		// Streams are hijacked and keep their own pings.
		IdleTimeout: idleTimeout,
		ErrorLog:    slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
	}, ln)
}
