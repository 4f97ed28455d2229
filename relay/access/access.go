// Package access decides whether a browser-facing request may be served at
// all, before any route sees it. Guard applies three checks, in this order:
//
//  1. Host: the request's Host must be a name the server serves. A page on
//     any domain whose name the attacker rebinds to 127.0.0.1 (DNS
//     rebinding) reaches a loopback server from the user's own browser,
//     and its Origin then equals its Host, so an Origin check alone counts
//     it as same-origin. Its Host, though, is still the attacker's name.
//  2. Origin: a request that carries an Origin must come from the server's
//     own origin — its scheme included — or an allowed pattern, so another
//     site's page cannot use the user's cookie (a form POST needs no CORS
//     preflight). A browser request without an Origin (an image, a script,
//     a plain GET) that the browser marks as sent by another site
//     (Sec-Fetch-Site "same-site" or "cross-site": a page on another port
//     of localhost is same-site and gets a SameSite=Strict cookie) is
//     refused too, unless it is a top-level navigation to a server that
//     has pages: a GET can start things (an agent, a container).
//  3. Credential: the embedder's authentication hook names the user; a
//     request it refuses gets HTTP 401 and nothing else happens.
//
// Token is the credential kandev-relay and the demo server use on their
// own: a random secret the operator gets in the start-up URL, which sets an
// HttpOnly, SameSite=Strict cookie in the browser (or is sent as a bearer
// token by programs).
package access

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
)

// Config configures Guard.
type Config struct {
	// Hosts are the names (DNS names or IP literals, without port) the
	// server answers to besides its defaults: the IP address a request
	// arrived on, and on a loopback connection "localhost" and every
	// loopback address. A server behind a name (a reverse proxy, a LAN
	// host name, a port published by Docker) must list it here.
	Hosts []string
	// Authenticate returns the user a request acts for, or an error (HTTP
	// 401) when it carries no valid credential. It must not return an
	// empty user with a nil error. Nil turns authentication off: every
	// request is served for Anonymous.
	Authenticate func(r *http.Request) (user string, err error)
	// SignIn, if set, is served at SignInPath for GET requests without a
	// credential (the Host check still applies): it is how a browser gets
	// one. Token is such a handler.
	SignIn http.Handler
	// OriginPatterns are the browser origins allowed besides the server's
	// own, as host patterns in coder/websocket AcceptOptions.OriginPatterns
	// form ("app.example.com", "*.example.com", "https://app.example.com").
	// CheckOriginPatterns must accept them.
	OriginPatterns []string
	// Pages says the server has pages a link on another site may open
	// (the demo's page): a top-level navigation from another site is then
	// let through to the credential check. The relay serves none of its
	// routes as pages, so there a navigation from another site is refused
	// like any request of another site's page.
	Pages bool
	// Logger receives a debug record for each refusal; nil discards them.
	Logger *slog.Logger
}

// SignInPath is the sign-in route of Config.SignIn.
const SignInPath = "/api/v1/lsp/sign-in"

// Anonymous is the user of requests when authentication is off.
const Anonymous = ""

type userKey struct{}

// User returns the user Guard authenticated for the request whose context
// this is; Anonymous when authentication is off or outside Guard.
func User(ctx context.Context) string {
	u, _ := ctx.Value(userKey{}).(string)
	return u
}

// Guard returns next behind the three checks of the package documentation.
// Refusals are JSON {"error": "..."} answers: 403 for a foreign Host or
// Origin, 401 for a missing or wrong credential. It panics when
// CheckOriginPatterns refuses cfg.OriginPatterns, like http.ServeMux panics
// on a bad pattern: it is a configuration error, not a request's.
func Guard(cfg Config, next http.Handler) http.Handler {
	if err := CheckOriginPatterns(cfg.OriginPatterns); err != nil {
		panic("access: " + err.Error())
	}
	g := &guard{cfg: cfg, next: next, log: cfg.Logger, hosts: make([]string, 0, len(cfg.Hosts))}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	for _, h := range cfg.Hosts {
		g.hosts = append(g.hosts, normalizeHost(h))
	}
	return g
}

type guard struct {
	cfg   Config
	next  http.Handler
	log   *slog.Logger
	hosts []string
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hostAllowed(r) {
		g.log.Debug("access: foreign Host refused", "host", r.Host, "path", r.URL.Path)
		refuse(w, http.StatusForbidden, "unknown host")
		return
	}
	if !g.originAllowed(r) {
		g.log.Debug("access: cross-origin request refused", "origin", r.Header.Get("Origin"), "path", r.URL.Path)
		refuse(w, http.StatusForbidden, "cross-origin request refused")
		return
	}
	if g.cfg.SignIn != nil && r.URL.Path == SignInPath && r.Method == http.MethodGet {
		g.cfg.SignIn.ServeHTTP(w, r)
		return
	}
	user := Anonymous
	if g.cfg.Authenticate != nil {
		u, err := g.cfg.Authenticate(r)
		if err != nil || u == "" {
			g.log.Debug("access: no valid credential", "path", r.URL.Path, "err", err)
			refuse(w, http.StatusUnauthorized, "a valid browser credential is required")
			return
		}
		user = u
	}
	next := r.WithContext(context.WithValue(r.Context(), userKey{}, user))
	g.next.ServeHTTP(w, next)
}

// refuse answers a refused request and closes its connection afterwards:
// a peer without a credential gets nothing to hold on to.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

// hostAllowed reports whether r's Host names this server: a configured
// name; the IP literal of the address the request arrived on; or, on a
// loopback connection, "localhost" or a loopback IP literal. An IP literal
// cannot be rebound, and a loopback name reaches only this machine.
func (g *guard) hostAllowed(r *http.Request) bool {
	host := normalizeHost(r.Host)
	if host == "" {
		return false
	}
	if slices.Contains(g.hosts, host) {
		return true
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	tcp, ok := local.(*net.TCPAddr)
	if !ok {
		return false
	}
	ip := net.ParseIP(host)
	if ip != nil && ip.Equal(tcp.IP) {
		return true
	}
	if tcp.IP.IsLoopback() {
		return host == "localhost" || (ip != nil && ip.IsLoopback())
	}
	return false
}

// normalizeHost lower-cases a Host header or a configured name and drops
// its port, IPv6 brackets and a trailing dot.
func normalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if hp, _, err := net.SplitHostPort(h); err == nil {
		h = hp
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// originAllowed: the request's own origin (host and scheme), or an allowed
// pattern matched the way coder/websocket matches them; without an Origin,
// anything but a request the browser says another site's page sent (see
// the package documentation). The WebSocket upgrade repeats the Origin
// check in Accept.
func (g *guard) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		switch r.Header.Get("Sec-Fetch-Site") {
		case "same-site", "cross-site":
			return g.cfg.Pages && r.Method == http.MethodGet && r.Header.Get("Sec-Fetch-Mode") == "navigate"
		}
		// Not a browser, the server's own page, or a link the user typed
		// or bookmarked ("none").
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(r.Host, u.Host) && strings.EqualFold(u.Scheme, requestScheme(r)) {
		return true
	}
	for _, p := range g.cfg.OriginPatterns {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, err := path.Match(strings.ToLower(p), strings.ToLower(target)); err == nil && ok {
			return true
		}
	}
	return false
}

// requestScheme is the scheme the browser used to reach the server: https
// over TLS, or behind a TLS-terminating proxy that says so in
// X-Forwarded-Proto (a page cannot set that header on a request of its
// own without a CORS preflight, which the Origin check refuses first).
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	if strings.EqualFold(strings.TrimSpace(proto), "https") {
		return "https"
	}
	return "http"
}

// SplitList splits a comma-separated list of names or patterns, as a flag
// gives Hosts or OriginPatterns, dropping blanks.
func SplitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ErrOriginPattern is returned (wrapped) by CheckOriginPatterns.
var ErrOriginPattern = errors.New("origin pattern")

// CheckOriginPatterns refuses a pattern that is malformed or matches every
// host ("*", "*.*", "https://*", "*://*:*", "[a-z]*"): with one, any page on
// the web could drive the user's language servers. A pattern counts as
// matching every host when its host part, after the scheme, holds nothing
// but wildcards, character classes, dots and colons.
func CheckOriginPatterns(patterns []string) error {
	for _, p := range patterns {
		lp := strings.ToLower(p)
		if _, err := path.Match(lp, ""); err != nil {
			return errorf("%q is malformed: %v", p, err)
		}
		host := lp
		if _, after, ok := strings.Cut(lp, "://"); ok {
			host = after
		}
		if literal(host) == "" {
			return errorf("%q matches every host", p)
		}
	}
	return nil
}

// literal returns what of a path.Match pattern must match literally: the
// pattern without wildcards, character classes, escapes, dots and colons.
func literal(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*', '?', '.', ':':
		case '[':
			if j := strings.IndexByte(p[i:], ']'); j > 0 {
				i += j
			}
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w "+format, append([]any{ErrOriginPattern}, args...)...)
}
