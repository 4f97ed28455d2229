package relay

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

func postStop(t *testing.T, srvURL, id string) (int, stopResult) {
	t.Helper()
	resp, err := testClient.Post(srvURL+"/api/v1/sessions/"+id+"/stop", "", nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	var res stopResult
	if resp.StatusCode == http.StatusOK {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&res))
	}
	return resp.StatusCode, res
}

// An agent the relay did not start is stopped through its own route with
// its bearer token; browsers still connected see its 1001.
func TestStopCallsAgentRoute(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st := &countingStarter{start: startsFake(a)}
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Starter: st})

	for _, id := range []string{"pc", "docker"} {
		b, code := connect(t, srv.URL, id)
		require.Zero(t, code)
		ac := a.next(t)
		status, res := postStop(t, srv.URL, id)
		assert.Equal(t, http.StatusOK, status, id)
		assert.True(t, res.Stopped, id)
		requireClose(t, b, wire.CloseGoingAway)
		ac.ended(t)
	}
	assert.Equal(t, int32(2), a.stopCalls.Load())
	assert.Equal(t, int32(1), st.n.Load(), "stop resumes nothing (the one resume is the docker stream's)")
	waitIdle(t, rl)
}

func TestStopEdgeCases(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	a.noStopRoute = true
	st := &countingStarter{}
	srv, _ := newRelay(t, Config{Sessions: testSessions(a,
		Session{ID: "down", Executor: ExecutorLocalPC, Agent: AgentRef{URL: "http://127.0.0.1:1", Token: "t"}}),
		Starter: st})

	status, res := postStop(t, srv.URL, "pc")
	assert.Equal(t, http.StatusOK, status, "an agent without the route is not an error")
	assert.False(t, res.Stopped)

	status, res = postStop(t, srv.URL, "restore")
	assert.Equal(t, http.StatusOK, status, "nothing running")
	assert.False(t, res.Stopped)

	status, _ = postStop(t, srv.URL, "nope")
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = postStop(t, srv.URL, "ssh")
	assert.Equal(t, http.StatusConflict, status)
	status, _ = postStop(t, srv.URL, "down")
	assert.Equal(t, http.StatusBadGateway, status)

	assert.Zero(t, st.n.Load(), "a stop never starts anything")
	assert.Zero(t, a.stopCalls.Load())

	// GET is not a stop.
	resp, err := testClient.Get(srv.URL + "/api/v1/sessions/pc/stop")
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}
