package access

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// served counts the requests that got through the guard and records the
// user of the last one.
type served struct {
	n    atomic.Int32
	user atomic.Value
}

func (s *served) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.n.Add(1)
	s.user.Store(User(r.Context()))
	_, _ = io.WriteString(w, "ok")
}

// client sends no keep-alives, so each test request is on a fresh socket.
var client = &http.Client{
	Transport: &http.Transport{DisableKeepAlives: true},
	// The sign-in redirect is asserted, not followed.
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// send issues method path on srv with the given Host and headers.
func send(t *testing.T, srv *httptest.Server, method, path, host string, hdr http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	require.NoError(t, err)
	for k, v := range hdr {
		req.Header[k] = v
	}
	if host != "" {
		req.Host = host
	}
	resp, err := client.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp
}

// A rebinding page's requests carry the attacker's name as Host, with or
// without a matching Origin: refused before the handler runs, also when
// the request holds a valid credential.
func TestHostAllowlist(t *testing.T) {
	t.Parallel()
	h := &served{}
	tok := NewToken("s3cret", "u", "")
	srv := httptest.NewServer(Guard(Config{Hosts: []string{"Kandev.Example.com."}, Authenticate: tok.Authenticate, SignIn: tok}, h))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	auth := http.Header{"Authorization": {"Bearer s3cret"}}

	for _, tc := range []struct {
		host   string
		origin string
	}{
		{"attacker.example:" + port, "http://attacker.example:" + port}, // rebinding, Origin matches Host
		{"attacker.example:" + port, ""},                                // rebinding, no Origin
		{"attacker.example", ""},
		{"127.0.0.1.nip.io:" + port, ""},
		{"localhost.attacker.example", ""},
		{"10.1.2.3:" + port, ""}, // an IP this server was not reached on
	} {
		hdr := auth.Clone()
		if tc.origin != "" {
			hdr.Set("Origin", tc.origin)
		}
		for _, path := range []string{"/api/x", SignInPath + "?token=s3cret"} {
			resp := send(t, srv, http.MethodGet, path, tc.host, hdr)
			assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s %s", tc.host, path)
			assert.Empty(t, resp.Cookies(), "no cookie for a foreign host")
		}
		assert.Equal(t, http.StatusForbidden, send(t, srv, http.MethodPut, "/api/x", tc.host, hdr).StatusCode, tc.host)
	}
	assert.Zero(t, h.n.Load(), "the handler never ran")

	// The names this server serves: the loopback names (it listens on
	// loopback), the address it was reached on, and the configured name.
	for _, host := range []string{
		"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST", "localhost.", "127.0.0.1",
		"[::1]:" + port, "127.0.0.2:" + port, "kandev.example.com", "KANDEV.example.com:443",
	} {
		assert.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/api/x", host, auth).StatusCode, host)
	}
}

// Off loopback only the configured names and the address the request
// arrived on are served; "localhost" is not.
func TestHostOffLoopback(t *testing.T) {
	t.Parallel()
	g := Guard(Config{Hosts: []string{"lan.example"}}, &served{})
	for host, want := range map[string]int{
		"192.0.2.10:8080":   http.StatusOK,
		"lan.example:8080":  http.StatusOK,
		"localhost:8080":    http.StatusForbidden,
		"127.0.0.1:8080":    http.StatusForbidden,
		"192.0.2.11:8080":   http.StatusForbidden,
		"":                  http.StatusForbidden,
		"evil.example:8080": http.StatusForbidden,
	} {
		r := httptest.NewRequest(http.MethodGet, "/x", nil)
		r.Host = host
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey,
			&net.TCPAddr{IP: net.ParseIP("192.0.2.10"), Port: 8080}))
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		assert.Equal(t, want, w.Code, "Host %q", host)
	}
}

func TestOriginRule(t *testing.T) {
	t.Parallel()
	h := &served{}
	srv := httptest.NewServer(Guard(Config{OriginPatterns: []string{"app.example.com", "https://*.kandev.dev"}}, h))
	defer srv.Close()
	for origin, want := range map[string]int{
		"":                                 http.StatusOK,
		srv.URL:                            http.StatusOK,
		"https://app.example.com":          http.StatusOK,
		"http://app.example.com":           http.StatusOK,
		"https://x.kandev.dev":             http.StatusOK,
		"http://x.kandev.dev":              http.StatusForbidden,
		"https://evil.example.net":         http.StatusForbidden,
		"https://app.example.com.evil.net": http.StatusForbidden,
		"null":                             http.StatusForbidden,
	} {
		var hdr http.Header
		if origin != "" {
			hdr = http.Header{"Origin": {origin}}
		}
		for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodPost} {
			assert.Equal(t, want, send(t, srv, method, "/x", "", hdr).StatusCode, "%s from %q", method, origin)
		}
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	h := &served{}
	tok := NewToken("s3cret", "alice", "/")
	srv := httptest.NewServer(Guard(Config{Authenticate: tok.Authenticate, SignIn: tok}, h))
	defer srv.Close()

	for name, hdr := range map[string]http.Header{
		"none":              nil,
		"wrong cookie":      {"Cookie": {tok.CookieName() + "=nope"}},
		"other cookie name": {"Cookie": {"kandev_lsp_token=s3cret"}},
		"wrong bearer":      {"Authorization": {"Bearer nope"}},
		"basic":             {"Authorization": {"Basic s3cret"}},
	} {
		assert.Equal(t, http.StatusUnauthorized, send(t, srv, http.MethodGet, "/x", "", hdr).StatusCode, name)
	}
	assert.Equal(t, http.StatusUnauthorized, send(t, srv, http.MethodGet, "/x?token=s3cret", "", nil).StatusCode,
		"a query token is a credential only on the sign-in route")
	assert.Zero(t, h.n.Load())

	for name, hdr := range map[string]http.Header{
		"cookie":           {"Cookie": {"a=b; " + tok.CookieName() + "=s3cret"}},
		"bearer":           {"Authorization": {"Bearer s3cret"}},
		"bearer lowercase": {"Authorization": {"bearer s3cret"}},
	} {
		require.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/x", "", hdr).StatusCode, name)
		assert.Equal(t, "alice", h.user.Load(), name)
	}
}

// The sign-in URL sets the HttpOnly, SameSite=Strict cookie and redirects;
// a wrong token sets nothing.
func TestSignIn(t *testing.T) {
	t.Parallel()
	tok := NewToken("s3 cret+/", "alice", "/")
	h := &served{}
	srv := httptest.NewServer(Guard(Config{Authenticate: tok.Authenticate, SignIn: tok}, h))
	defer srv.Close()

	u := tok.SignInURL(srv.URL + "/")
	require.True(t, strings.HasPrefix(u, srv.URL+SignInPath+"?token="), u)
	resp, err := client.Get(u)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, "/", resp.Header.Get("Location"))
	assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))
	require.Len(t, resp.Cookies(), 1)
	c := resp.Cookies()[0]
	assert.Equal(t, tok.CookieName(), c.Name)
	assert.Equal(t, "s3 cret+/", c.Value)
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
	assert.Equal(t, "/", c.Path)

	// The cookie from the sign-in is the credential.
	resp = send(t, srv, http.MethodGet, "/x", "", http.Header{"Cookie": {c.Name + "=" + c.Value}})
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	for _, bad := range []string{SignInPath, SignInPath + "?token=nope", SignInPath + "?token="} {
		resp := send(t, srv, http.MethodGet, bad, "", nil)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, bad)
		assert.Empty(t, resp.Cookies(), bad)
	}
	assert.Equal(t, int32(1), h.n.Load(), "only the authenticated request reached the handler")

	// Without a page to go to, the sign-in answers with text.
	plain := NewToken("t", "u", "")
	srv2 := httptest.NewServer(Guard(Config{Authenticate: plain.Authenticate, SignIn: plain}, h))
	defer srv2.Close()
	resp = send(t, srv2, http.MethodGet, SignInPath+"?token=t", "", nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Len(t, resp.Cookies(), 1)
}

// Two secrets, two cookie names: two servers on one host keep theirs.
func TestCookieNamePerSecret(t *testing.T) {
	t.Parallel()
	a, b := NewToken(NewSecret(), "u", ""), NewToken(NewSecret(), "u", "")
	assert.NotEqual(t, a.CookieName(), b.CookieName())
	assert.Equal(t, a.CookieName(), NewToken(string(a.secret), "v", "/").CookieName())
}

// Without a hook every request is Anonymous; a hook that names no user
// is a refusal.
func TestNoAuthentication(t *testing.T) {
	t.Parallel()
	h := &served{}
	srv := httptest.NewServer(Guard(Config{}, h))
	defer srv.Close()
	require.Equal(t, http.StatusOK, send(t, srv, http.MethodGet, "/x", "", nil).StatusCode)
	assert.Equal(t, Anonymous, h.user.Load())

	srv2 := httptest.NewServer(Guard(Config{Authenticate: func(*http.Request) (string, error) { return "", nil }}, h))
	defer srv2.Close()
	assert.Equal(t, http.StatusUnauthorized, send(t, srv2, http.MethodGet, "/x", "", nil).StatusCode)
}

func TestSplitList(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"a.example", "*.b.example"}, SplitList(" a.example,, *.b.example ,"))
	assert.Empty(t, SplitList(" , "))
}

func TestCheckOriginPatterns(t *testing.T) {
	t.Parallel()
	require.NoError(t, CheckOriginPatterns(nil))
	require.NoError(t, CheckOriginPatterns([]string{"app.example.com", "*.kandev.dev", "https://app.example.com:8443", "localhost:*", "*.com"}))
	for _, bad := range []string{
		"*", "*.*", "**", "?*", "https://*", "HTTP://*", "*://*", "http*://*.*", "*:*", "https://*:*",
		"[a-z]*", "https://[a-z]*.*", "[", "https://x[",
	} {
		err := CheckOriginPatterns([]string{"ok.example", bad})
		assert.ErrorIs(t, err, ErrOriginPattern, bad)
	}
	assert.Panics(t, func() { Guard(Config{OriginPatterns: []string{"https://*"}}, &served{}) })
}

// An Origin of the right host but another scheme is another origin: a page
// served over https on the same name is not the http server's own page.
// Behind a TLS-terminating proxy the browser's scheme comes from
// X-Forwarded-Proto.
func TestOriginScheme(t *testing.T) {
	t.Parallel()
	h := &served{}
	srv := httptest.NewServer(Guard(Config{}, h))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, tc := range []struct {
		name string
		hdr  http.Header
		want int
	}{
		{"http page", http.Header{"Origin": {"http://" + host}}, http.StatusOK},
		{"https page on an http server", http.Header{"Origin": {"https://" + host}}, http.StatusForbidden},
		{"https page through a TLS proxy", http.Header{"Origin": {"https://" + host}, "X-Forwarded-Proto": {"https"}}, http.StatusOK},
		{"http page through a TLS proxy", http.Header{"Origin": {"http://" + host}, "X-Forwarded-Proto": {"https"}}, http.StatusForbidden},
		{"ws scheme", http.Header{"Origin": {"ws://" + host}}, http.StatusForbidden},
	} {
		assert.Equal(t, tc.want, send(t, srv, http.MethodGet, "/x", "", tc.hdr).StatusCode, tc.name)
	}
}

// Requests without an Origin that the browser marks as sent by another
// site's page — an <img> on another localhost port is same-site and
// carries a SameSite=Strict cookie — are refused before the credential is
// read: a GET may start an agent. A navigation is let through only to a
// server that has pages.
func TestFetchSiteRule(t *testing.T) {
	t.Parallel()
	for _, pages := range []bool{false, true} {
		h := &served{}
		srv := httptest.NewServer(Guard(Config{Pages: pages}, h))
		for _, tc := range []struct {
			name, method, site, mode string
			want                     int
		}{
			{"not a browser", http.MethodGet, "", "", http.StatusOK},
			{"own page's fetch", http.MethodGet, "same-origin", "cors", http.StatusOK},
			{"typed or bookmarked", http.MethodGet, "none", "navigate", http.StatusOK},
			{"image on another port", http.MethodGet, "same-site", "no-cors", http.StatusForbidden},
			{"image on another site", http.MethodGet, "cross-site", "no-cors", http.StatusForbidden},
			{"form post from another port", http.MethodPost, "same-site", "navigate", http.StatusForbidden},
			{"link from another site", http.MethodGet, "cross-site", "navigate", map[bool]int{false: http.StatusForbidden, true: http.StatusOK}[pages]},
		} {
			hdr := http.Header{}
			if tc.site != "" {
				hdr.Set("Sec-Fetch-Site", tc.site)
				hdr.Set("Sec-Fetch-Mode", tc.mode)
			}
			assert.Equal(t, tc.want, send(t, srv, tc.method, "/x", "", hdr).StatusCode, "%s (pages %v)", tc.name, pages)
		}
		srv.Close()
	}
}

// A refused request's connection is closed by the server: a peer without a
// credential cannot keep it open (the server would otherwise hold an idle
// keep-alive connection for it).
func TestRefusalClosesTheConnection(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(Guard(Config{Authenticate: NewToken("s3cret", "alice", "/").Authenticate}, &served{}))
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "GET /x HTTP/1.1\r\nHost: "+srv.Listener.Addr().String()+"\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	b, err := io.ReadAll(c) // ends only when the server closes
	require.NoError(t, err, "the server closes the connection after its answer, before the deadline")
	assert.True(t, strings.HasPrefix(string(b), "HTTP/1.1 401 "), string(b))
}
