package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/kandev/lsp/internal/connlimit"
	"github.com/kandev/lsp/internal/envallow"
	"github.com/kandev/lsp/internal/logging"
	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/pgdb"
)

// Environment variables read here, and only here.
const (
	envMaxConnections = "KANDEV_LSP_MAX_CONNECTIONS"
	envMaxPerUser     = "KANDEV_LSP_MAX_CONNECTIONS_PER_USER"
	envBrowserToken   = "KANDEV_RELAY_BROWSER_TOKEN"
	envCatalog        = "KANDEV_RELAY_CATALOG"
	envResumeGrace    = "KANDEV_RELAY_RESUME_GRACE"
)

// options are the command line with the environment read in, checked:
// everything run needs before it opens a file, a database or a socket.
type options struct {
	addr         string
	sessionsPath string
	// dbPath is -db: a SQLite file, or a postgres:// URL; empty: the
	// default file.
	dbPath      string
	agentBinary string
	// agentPassEnv names variables started agents get besides the
	// task-environment allowlist.
	agentPassEnv []string
	perClient    int
	hosts        []string
	origins      []string
	// browserToken is -browser-token, else its variable; empty with
	// noAuth off: run makes one.
	browserToken string
	noAuth       bool
	replicaID    string
	leaseTTL     time.Duration
	leaseBeat    time.Duration
	// catalogFile is -catalog, else its variable; empty: none.
	catalogFile string
	// resumeGrace is -resume-grace, else its variable, as the agent
	// takes it: 0 is no hold.
	resumeGrace time.Duration
	maxConns    int
	perUser     int
	verbose     bool
	logFormat   string
}

// parseOptions reads args and, through getenv, the variables; usage and
// flag errors go to stderr. A value that does not parse, or contradicts
// another, is an error: the relay refuses to start rather than run with a
// setting nobody asked for.
func parseOptions(args []string, getenv func(string) string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("kandev-relay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address HOST:PORT (port 0 picks a free port)")
	fs.StringVar(&o.sessionsPath, "sessions", "", "sessions file (JSON: {\"sessions\":[...]})")
	fs.StringVar(&o.dbPath, "db", "", "settings database: a file (SQLite; default <user config dir>/kandev/settings.db), or a\npostgres:// URL of the database replicas share (settings and the global connection cap);\nkeep its password out of the URL: PGPASSWORD or ~/.pgpass")
	fs.StringVar(&o.agentBinary, "agent-binary", "", "kandev-agent executable for local_pc sessions without agent.url\n(default: kandev-agent beside this binary, else on PATH)")
	agentPassEnv := fs.String("agent-pass-env", "", "comma-separated names of variables of this environment that agents it starts, and their\nlanguage servers, get besides the task-environment allowlist (PATH, HOME, toolchain, locale, proxy)")
	fs.IntVar(&o.perClient, "max-client-connections", connlimit.DefaultPerClient, "most connections one client address may hold open (streams included);\nbehind a balancer every browser shares its address: raise it there")
	hosts := fs.String("hosts", "", "names the relay is reached by, comma-separated, besides the address it listens on\n(and localhost on loopback); requests for any other Host are refused")
	origins := fs.String("origins", "", "extra browser origins allowed besides same-origin, comma-separated host patterns\n(never one that matches every host, such as * or https://*)")
	fs.StringVar(&o.browserToken, "browser-token", "", "token every request must carry (the sign-in cookie or Authorization: Bearer);\ndefault $"+envBrowserToken+", else a fresh one printed in the sign-in URL")
	fs.BoolVar(&o.noAuth, "insecure-no-browser-auth", false, "serve requests without a browser token: any local program or page that reaches\nthe relay's address can use it")
	fs.StringVar(&o.replicaID, "replica-id", "", "this replica's name in the shared database's slot leases and in /metrics\n(default host-pid-random); only with -db postgres://")
	fs.DurationVar(&o.leaseTTL, "lease-ttl", capacity.DefaultLeaseTTL, "with -db postgres://: how long after its last heartbeat a dead replica's\nconnection slots come back")
	fs.DurationVar(&o.leaseBeat, "lease-heartbeat", capacity.DefaultHeartbeat, "with -db postgres://: how often this replica renews its slot leases\n(well below -lease-ttl)")
	fs.StringVar(&o.catalogFile, "catalog", "", "the operator catalog its task hosts' agents are given (kandev-agent -catalog), so users\nmay choose its servers in their settings; default $"+envCatalog)
	fs.DurationVar(&o.resumeGrace, "resume-grace", relay.DefaultResumeGrace, "how long the connection slot of a stream whose browser was lost stays counted, waiting for\nits resume (agents it starts hold their servers as long); give task hosts' agents the same\n-resume-grace; 0: none (env "+envResumeGrace+")")
	fs.BoolVar(&o.verbose, "v", false, "debug logging")
	fs.StringVar(&o.logFormat, "log-format", logging.Text, logging.Usage)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if o.sessionsPath == "" {
		return nil, errors.New("-sessions is required")
	}
	if o.browserToken == "" {
		o.browserToken = getenv(envBrowserToken)
	}
	if o.noAuth && o.browserToken != "" {
		return nil, errors.New("-insecure-no-browser-auth and a browser token (-browser-token or $" + envBrowserToken + ") exclude each other")
	}
	if o.catalogFile == "" {
		o.catalogFile = getenv(envCatalog)
	}
	if err := o.resumeGraceFromEnv(fs, getenv(envResumeGrace)); err != nil {
		return nil, err
	}
	var err error
	if o.maxConns, err = maxConnections(envMaxConnections, getenv(envMaxConnections), relay.DefaultMaxConnections); err != nil {
		return nil, err
	}
	if o.perUser, err = maxConnections(envMaxPerUser, getenv(envMaxPerUser), 0); err != nil {
		return nil, err
	}
	if o.origins, err = originPatterns(*origins); err != nil {
		return nil, err
	}
	if o.perClient < 1 {
		return nil, errors.New("-max-client-connections must be positive")
	}
	if o.replicaID != "" && !pgdb.IsDSN(o.dbPath) {
		return nil, errors.New("-replica-id needs -db postgres://: without a shared database the cap is this process's")
	}
	o.hosts = access.SplitList(*hosts)
	o.agentPassEnv = access.SplitList(*agentPassEnv)
	return o, nil
}

// logger is the log the flags ask for, on w.
func (o *options) logger(w io.Writer) (*slog.Logger, error) {
	level := slog.LevelInfo
	if o.verbose {
		level = slog.LevelDebug
	}
	return logging.New(o.logFormat, w, level)
}

// relayConfig is the relay.Config of the options; run adds what it opens
// (sessions, settings, the shared cap, the credential, the log). environ
// is the relay's own environment, which started agents get filtered.
func (o *options) relayConfig(environ []string) relay.Config {
	return relay.Config{
		Hosts:                 o.hosts,
		OriginPatterns:        o.origins,
		MaxConnections:        o.maxConns,
		MaxConnectionsPerUser: o.perUser,
		Replica:               o.replicaID,
		ResumeGrace:           o.configResumeGrace(),
		// Started agents get the relay's environment as their task
		// environment, through the task-environment allowlist: the
		// relay's own secrets (the browser token, PGPASSWORD, cloud keys)
		// must not reach language servers, which run the repository's code.
		AgentEnv:     envallow.FilterEnviron(environ, o.agentPassEnv...),
		AgentPassEnv: o.agentPassEnv,
		// Metrics nil: the relay serves GET /metrics itself, behind the
		// browser token like every route (a scraper sends it as a bearer
		// token).
	}
}

// resumeGraceFromEnv reads v, the variable, unless -resume-grace was
// given, and refuses a negative grace either way.
func (o *options) resumeGraceFromEnv(fs *flag.FlagSet, v string) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "resume-grace" })
	if v = strings.TrimSpace(v); v != "" && !given {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%s=%q: want a duration such as 1m", envResumeGrace, v)
		}
		o.resumeGrace = d
	}
	if o.resumeGrace < 0 {
		return fmt.Errorf("-resume-grace (or $%s) must not be negative; 0 holds nothing", envResumeGrace)
	}
	return nil
}

// configResumeGrace is -resume-grace as relay.Config takes it: there 0 is
// the default and a negative grace none, where the flag's 0 is none, as
// the agent's -resume-grace is.
func (o *options) configResumeGrace() time.Duration {
	if o.resumeGrace == 0 {
		return -1
	}
	return o.resumeGrace
}

// lookupEnv is os.Getenv over environ (os.Environ form): the last entry
// of a name wins.
func lookupEnv(environ []string) func(string) string {
	return func(k string) string {
		v := ""
		for _, kv := range environ {
			if name, val, ok := strings.Cut(kv, "="); ok && name == k {
				v = val
			}
		}
		return v
	}
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
