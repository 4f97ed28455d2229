package main

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/kandev/lsp/agent/install"
	streams "github.com/kandev/lsp/agent/stream"
	"github.com/kandev/lsp/agent/watch"
	"github.com/kandev/lsp/internal/logging"
)

// limits are the agent's tunable bounds (and its log format). Each has a flag and an
// environment variable; the flag wins, the variable is read when the flag
// is not given (a relay or container that starts the agent sets either),
// and the variable is removed from the task environment like the token:
// it is the agent's setting, not the task's.
type limits struct {
	installStall   time.Duration
	installTimeout time.Duration
	pingInterval   time.Duration
	pingTimeout    time.Duration
	resumeGrace    time.Duration
	maxConnections int
	logFormat      string
	maxWatches     int
	// catalogFile is the operator catalog; empty: the built-in one only.
	catalogFile string
	// passEnv names the task variables children get besides the
	// allowlist (-pass-env; a flag only).
	passEnv []string
	// perClient bounds one client address's open connections
	// (-max-client-connections; a flag only).
	perClient int
}

// limit is one of them: its flag, its variable, and where it is stored.
type limit struct {
	flag, env, usage string
	dur              *time.Duration
	n                *int
	zeroOK           bool // 0 is a value (off), not a mistake
	str              *string
}

func (l *limits) table() []limit {
	return []limit{
		{flag: "install-stall", env: "KANDEV_AGENT_INSTALL_STALL", dur: &l.installStall,
			usage: "fail an install that makes no progress (no npm or go output, no downloaded byte) for this long"},
		{flag: "install-timeout", env: "KANDEV_AGENT_INSTALL_TIMEOUT", dur: &l.installTimeout,
			usage: "fail an install that has not finished after this long"},
		{flag: "ping-interval", env: "KANDEV_AGENT_PING_INTERVAL", dur: &l.pingInterval,
			usage: "ping a stream whose peer has sent nothing for this long"},
		{flag: "ping-timeout", env: "KANDEV_AGENT_PING_TIMEOUT", dur: &l.pingTimeout,
			usage: "close a stream whose peer has not answered a ping within this long"},
		{flag: "resume-grace", env: "KANDEV_AGENT_RESUME_GRACE", dur: &l.resumeGrace, zeroOK: true,
			usage: "hold a language server whose socket was lost (not closed) this long for the browser to resume it; 0 stops it at once"},
		{flag: "max-connections", env: "KANDEV_AGENT_MAX_CONNECTIONS", n: &l.maxConnections,
			usage: "streams open at once; one more is closed with 4005"},
		{flag: "log-format", env: "KANDEV_AGENT_LOG_FORMAT", str: &l.logFormat, usage: logging.Usage},
		{flag: "max-watches", env: "KANDEV_AGENT_MAX_WATCHES", n: &l.maxWatches,
			usage: "workspace directories watched for changes; past it, changes in further directories are not reported"},
		{flag: "catalog", env: "KANDEV_AGENT_CATALOG", str: &l.catalogFile,
			usage: "operator catalog: a JSON file of language servers added to the built-in ones"},
	}
}

// register defines the flags with the defaults.
func (l *limits) register(fs *flag.FlagSet) {
	l.installStall, l.installTimeout = install.DefaultStallTimeout, install.DefaultInstallTimeout
	l.pingInterval, l.pingTimeout = streams.DefaultPingInterval, streams.DefaultPingTimeout
	l.maxConnections = streams.DefaultMaxConnections
	l.resumeGrace = streams.DefaultResumeGrace
	l.logFormat = logging.Text
	l.maxWatches = watch.DefaultMaxWatches
	for _, e := range l.table() {
		usage := e.usage + " (env " + e.env + ")"
		switch {
		case e.dur != nil:
			fs.DurationVar(e.dur, e.flag, *e.dur, usage)
		case e.n != nil:
			fs.IntVar(e.n, e.flag, *e.n, usage)
		default:
			fs.StringVar(e.str, e.flag, *e.str, usage)
		}
	}
}

// fromEnv reads the variables of the flags not given on the command line
// and deletes every one of them from env. A value that does not parse, or
// is not positive, is an error: the agent refuses to start rather than
// run with a limit nobody asked for.
func (l *limits) fromEnv(fs *flag.FlagSet, env map[string]string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, e := range l.table() {
		v, ok := env[e.env]
		delete(env, e.env)
		if ok && !given[e.flag] {
			if err := fs.Set(e.flag, v); err != nil {
				return fmt.Errorf("%s=%q: %w", e.env, v, err)
			}
		}
		if e.zeroOK && e.dur != nil && *e.dur == 0 {
			continue
		}
		if (e.dur != nil && *e.dur <= 0) || (e.n != nil && *e.n <= 0) {
			return fmt.Errorf("-%s must be positive", e.flag)
		}
	}
	return nil
}

// String is for the start-up log.
func (l *limits) String() string {
	return "install-stall=" + l.installStall.String() + " install-timeout=" + l.installTimeout.String() +
		" ping-interval=" + l.pingInterval.String() + " ping-timeout=" + l.pingTimeout.String() + " resume-grace=" + l.resumeGrace.String() +
		" max-connections=" + strconv.Itoa(l.maxConnections) + " max-watches=" + strconv.Itoa(l.maxWatches) +
		" max-client-connections=" + strconv.Itoa(l.perClient) + " log-format=" + l.logFormat
}

// serverResumeGrace is -resume-grace as the server takes it: 0 (off) is
// negative there, where 0 is the default.
func (l *limits) serverResumeGrace() time.Duration {
	if l.resumeGrace == 0 {
		return -1
	}
	return l.resumeGrace
}
