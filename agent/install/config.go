package install

import (
	"net"
	"net/http"
	"runtime"
	"time"
)

// Default network limits for release downloads.
const (
	DefaultDialTimeout    = 30 * time.Second
	DefaultTLSTimeout     = 30 * time.Second
	DefaultHeaderTimeout  = 60 * time.Second
	DefaultIdleConnection = 90 * time.Second
)

// DefaultMaxReleaseSize bounds a release download and the executable it
// decompresses to. rust-analyzer's binary is tens of megabytes, so this
// leaves it room to grow severalfold while a hostile or broken mirror
// cannot fill the disk.
const DefaultMaxReleaseSize = 256 << 20

// Default install deadlines, for every installer.
const (
	// DefaultStallTimeout fails an install that makes no progress for this
	// long: a download that receives no byte, npm (one line per package
	// fetched) or go install (one line per package built) that prints
	// nothing. The longest silence of a healthy install is one large
	// tarball on a slow link or one large package compiled on a slow
	// machine, well under two minutes.
	DefaultStallTimeout = 2 * time.Minute
	// DefaultInstallTimeout fails an install that has not finished after
	// this long, however steadily it progresses: gopls builds in a few
	// minutes on two slow cores, the npm servers and rust-analyzer
	// download in under a minute on a 1 Mbit/s link. It bounds how long a
	// browser can be left watching "installing" and how long the install
	// lock is held.
	DefaultInstallTimeout = 15 * time.Minute
)

// Config configures a Manager. The zero value installs the pinned servers
// from their real sources with the default limits.
type Config struct {
	// Runner runs npm and go; nil means a Runner with the default grace.
	Runner *Runner
	// ReleaseBaseURL replaces the base URL of the built-in release entries
	// (the rust-analyzer entry's baseUrl in agent/catalog/builtin.json): a mirror holding the same assets, or a
	// loopback server in tests. Operator entries keep their own.
	ReleaseBaseURL string
	// ReleaseChecksums replaces the pinned sums of the built-in release
	// entries (the rust-analyzer entry's sha256 values): asset name to hex SHA-256.
	ReleaseChecksums map[string]string
	// GOARCH is the task host's architecture, runtime.GOARCH when empty:
	// the agent runs on the task host. Tests pick release targets with it.
	GOARCH string
	// HTTPClient overrides the client built from the timeouts below.
	HTTPClient *http.Client
	// DialTimeout, TLSTimeout, HeaderTimeout override the Default* network
	// limits of release downloads.
	DialTimeout, TLSTimeout, HeaderTimeout time.Duration
	// StallTimeout and InstallTimeout override DefaultStallTimeout and
	// DefaultInstallTimeout. Either ending an install fails it
	// (install_failed with the output so far, then 4003), kills the
	// installer's tree, removes its partial files and releases the lock.
	StallTimeout, InstallTimeout time.Duration
	// MaxReleaseSize overrides DefaultMaxReleaseSize (bytes).
	MaxReleaseSize int64
	// LockPoll is how often a lock held by another agent is retried
	// (lock.DefaultPoll when zero).
	LockPoll time.Duration
}

// runner is the Runner for npm and go: Config.Runner with the stall
// timeout filled in.
func (c *Config) runner() *Runner {
	r := Runner{}
	if c.Runner != nil {
		r = *c.Runner
	}
	if r.StallTimeout <= 0 {
		r.StallTimeout = c.stallTimeout()
	}
	return &r
}

func (c *Config) goarch() string {
	if c.GOARCH != "" {
		return c.GOARCH
	}
	return runtime.GOARCH
}

func (c *Config) stallTimeout() time.Duration { return or(c.StallTimeout, DefaultStallTimeout) }

func (c *Config) installTimeout() time.Duration { return or(c.InstallTimeout, DefaultInstallTimeout) }

func (c *Config) maxReleaseSize() int64 {
	if c.MaxReleaseSize > 0 {
		return c.MaxReleaseSize
	}
	return DefaultMaxReleaseSize
}

// httpClient builds the download client: bounded connection set-up and
// response headers, no Client.Timeout (it would cap the whole body).
// Proxies are not taken from the process environment: the task
// environment is the only source of settings, and the relay's hosts reach
// GitHub directly.
func (c *Config) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return &http.Client{Transport: &http.Transport{
		DialContext:           (&net.Dialer{Timeout: or(c.DialTimeout, DefaultDialTimeout)}).DialContext,
		TLSHandshakeTimeout:   or(c.TLSTimeout, DefaultTLSTimeout),
		ResponseHeaderTimeout: or(c.HeaderTimeout, DefaultHeaderTimeout),
		IdleConnTimeout:       DefaultIdleConnection,
		ForceAttemptHTTP2:     true,
	}}
}

func or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
