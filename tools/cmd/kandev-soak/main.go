//go:build linux

// Command kandev-soak runs the soak of package tools/soak: three
// kandev-relay replicas on one PostgreSQL it starts itself, agents with the
// scripted fake language server, a client opening streams across the
// replicas (servers that crash or stall, clients that vanish, settings
// saved at the same time) and one replica killed with SIGKILL half way.
// It prints a table and exits 1 if the cap was exceeded (by the relays'
// lease table, by the streams the client proved live at once, or by the
// agents' own active-streams gauges beyond the streams still stopping), a
// 4002 came from a relay that was alive, more streams were cut by the kill
// than the killed replica carried, a crash was not reported as 4006, the killed replica's slots did not come back within
// the lease bound, settings mixed two saves, descriptors or goroutines did
// not come back to their start, or a process was left behind.
//
// Environment (defaults: the full round of `task soak`):
//
//	SOAK_STREAMS=1000      streams to open
//	SOAK_DURATION=4m       spread over this long
//	SOAK_CAP=6             the global connection cap
//	SOAK_CLIENTS=14        streams kept going at once
//	SOAK_REPLICAS=3        relay replicas
//	SOAK_LEASE_TTL=30s     the relays' -lease-ttl
//	SOAK_HEARTBEAT=10s     the relays' -lease-heartbeat
//	SOAK_RESUME_GRACE=5s   the agents' and relays' -resume-grace
//
// It needs the Go toolchain (it builds the programs) and PostgreSQL.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/kandev/lsp/tools/soak"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "kandev-soak:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	cfg := soak.Config{}
	var err error
	ints := []struct {
		env string
		def int
		dst *int
	}{
		{"SOAK_STREAMS", 1000, &cfg.Streams}, {"SOAK_CAP", 6, &cfg.Cap},
		{"SOAK_CLIENTS", 14, &cfg.Clients}, {"SOAK_REPLICAS", 3, &cfg.Replicas},
	}
	for _, v := range ints {
		if *v.dst, err = envInt(v.env, v.def); err != nil {
			return err
		}
	}
	durs := []struct {
		env string
		def time.Duration
		dst *time.Duration
	}{
		{"SOAK_DURATION", 4 * time.Minute, &cfg.Duration},
		{"SOAK_LEASE_TTL", 30 * time.Second, &cfg.LeaseTTL},
		{"SOAK_HEARTBEAT", 10 * time.Second, &cfg.Heartbeat},
		{"SOAK_RESUME_GRACE", 5 * time.Second, &cfg.ResumeGrace},
	}
	for _, v := range durs {
		if *v.dst, err = envDuration(v.env, v.def); err != nil {
			return err
		}
	}
	bin, err := os.MkdirTemp("", "kandev-soak-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bin)
	cfg.BinDir = filepath.Join(bin, "bin")
	cfg.Log = os.Stderr
	rep, err := soak.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Print(os.Stdout)
	if len(rep.Failures) > 0 {
		return fmt.Errorf("%d failures", len(rep.Failures))
	}
	return nil
}

func envInt(name string, def int) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: want a positive integer", name, v)
	}
	return n, nil
}

func envDuration(name string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: want a duration such as 30s", name, v)
	}
	return d, nil
}
