package relay

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/settings"
)

// A page on the attacker's domain, rebound to the relay's loopback address,
// sends requests from the user's own browser whose Host is the attacker's
// name — with a matching Origin (fetch, WebSocket) or none (a form POST
// after a redirect, a plain navigation). With authentication off, as in
// kandev-relay -insecure-no-browser-auth, the Host check is the only thing
// in the way: the settings API, the stream and task stop all refuse, and
// nothing is read, stored, started, dialled or stopped.
func TestRebindingRefused(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st := &countingStarter{start: startsFake(a)}
	store := settings.NewMemory()
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Starter: st, Settings: store,
		Hosts: []string{"kandev.example.com"}})
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	require.NoError(t, err)
	foreign := "rebind.attacker.example:" + port

	for name, origin := range map[string]string{
		"matching Origin": "http://" + foreign,
		"no Origin":       "",
	} {
		hdr := http.Header{}
		if origin != "" {
			hdr.Set("Origin", origin)
		}
		send := func(method, path, body string) int {
			t.Helper()
			req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
			require.NoError(t, err)
			req.Header = hdr.Clone()
			req.Host = foreign
			resp, err := testClient.Do(req)
			require.NoError(t, err)
			_ = resp.Body.Close()
			return resp.StatusCode
		}
		assert.Equal(t, http.StatusForbidden, send(http.MethodGet, wire.RelaySettingsPath, ""), name)
		assert.Equal(t, http.StatusForbidden,
			send(http.MethodPut, wire.RelaySettingsPath, `{"lsp_auto_install_languages":["go","typescript","python","rust"]}`), name)
		assert.Equal(t, http.StatusForbidden, send(http.MethodPost, "/api/v1/sessions/pc/stop", ""), name)
		assert.Equal(t, http.StatusForbidden, send(http.MethodPost, "/api/v1/sessions/restore/stop", ""), name)
		assert.Equal(t, http.StatusForbidden, send(http.MethodGet, wire.RelayRuntimePath, ""), name)

		for _, id := range []string{"pc", "restore", "docker"} {
			_, resp, err := dialBrowserHost(testCtx(t), streamURL(srv, id, "go"), hdr, foreign)
			require.Error(t, err, "%s: stream %s", name, id)
			require.NotNil(t, resp)
			assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s: stream %s", name, id)
		}
	}
	stored, err := store.Load(context.Background(), settings.LocalUser)
	require.NoError(t, err)
	assert.Equal(t, settings.Default(), stored, "nothing stored")
	assert.Zero(t, st.n.Load(), "nothing started or resumed")
	assert.Zero(t, a.requests.Load(), "nothing dialled")
	assert.Zero(t, a.stopCalls.Load(), "nothing stopped")

	// The relay's own names are served: the address it listens on, the
	// loopback names, and the configured one.
	for _, host := range []string{srv.Listener.Addr().String(), "localhost:" + port, "kandev.example.com"} {
		b, _, err := dialBrowserHost(testCtx(t), streamURL(srv, "pc", "go"), nil, host)
		require.NoError(t, err, host)
		_, _, err = b.Read(testCtx(t))
		require.NoError(t, err, host)
		require.NoError(t, b.Close(1000, ""))
		a.next(t).ended(t)
	}
	waitIdle(t, rl)
}
