//go:build linux

package stream

import (
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/e2e/fakelsp/script"
	"github.com/kandev/lsp/internal/wire"
)

// tcpProxy sits between a client and the agent. It counts the pings the
// agent sends, and drop makes the connection vanish silently: from then
// on nothing is passed either way and nothing is closed, which is what a
// peer that lost power or a dropped route looks like from the agent.
type tcpProxy struct {
	ln      net.Listener
	target  string
	pings   atomic.Int64
	dropped atomic.Bool
	mu      sync.Mutex
	conns   []net.Conn
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &tcpProxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
	return p
}

func (p *tcpProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		go p.pipe(c, up)
		go p.pipe(up, &pingCounter{w: c, p: p})
	}
}

// pipe copies src to dst until src ends; dropped data is read and
// discarded, so neither side sees a close.
func (p *tcpProxy) pipe(src net.Conn, dst io.Writer) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.dropped.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *tcpProxy) drop() { p.dropped.Store(true) }

func (p *tcpProxy) url(f *fixture, lang string) string {
	return strings.Replace(f.url(lang), strings.TrimPrefix(f.srv.URL, "http://"), p.ln.Addr().String(), 1)
}

// pingCounter passes the agent's bytes on to the client and parses them
// (the HTTP upgrade response, then unmasked server frames) to count the
// pings, opcode 9.
type pingCounter struct {
	w        io.Writer
	p        *tcpProxy
	buf      []byte
	upgraded bool
}

func (c *pingCounter) Write(b []byte) (int, error) {
	c.buf = append(c.buf, b...)
	c.scan()
	return c.w.Write(b)
}

func (c *pingCounter) scan() {
	if !c.upgraded {
		i := strings.Index(string(c.buf), "\r\n\r\n")
		if i < 0 {
			return
		}
		c.buf, c.upgraded = c.buf[i+4:], true
	}
	for len(c.buf) >= 2 {
		n, hdr := uint64(c.buf[1]&0x7f), 2
		switch n {
		case 126:
			if len(c.buf) < 4 {
				return
			}
			n, hdr = uint64(binary.BigEndian.Uint16(c.buf[2:4])), 4
		case 127:
			if len(c.buf) < 10 {
				return
			}
			n, hdr = binary.BigEndian.Uint64(c.buf[2:10]), 10
		}
		if uint64(len(c.buf)) < uint64(hdr)+n {
			return
		}
		if c.buf[0]&0x0f == 0x9 {
			c.p.pings.Add(1)
		}
		c.buf = c.buf[uint64(hdr)+n:]
	}
}

// dialVia dials the stream through the proxy.
func dialVia(t *testing.T, p *tcpProxy, f *fixture, lang string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(testCtx(t), p.url(f, lang), &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}},
	})
	require.NoError(t, err)
	c.SetReadLimit(wire.MaxMessageSize + 1)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func shortPings(c *Config) { c.PingInterval, c.PingTimeout = 50*time.Millisecond, 200*time.Millisecond }

// Dead peers: a peer whose connection silently drops (nothing closed,
// nothing answered) is closed by the agent after its ping goes
// unanswered; its language server is stopped and its slot under the
// connection cap is free again. Before the drop, the same pings were
// answered and the idle stream stayed open.
func TestDeadPeerFreesSlot(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, script.Script{}, shortPings, func(c *Config) { c.MaxConnections = 1 })
	p := newTCPProxy(t, f.srv.Listener.Addr().String())
	c := dialVia(t, p, f.fixture, "go")
	_, _, err := c.Read(testCtx(t))
	require.NoError(t, err) // ready
	readErr := make(chan error, 1)
	go func() { _, _, err := c.Read(testCtx(t)); readErr <- err }() // answers pings
	waitFor(t, func() bool { return p.pings.Load() >= 3 })
	select {
	case err := <-readErr:
		t.Fatalf("an idle peer that answers pings was closed: %v", err)
	default:
	}

	other, _, err := dial(t, f.fixture, "go", token)
	require.NoError(t, err)
	requireClose(t, other, int(wire.CloseCapacity))

	start := f.events(t, "start")
	require.Len(t, start, 1)
	p.drop()
	waitFor(t, func() bool { return !alive(start[0].Pid) })
	// The slot is released once the stream's teardown has finished.
	waitFor(t, func() bool {
		again, _, err := dial(t, f.fixture, "go", token)
		require.NoError(t, err)
		defer again.CloseNow()
		_, b, err := again.Read(testCtx(t))
		if websocket.CloseStatus(err) == websocket.StatusCode(wire.CloseCapacity) {
			return false
		}
		require.NoError(t, err)
		require.Contains(t, string(b), wire.StatusReady)
		return true
	})
}

// The same during an install: a peer that vanishes while npm runs (after
// sending its initialize early) cancels the install and its tree is
// reaped.
func TestDeadPeerCancelsInstall(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "hang", shortPings)
	p := newTCPProxy(t, k.srv.Listener.Addr().String())
	c := dialVia(t, p, k.fixture, "typescript&"+wire.ParamAutoInstall+"=true")
	requireStatuses(t, c, "typescript", wire.StatusInstalling)
	pids := k.installerPids(t)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}})
	p.drop()
	waitFor(t, func() bool { return !alive(pids[0]) && !alive(pids[1]) })
	waitFor(t, func() bool { return len(k.cacheEntries(t)) == 0 })
}
