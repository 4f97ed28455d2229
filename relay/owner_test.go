package relay

import (
	"errors"
	"net/http"
	"sync"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// twoUsers is an embedder's authentication with two signed-in users.
func twoUsers(r *http.Request) (string, error) {
	switch r.Header.Get("Authorization") {
	case "Bearer alice-token":
		return "alice", nil
	case "Bearer bob-token":
		return "bob", nil
	}
	return "", errors.New("who are you")
}

func as(who string) http.Header {
	return http.Header{"Authorization": {"Bearer " + who + "-token"}}
}

// A session with an owner is that user's alone: another signed-in user can
// neither stream from it, read its installers nor stop it, and each
// refusal is the answer an unknown session gets, so bob cannot even tell
// that alice's session exists. Nothing is started, dialled or stopped for
// him; alice, afterwards, uses her session as usual.
func TestSessionsBelongToTheirOwner(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	a.installers = []byte(`{"goos":"linux","goarch":"amd64","languages":[]}`)
	st := &countingStarter{start: startsFake(a)}
	alices := a.session("s-alice")
	alices.Owner = "alice"
	restore := Session{ID: "s-alice-restore", Executor: ExecutorLocalPC, Workspace: a.workspace, Owner: "alice"}
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(alices, restore), Starter: st, Authenticate: twoUsers})

	for _, id := range []string{"s-alice", "s-alice-restore"} {
		b, _, err := dialBrowser(testCtx(t), streamURL(srv, id, "python"), as("bob"))
		require.NoError(t, err, "the upgrade itself is not where the session is checked")
		_, _, err = b.Read(testCtx(t))
		var ce websocket.CloseError
		require.ErrorAs(t, err, &ce, id)
		assert.Equal(t, websocket.StatusCode(wire.CloseUnavailable), ce.Code, "bob's stream of %s closes like an unknown session's", id)

		status, _, body := getInstallers(t, srv.URL, id, as("bob"))
		_, _, unknownBody := getInstallers(t, srv.URL, "no-such-session", as("bob"))
		assert.Equal(t, http.StatusNotFound, status, "bob reads no installers of %s", id)
		assert.Equal(t, string(unknownBody), string(body), "the same answer as an unknown session")

		assert.Equal(t, http.StatusNotFound, postStopWith(t, srv.URL, id, as("bob")), "bob cannot stop %s", id)
	}
	assert.Zero(t, st.n.Load(), "nothing started or resumed for bob")
	assert.Zero(t, a.requests.Load(), "no stream reached the agent for bob")
	assert.Zero(t, a.installerCalls.Load(), "no installers request reached the agent for bob")
	assert.Zero(t, a.stopCalls.Load(), "no stop reached the agent for bob")

	// Alice's own session works on every route.
	status, _, _ := getInstallers(t, srv.URL, "s-alice", as("alice"))
	assert.Equal(t, http.StatusOK, status)
	b, _, err := dialBrowser(testCtx(t), streamURL(srv, "s-alice", "go"), as("alice"))
	require.NoError(t, err)
	_, _, err = b.Read(testCtx(t))
	require.NoError(t, err, "alice's stream opens")
	ac := a.next(t)
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	ac.ended(t)
	assert.Equal(t, http.StatusOK, postStopWith(t, srv.URL, "s-alice", as("alice")))
	assert.EqualValues(t, 1, a.stopCalls.Load())
	waitIdle(t, rl)
}

// Config.Authorize replaces the owner check: it sees the user and the
// session the lookup found, for every session route.
func TestAuthorizeHook(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	a.installers = []byte(`{"goos":"linux","goarch":"amd64","languages":[]}`)
	shared := a.session("team")
	shared.Owner = "alice" // the hook, not the owner, decides
	var (
		mu    sync.Mutex
		asked []string
	)
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(shared), Authenticate: twoUsers,
		Authorize: func(r *http.Request, user string, s Session) bool {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, r.Method+" "+user+" "+s.ID)
			return user == "bob"
		}})

	status, _, _ := getInstallers(t, srv.URL, "team", as("bob"))
	assert.Equal(t, http.StatusOK, status, "the hook lets bob in although alice owns it")
	status, _, _ = getInstallers(t, srv.URL, "team", as("alice"))
	assert.Equal(t, http.StatusNotFound, status, "and keeps alice out")
	mu.Lock()
	assert.Equal(t, []string{"GET bob team", "GET alice team"}, asked)
	mu.Unlock()
	waitIdle(t, rl)
}

// Without an owner a session is every admitted user's: kandev-relay's
// sessions file and its one browser credential keep working as before.
func TestSessionWithoutOwner(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	a.installers = []byte(`{"goos":"linux","goarch":"amd64","languages":[]}`)
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(a.session("pc")), Authenticate: twoUsers})
	for _, who := range []string{"alice", "bob"} {
		status, _, _ := getInstallers(t, srv.URL, "pc", as(who))
		assert.Equal(t, http.StatusOK, status, who)
	}
	waitIdle(t, rl)
}

func TestLoadSessionsOwner(t *testing.T) {
	t.Parallel()
	s, err := LoadSessions(writeFile(t, `{"sessions":[{"id":"a","executor":"local_pc","owner":"alice"}]}`))
	require.NoError(t, err)
	got, ok := s.Lookup("a")
	require.True(t, ok)
	assert.Equal(t, "alice", got.Owner)
}

// With a per-user share one user's tabs cannot take every slot: alice's
// second stream closes 4005 while bob's first still opens, under a global
// cap alice alone could otherwise have filled.
func TestUserShareOfTheCap(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(a.session("pc")), Authenticate: twoUsers,
		MaxConnections: 2, MaxConnectionsPerUser: 1})
	open := func(who string) (*websocket.Conn, wire.CloseCode) {
		b, _, err := dialBrowser(testCtx(t), streamURL(srv, "pc", "go"), as(who))
		require.NoError(t, err)
		t.Cleanup(func() { _ = b.CloseNow() })
		if _, _, err = b.Read(testCtx(t)); err == nil {
			return b, 0
		}
		var ce websocket.CloseError
		require.ErrorAs(t, err, &ce)
		return b, wire.CloseCode(ce.Code)
	}
	first, code := open("alice")
	require.Zero(t, code)
	ac := a.next(t)
	_, code = open("alice")
	assert.Equal(t, wire.CloseCapacity, code, "alice's second stream is over her share")
	bob, code := open("bob")
	require.Zero(t, code, "bob is not locked out")
	bc := a.next(t)
	require.NoError(t, first.Close(websocket.StatusNormalClosure, ""))
	ac.ended(t)
	require.NoError(t, bob.Close(websocket.StatusNormalClosure, ""))
	bc.ended(t)
	waitIdle(t, rl)
}
