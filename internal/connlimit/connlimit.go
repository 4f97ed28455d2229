// Package connlimit bounds the connections one client address holds open
// on a server's listener (the agent's, the relay's, the demo's).
//
// Every route of the three needs a credential, but a connection costs the
// server before any request is read: a goroutine, buffers, a file
// descriptor. A peer that opens connections and stays silent (or sends one
// refused request and keeps the connection) could otherwise hold them
// until the server runs out of descriptors, and with them every stream. The
// HTTP server's timeouts end each such connection eventually; this bound
// caps how many one address holds meanwhile. A connection over the bound
// is closed as soon as it is accepted, before a byte is read.
package connlimit

import (
	"net"
	"net/netip"
	"sync"
)

// DefaultPerClient is the default bound: generous, since the relay, one
// client, holds every stream (the agent's stream cap is 16) and its file
// requests over its own connections; a peer past it is not a relay.
const DefaultPerClient = 256

// Options configures Listen.
type Options struct {
	// PerClient is the most connections one client IP address may hold
	// open at once (DefaultPerClient when not positive).
	PerClient int
	// Refused, if set, is called with the remote address of each
	// connection closed for being over the bound.
	Refused func(remote net.Addr)
}

// Listen wraps ln so that each client IP address holds at most
// opts.PerClient accepted connections at once. Accept closes a connection
// over the bound itself and waits for the next one.
func Listen(ln net.Listener, opts Options) net.Listener {
	if opts.PerClient <= 0 {
		opts.PerClient = DefaultPerClient
	}
	return &listener{Listener: ln, opts: opts, open: make(map[netip.Addr]int)}
}

type listener struct {
	net.Listener
	opts Options
	mu   sync.Mutex
	open map[netip.Addr]int
}

// Accept returns the next connection within the bound.
func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := clientIP(c.RemoteAddr())
		l.mu.Lock()
		full := l.open[ip] >= l.opts.PerClient
		if !full {
			l.open[ip]++
		}
		l.mu.Unlock()
		if full {
			_ = c.Close()
			if l.opts.Refused != nil {
				l.opts.Refused(c.RemoteAddr())
			}
			continue
		}
		return &conn{Conn: c, l: l, ip: ip}, nil
	}
}

func (l *listener) release(ip netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip]--; l.open[ip] <= 0 {
		delete(l.open, ip)
	}
}

// clientIP is the address a bound applies to: IPv4-mapped IPv6 addresses
// count as their IPv4 address, and an address that does not parse (not
// TCP) counts as one client, the zero Addr.
func clientIP(a net.Addr) netip.Addr {
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return ap.Addr().Unmap().WithZone("")
	}
	return netip.Addr{}
}

// conn releases its slot once, on the first Close.
type conn struct {
	net.Conn
	l    *listener
	ip   netip.Addr
	once sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.ip) })
	return err
}

// NetConn returns the accepted connection itself, so code that tunes a
// *net.TCPConn (socket buffers) can reach it, as with tls.Conn.
func (c *conn) NetConn() net.Conn { return c.Conn }

// CloseWrite half-closes a TCP connection, as net/http does when it ends
// one gracefully.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
