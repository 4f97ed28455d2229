// Package auth checks the agent's bearer token. Every agent route is called
// by the relay (or a trusted local tool) with the token the task host was
// started with; nothing on the agent is public.
package auth

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// Valid reports whether r carries "Authorization: Bearer <token>". The
// comparison takes the same time wherever the tokens differ, so response
// timing reveals nothing about the token. An empty configured token accepts
// nothing: a misconfigured agent fails closed.
func Valid(r *http.Request, token string) bool {
	if token == "" {
		return false
	}
	scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	// The scheme is case-insensitive (RFC 9110 §11.1).
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// Require wraps next so that requests without the token get HTTP 401 and
// never reach it.
func Require(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !Valid(r, token) {
			Deny(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Deny writes the 401 response, with the challenge RFC 6750 asks for,
// and "Connection: close", on which net/http closes the connection once
// the answer is written: a peer without the token keeps no connection open
// on the agent to retry on or to sit on.
func Deny(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	w.Header().Set("Connection", "close")
	http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
}
