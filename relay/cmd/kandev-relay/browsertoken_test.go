package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kandev/lsp/internal/wire"
)

// -browser-token gates every route like KANDEV_RELAY_BROWSER_TOKEN: a
// request with the token as a bearer passes, one without it or with another
// token is refused; the flag wins over the variable; no sign-in URL is
// printed and the token appears neither on stdout nor in the log.
func TestBrowserTokenFlag(t *testing.T) {
	const tok = "flag-secret-7f3a"
	r := start(t, filepath.Join(t.TempDir(), "settings.db"), []string{envBrowserToken + "=env-secret"}, "-browser-token", tok)
	status, _ := req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", nil)
	assert.Equal(t, http.StatusUnauthorized, status, "no token")
	status, _ = req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", bearer("env-secret"))
	assert.Equal(t, http.StatusUnauthorized, status, "the flag wins over the variable")
	status, _ = req(t, http.MethodGet, r.base+"/metrics", "", nil)
	assert.Equal(t, http.StatusUnauthorized, status, "/metrics without the token")
	status, _ = req(t, http.MethodPut, r.base+wire.RelaySettingsPath, `{"lsp_auto_start_languages":["go"]}`, bearer(tok))
	assert.Equal(t, http.StatusOK, status, "the flag's token as a bearer")
	status, body := req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", bearer(tok))
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"lsp_auto_start_languages":["go"]`)
	r.stop()
	for l := range r.lines {
		assert.NotContains(t, l, tok, "a given token is not printed")
		assert.NotContains(t, l, "sign in at", "a given token needs no printed sign-in URL")
	}
	assert.NotContains(t, r.log.String(), tok, "the token is not logged")

	err := run(context.Background(), []string{"-sessions", "x.json", "-browser-token", tok, "-insecure-no-browser-auth"},
		nil, io.Discard, io.Discard)
	assert.ErrorContains(t, err, "exclude each other")
}
