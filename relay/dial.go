package relay

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/wire"
)

// agentDialer opens task-host streams.
type agentDialer struct {
	transport *http.Transport
	timeout   time.Duration
}

func newAgentDialer(timeout time.Duration) *agentDialer {
	return &agentDialer{
		timeout: timeout,
		transport: &http.Transport{
			// Agents live on the backend's own network (loopback or
			// the Docker bridge): no environment proxy on this hop.
			Proxy: nil,
			// A WebSocket handshake never gives its connection back,
			// and a pool would only keep sockets to agents open after
			// failed handshakes (a 401, say). Upgrade requests are
			// exempt from the "Connection: close" this implies.
			DisableKeepAlives: true,
			// HTTP/1.1 only: the upgrade handshake does not exist in h2.
			ForceAttemptHTTP2: false,
		},
	}
}

// agentStream is a dialled agent stream.
type agentStream struct {
	*websocket.Conn
	// readFailed reports whether a read on the underlying TCP connection
	// has failed; see bridge.Options.AgentReadFailed.
	readFailed func() bool
}

// errNoAgentURL: no agent URL to dial. Sessions without one are resolved
// to a started agent before dialling, so this is a programming error.
var errNoAgentURL = errors.New("session has no agent URL")

// streamParams are the agent stream's query parameters.
type streamParams struct {
	language string
	// server is a catalog id whose shape was checked, or "" for the
	// language's default.
	server string
	// autoInstall is the relay's decision from the user's settings.
	autoInstall bool
	// resume and received are the browser's resume request, passed on
	// as they came (their shape checked): the agent holds the servers and
	// is the authority on tokens. Both "" for a new stream.
	resume, received string
}

// dial opens the agent's stream for one language and server. Any failure —
// no URL, a refused connection, a non-101 answer such as 401, or 400 for a
// server the task host's catalog does not hold for the language — is
// returned as an error for the log; the caller maps all of them to
// wire.CloseUnavailable. session and connID go along for the agent's log.
func (d *agentDialer) dial(ctx context.Context, ref AgentRef, p streamParams, session, connID string) (agentStream, error) {
	u, err := agentStreamURL(ref.URL, p)
	if err != nil {
		return agentStream{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()

	// One transport per dial, so its dialer can hand back this stream's
	// socket wrapped in a read watch. Dials are once per stream and the
	// transport keeps no connections (DisableKeepAlives), so this costs
	// nothing that lasts.
	var failed atomic.Bool
	t := d.transport.Clone()
	nd := &net.Dialer{Timeout: d.timeout, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := nd.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &watchedConn{Conn: c, failed: &failed}, nil
	}
	defer t.CloseIdleConnections()

	conn, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: t},
		HTTPHeader: http.Header{
			"Authorization":       {"Bearer " + ref.Token},
			wire.HeaderSession:    {session},
			wire.HeaderConnection: {connID},
		},
		// Same reason as on the browser side: bodies pass through
		// unread, so compressing them here would be pure cost.
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		if resp != nil {
			return agentStream{}, fmt.Errorf("agent answered HTTP %d: %w", resp.StatusCode, err)
		}
		return agentStream{}, err
	}
	return agentStream{Conn: conn, readFailed: failed.Load}, nil
}

// watchedConn records the first failed read of a connection. Its only
// reader is the bridge's pump (after the handshake nothing reads ahead), so
// a failure is seen before the pump looks.
type watchedConn struct {
	net.Conn
	failed *atomic.Bool
}

func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.failed.Store(true)
	}
	return n, err
}

// agentStreamURL builds
// ws(s)://agent/api/v1/lsp/stream?language=L[&server=ID]&autoInstall=B from
// the agent's base URL.
func agentStreamURL(base string, p streamParams) (string, error) {
	if base == "" {
		return "", errNoAgentURL
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("agent URL: %w", err)
	}
	switch u.Scheme {
	case "http", "ws":
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("agent URL %q: scheme must be http or https", base)
	}
	if u.Host == "" {
		return "", fmt.Errorf("agent URL %q: no host", base)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + wire.AgentStreamPath
	u.RawPath = ""
	q := url.Values{
		wire.ParamLanguage:    {p.language},
		wire.ParamAutoInstall: {strconv.FormatBool(p.autoInstall)},
	}
	if p.server != "" {
		q.Set(wire.ParamServer, p.server)
	}
	if p.resume != "" {
		q.Set(wire.ParamResume, p.resume)
		q.Set(wire.ParamReceived, p.received)
	}
	u.RawQuery = q.Encode()
	u.Fragment = ""
	return u.String(), nil
}
