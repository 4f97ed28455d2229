package install

import (
	"net"
	"net/http"
	"runtime"
	"time"
)

// Default network limits for release downloads. There is deliberately no
// overall limit: only a connection that stops making progress fails.
const (
	DefaultDialTimeout    = 30 * time.Second
	DefaultTLSTimeout     = 30 * time.Second
	DefaultHeaderTimeout  = 60 * time.Second
	DefaultStallTimeout   = 60 * time.Second
	DefaultIdleConnection = 90 * time.Second
)

// Config configures a Manager. The zero value installs the pinned servers
// from their real sources with the default limits.
type Config struct {
	// Runner runs npm and go; nil means a Runner with the default grace.
	Runner *Runner
	// ReleaseBaseURL overrides DefaultReleaseBaseURL (tests: a loopback
	// server).
	ReleaseBaseURL string
	// ReleaseChecksums overrides DefaultReleaseChecksums: asset name to hex
	// SHA-256.
	ReleaseChecksums map[string]string
	// GOARCH is the task host's architecture, runtime.GOARCH when empty:
	// the agent runs on the task host. Tests pick release targets with it.
	GOARCH string
	// HTTPClient overrides the client built from the timeouts below.
	HTTPClient *http.Client
	// DialTimeout, TLSTimeout, HeaderTimeout and StallTimeout override the
	// Default* limits.
	DialTimeout, TLSTimeout, HeaderTimeout, StallTimeout time.Duration
	// LockPoll is how often a lock held by another agent is retried
	// (lock.DefaultPoll when zero).
	LockPoll time.Duration
}

func (c *Config) runner() *Runner {
	if c.Runner != nil {
		return c.Runner
	}
	return &Runner{}
}

func (c *Config) goarch() string {
	if c.GOARCH != "" {
		return c.GOARCH
	}
	return runtime.GOARCH
}

func (c *Config) releaseBaseURL() string {
	if c.ReleaseBaseURL != "" {
		return c.ReleaseBaseURL
	}
	return DefaultReleaseBaseURL
}

func (c *Config) releaseChecksums() map[string]string {
	if c.ReleaseChecksums != nil {
		return c.ReleaseChecksums
	}
	return DefaultReleaseChecksums
}

func (c *Config) stallTimeout() time.Duration { return or(c.StallTimeout, DefaultStallTimeout) }

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
