// Command kandev-relay serves the relay's browser-facing LSP route on its own.
//
//	kandev-relay -addr HOST:PORT -sessions FILE.json [-db FILE]
//
// It prints "listening on http://HOST:PORT" as its first stdout line once the
// socket is bound (so -addr 127.0.0.1:0 is usable from scripts), and shuts
// down gracefully on SIGINT or SIGTERM: streams close with 1001 on both hops.
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
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/kandev/lsp/relay"
)

// shutdownGrace bounds the wait for streams to finish their close handshakes
// (coder/websocket gives each peer up to 5 s to answer).
const shutdownGrace = 15 * time.Second

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "kandev-relay:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kandev-relay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address HOST:PORT (port 0 picks a free port)")
	sessionsPath := fs.String("sessions", "", "sessions file (JSON: {\"sessions\":[...]})")
	// Accepted so launch scripts can pass it already; the settings store
	// (SQLite) lands with the settings API.
	_ = fs.String("db", "", "settings database file (not used yet)")
	verbose := fs.Bool("v", false, "debug logging")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *sessionsPath == "" {
		return errors.New("-sessions is required")
	}
	sessions, err := relay.LoadSessions(*sessionsPath)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())

	// Streams are hijacked connections: http.Server.Shutdown neither closes
	// nor waits for them. Cancelling base ends them (1001 on both hops);
	// streams counts the handlers still running so main can wait.
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	var streams sync.WaitGroup
	h := relay.New(relay.Config{Sessions: sessions, Logger: logger})
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			streams.Add(1)
			defer streams.Done()
			h.ServeHTTP(w, r)
		}),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
	}

	sig, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		return err
	case <-sig.Done():
	}
	logger.Info("shutting down")
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err = srv.Shutdown(ctx) // stop accepting; finish plain requests
	cancelBase()            // then end the streams
	done := make(chan struct{})
	go func() { streams.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		logger.Info("shutdown: streams still closing at the deadline")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return nil // reported above; exiting is what was asked
	}
	return err
}
