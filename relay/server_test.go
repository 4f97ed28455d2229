package relay

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/settings"
)

// queryAsked opens a stream through the relay and returns the query the
// agent was dialled with.
func queryAsked(t *testing.T, a *fakeAgent, u string) url.Values {
	t.Helper()
	b, _, err := dialBrowser(testCtx(t), u, nil)
	require.NoError(t, err)
	_, _, err = b.Read(testCtx(t))
	require.NoError(t, err)
	ac := a.next(t)
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	ac.ended(t)
	return ac.query
}

// The browser names a server by catalog id and the relay passes it on;
// without one the user's lsp_language_servers choice is asked for, and
// without that nothing (the task host's default). The browser's own
// choice wins over the setting.
func TestServerParamPassedOn(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	store := settings.NewMemory()
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Settings: store})
	server := func(q url.Values) []string { return q[wire.ParamServer] }

	assert.Nil(t, server(queryAsked(t, a, streamURL(srv, "pc", "typescript"))), "no choice: the default")
	assert.Equal(t, []string{"tsgo"}, server(queryAsked(t, a, streamURL(srv, "pc", "typescript")+"&server=tsgo")))
	assert.Equal(t, []string{"ruff"}, server(queryAsked(t, a, streamURL(srv, "pc", "python")+"&server=ruff")),
		"an id the built-in catalog does not know may be the task host operator's")

	choice := map[string][]string{"typescript": {"tsgo"}, "python": {"basedpyright"}}
	_, err := store.Update(context.Background(), settings.LocalUser, settings.Patch{LanguageServers: &choice})
	require.NoError(t, err)
	assert.Equal(t, []string{"tsgo"}, server(queryAsked(t, a, streamURL(srv, "pc", "typescript"))), "the user's choice")
	assert.Equal(t, []string{"basedpyright"}, server(queryAsked(t, a, streamURL(srv, "pc", "python"))))
	assert.Nil(t, server(queryAsked(t, a, streamURL(srv, "pc", "go"))))
	assert.Equal(t, []string{"typescript-language-server"},
		server(queryAsked(t, a, streamURL(srv, "pc", "typescript")+"&server=typescript-language-server")), "the browser's choice wins")
	waitIdle(t, rl)
}

// A server parameter that is no catalog id (a path, a command line), one
// given twice, or a built-in server of other languages is refused with
// HTTP 400 before the upgrade — like an unknown language — and no agent
// is dialled, started or resumed.
func TestServerParamRefused(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st := &countingStarter{start: startsFake(a)}
	srv, _ := newRelay(t, Config{Sessions: testSessions(a), Starter: st})
	for _, q := range []string{
		"&server=..%2F..%2Fbin%2Fsh", "&server=%2Fusr%2Fbin%2Fgopls", "&server=gopls%20-rpc.trace", "&server=..",
		"&server=C:%5Cgopls.exe", "&server=Gopls", "&server=gopls&server=gopls", "&server=pyright",
	} {
		for _, session := range []string{"pc", "restore"} {
			_, resp, err := dialBrowser(testCtx(t), streamURL(srv, session, "go")+q, nil)
			require.Error(t, err, q)
			require.NotNil(t, resp, q)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode, q)
		}
	}
	assert.Zero(t, a.requests.Load(), "no agent dialled")
	assert.Zero(t, st.n.Load(), "no agent started")
}
