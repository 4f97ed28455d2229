//go:build unix

package relay

import (
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/promtext"
	"github.com/kandev/lsp/internal/wire"
)

// kandev_relay_agents_running counts the agent processes the relay started
// that are alive: 0 before any stream, 1 while a started agent serves a
// browser (and after the browser left, until task stop), 0 again once task
// stop has ended the agent; 1 when the next stream starts a new one, and 0
// again once that agent dies on its own.
func TestAgentsRunningFollowsStartedAgents(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "exec cat\n")
	running := func() float64 {
		t.Helper()
		resp, err := testClient.Get(r.srv + MetricsPath)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		m, err := promtext.Parse(resp.Body)
		require.NoError(t, err)
		v, ok := m["kandev_relay_agents_running"]
		require.True(t, ok, "kandev_relay_agents_running is exported")
		return v
	}
	require.Zero(t, running(), "nothing started yet")

	b := r.open(t)
	echo(t, b, 1)
	agent := r.owned(t, "s")
	require.Equal(t, 1.0, running(), "the agent started for the stream")
	b.CloseNow()
	waitIdle(t, r.rl)
	require.Equal(t, 1.0, running(), "the agent outlives the browser until task stop")

	status, res := postStop(t, r.srv, "s")
	require.Equal(t, http.StatusOK, status)
	require.True(t, res.Stopped)
	<-agent.Done
	require.Eventually(t, func() bool { return running() == 0 }, 10*time.Second, 10*time.Millisecond, "down after the stop")

	b2 := r.open(t)
	echo(t, b2, 2)
	agent = r.owned(t, "s")
	require.Equal(t, 1.0, running(), "the next stream's new agent")

	// An agent that dies on its own is no longer counted either.
	require.NoError(t, syscall.Kill(agent.PID, syscall.SIGKILL))
	requireClose(t, b2, wire.CloseUnavailable)
	<-agent.Done
	require.Eventually(t, func() bool { return running() == 0 }, 10*time.Second, 10*time.Millisecond, "down after the agent died")
	waitIdle(t, r.rl)
}
