package access

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// ErrNoCredential is Token.Authenticate's error for a request without the
// token (or with another one).
var ErrNoCredential = errors.New("access: no valid browser credential")

// Token is a browser credential: one secret, one user. A request carries it
// as the cookie CookieName (browsers) or as "Authorization: Bearer SECRET"
// (programs); a browser gets the cookie by opening SignInURL once.
//
// A cookie, because a browser cannot set headers on a WebSocket: the
// alternatives put the secret where it leaks — a ?token= query on every
// request lands in access logs, proxies, history and Referer headers, and a
// token smuggled in Sec-WebSocket-Protocol must be readable by page scripts.
// An HttpOnly, SameSite=Strict cookie is invisible to scripts, is never sent
// by another site's page, and rides on WebSocket upgrades and fetch() alike
// (cookies ignore ports, so a relay on another port of the same host
// receives it). Only the one sign-in URL carries the secret in a query, and
// its answer takes the browser elsewhere at once.
type Token struct {
	secret []byte
	user   string
	cookie string
	// after is where a successful sign-in sends the browser; "" answers
	// with a short text page.
	after string
}

// NewToken returns the credential for secret; requests that carry it act
// for user. after is where the sign-in route sends the browser on success
// (a path on this server such as "/"); "" shows a short page instead.
func NewToken(secret, user, after string) *Token {
	// One cookie name per secret: two servers on one host (cookies ignore
	// ports) then keep their own cookies instead of overwriting each
	// other's. The name shows 32 bits of the secret's SHA-256.
	sum := sha256.Sum256([]byte(secret))
	return &Token{
		secret: []byte(secret),
		user:   user,
		cookie: "kandev_lsp_" + hex.EncodeToString(sum[:4]),
		after:  after,
	}
}

// NewSecret returns a fresh random secret (crypto/rand, 130 bits).
func NewSecret() string { return rand.Text() }

// CookieName is the name of the cookie that carries the secret.
func (t *Token) CookieName() string { return t.cookie }

// SignInURL is the URL to open once in a browser: base (the server's
// http://host:port) with SignInPath and the secret.
func (t *Token) SignInURL(base string) string {
	return strings.TrimSuffix(base, "/") + SignInPath + "?token=" + url.QueryEscape(string(t.secret))
}

// Authenticate implements Config.Authenticate: the cookie or the bearer
// token, compared in constant time. A ?token= query is not a credential
// anywhere but on the sign-in route.
func (t *Token) Authenticate(r *http.Request) (string, error) {
	for _, c := range r.CookiesNamed(t.cookie) {
		if t.matches(c.Value) {
			return t.user, nil
		}
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && strings.EqualFold(scheme, "Bearer") && t.matches(strings.TrimSpace(tok)) {
		return t.user, nil
	}
	return "", ErrNoCredential
}

func (t *Token) matches(s string) bool {
	return subtle.ConstantTimeCompare([]byte(s), t.secret) == 1
}

// ServeHTTP is the sign-in route (Config.SignIn): GET SignInPath?token=SECRET
// sets the cookie and redirects to the page (303), or answers 401.
func (t *Token) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	// The sign-in URL holds the secret: it must not travel on as a Referer.
	h.Set("Referrer-Policy", "no-referrer")
	if !t.matches(r.URL.Query().Get("token")) {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, "This sign-in link is not valid: open the URL the server printed at start-up.\n")
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     t.cookie,
		Value:    string(t.secret),
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   r.TLS != nil,
	})
	if t.after != "" {
		http.Redirect(w, r, t.after, http.StatusSeeOther)
		return
	}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, "Signed in: this browser may now use the server.\n")
}
