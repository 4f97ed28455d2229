//go:build linux

package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// holding serves the echo server with holds on, for grace.
func holding(t *testing.T, grace time.Duration, mod ...func(*Config)) *fixture {
	return newFixture(t, "echo $$ > server.pid; exec cat", append([]func(*Config){func(c *Config) { c.ResumeGrace = grace }}, mod...)...)
}

// resumeDial presents token with the count of data frames received.
func resumeDial(t *testing.T, f *fixture, tok string, received uint64) *websocket.Conn {
	t.Helper()
	h := http.Header{}
	h.Set("Authorization", "Bearer "+token)
	u := f.url("go") + "&" + wire.ParamResume + "=" + tok + "&" + wire.ParamReceived + "=" + strconv.FormatUint(received, 10)
	c, _, err := websocket.Dial(testCtx(t), u, &websocket.DialOptions{HTTPHeader: h})
	require.NoError(t, err)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// readData reads the next data frame, skipping the agent's acks; it
// returns the status frame itself when one comes.
func readData(t *testing.T, c *websocket.Conn) string {
	t.Helper()
	for {
		_, b, err := c.Read(testCtx(t))
		require.NoError(t, err)
		if !wire.IsAckFrame(b) {
			return string(b)
		}
	}
}

func msg(i int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","method":"m","params":%d}`, i) }

func send(t *testing.T, c *websocket.Conn, s string) {
	t.Helper()
	require.NoError(t, c.Write(testCtx(t), websocket.MessageText, []byte(s)))
}

func resumed(t *testing.T, c *websocket.Conn) wire.Status {
	t.Helper()
	var st wire.Status
	require.NoError(t, json.Unmarshal([]byte(readData(t, c)), &st))
	require.Equal(t, wire.StatusResumed, st.Status)
	return st
}

// A socket lost with frames in flight both ways: the resume reaches the
// same process, the agent says how many of the browser's frames it took,
// and sends again the answers the browser missed, once each, in order.
func TestResumeReattachesToTheSameServer(t *testing.T) {
	t.Parallel()
	f := holding(t, 20*time.Second)
	c, st := readReady(t, f)
	require.NotEmpty(t, st.Resume, "the ready frame carries a resume token")
	server := pidFrom(t, f, "server.pid")
	for i := 1; i <= 3; i++ {
		send(t, c, msg(i))
		require.Equal(t, msg(i), readData(t, c))
	}
	// Two more go out; their answers are never read on this socket.
	send(t, c, msg(4))
	send(t, c, msg(5))
	waitFor(t, func() bool { return f.h.sessionReceived() == 5 })
	c.CloseNow()

	r := resumeDial(t, f, st.Resume, 3)
	rs := resumed(t, r)
	require.Equal(t, uint64(5), rs.Received, "the agent took all five")
	require.NotEmpty(t, rs.Resume)
	require.NotEqual(t, st.Resume, rs.Resume, "a token is good once")
	require.Equal(t, msg(4), readData(t, r), "missed answers come again, in order")
	require.Equal(t, msg(5), readData(t, r))
	send(t, r, msg(6))
	require.Equal(t, msg(6), readData(t, r), "and the stream goes on")
	require.Equal(t, server, pidFrom(t, f, "server.pid"))
	require.True(t, alive(server), "the same process serves the resumed stream")

	// The used token finds nothing: refused before anything starts.
	requireClose(t, resumeDial(t, f, st.Resume, 6), int(wire.CloseResumeRefused))
	require.True(t, alive(server))
}

// While the old socket still looks open (its loss not noticed yet), a
// resume with its token takes the stream over.
func TestResumeTakesOverASocketNotYetSeenLost(t *testing.T) {
	t.Parallel()
	f := holding(t, 20*time.Second)
	old, st := readReady(t, f)
	send(t, old, msg(1))
	require.Equal(t, msg(1), readData(t, old))
	r := resumeDial(t, f, st.Resume, 1)
	require.Equal(t, uint64(1), resumed(t, r).Received)
	send(t, r, msg(2))
	require.Equal(t, msg(2), readData(t, r))
	_, _, err := old.Read(testCtx(t))
	require.Error(t, err, "the old socket is dropped")
}

// A token nobody holds, one for another server and a count the agent
// cannot follow are all refused with 4009; the last ends the held server,
// whose gap can no longer be filled.
func TestResumeRefusals(t *testing.T) {
	t.Parallel()
	f := holding(t, 20*time.Second)
	requireClose(t, resumeDial(t, f, "0123", 0), int(wire.CloseResumeRefused))

	c, st := readReady(t, f)
	server := pidFrom(t, f, "server.pid")
	send(t, c, msg(1))
	require.Equal(t, msg(1), readData(t, c))
	c.CloseNow()
	requireClose(t, resumeDial(t, f, st.Resume, 7), int(wire.CloseResumeRefused))
	waitFor(t, func() bool { return !alive(server) })
	requireClose(t, resumeDial(t, f, st.Resume, 1), int(wire.CloseResumeRefused))

	h := http.Header{}
	h.Set("Authorization", "Bearer "+token)
	_, resp, err := websocket.Dial(testCtx(t), f.url("go")+"&"+wire.ParamResume+"=x&"+wire.ParamReceived+"=-1",
		&websocket.DialOptions{HTTPHeader: h})
	require.Error(t, err)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode, "a count that is not one")
}

// A socket closed on purpose (the browser's Stop, a closed tab) stops the
// server at once, held or not; a lost one is held until the grace ends,
// then stopped, and its token is gone.
func TestHoldEndsWithCloseOrGrace(t *testing.T) {
	t.Parallel()
	f := holding(t, 20*time.Second)
	c, st := readReady(t, f)
	server := pidFrom(t, f, "server.pid")
	require.NoError(t, c.Close(websocket.StatusGoingAway, ""))
	waitFor(t, func() bool { return !alive(server) })
	requireClose(t, resumeDial(t, f, st.Resume, 0), int(wire.CloseResumeRefused))

	g := holding(t, 300*time.Millisecond)
	c, st = readReady(t, g)
	server = pidFrom(t, g, "server.pid")
	c.CloseNow()
	waitFor(t, func() bool { return !alive(server) })
	requireClose(t, resumeDial(t, g, st.Resume, 0), int(wire.CloseResumeRefused))
}

// A held server counts against the cap, and task stop stops it.
func TestHeldServerCountsAndStopsWithTheTask(t *testing.T) {
	t.Parallel()
	f := holding(t, time.Minute, func(c *Config) { c.MaxConnections = 1 })
	c, _ := readReady(t, f)
	server := pidFrom(t, f, "server.pid")
	c.CloseNow()
	waitFor(t, func() bool { return f.h.held() == 1 })
	d, _, err := dial(t, f, "go", token)
	require.NoError(t, err)
	requireClose(t, d, int(wire.CloseCapacity))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, f.h.Shutdown(ctx))
	require.False(t, alive(server), "Shutdown returns after the held server is reaped")
}

// With holds off (grace 0 on the command line), the ready frame offers
// no token and a lost socket stops its server at once.
func TestNoHoldsNoToken(t *testing.T) {
	t.Parallel()
	f := holding(t, -1)
	c, st := readReady(t, f)
	require.Empty(t, st.Resume)
	server := pidFrom(t, f, "server.pid")
	c.CloseNow()
	waitFor(t, func() bool { return !alive(server) })
}

// Acks: the agent acknowledges every AckEvery data frames unasked and
// with each heartbeat's answer; the browser's acks free what the agent
// keeps.
func TestAcksBothWays(t *testing.T) {
	t.Parallel()
	f := holding(t, 20*time.Second)
	c, _ := readReady(t, f)
	ctx := testCtx(t)
	acks := []uint64{}
	for i := 1; i <= wire.AckEvery; i++ {
		send(t, c, msg(i))
	}
	for got := 0; got < wire.AckEvery; {
		_, b, err := c.Read(ctx)
		require.NoError(t, err)
		if n, ok := wire.AckNumber(b); ok {
			acks = append(acks, n)
			continue
		}
		got++
	}
	// The unasked ack is written when the 64th frame arrives, the echoes
	// by another goroutine as the server answers: it may come after the
	// last echo, so acks are collected up to the heartbeat's answer too.
	send(t, c, string(wire.AppendHeartbeat(nil, 1)))
	for {
		_, b, err := c.Read(ctx)
		require.NoError(t, err)
		if n, ok := wire.AckNumber(b); ok {
			acks = append(acks, n)
			continue
		}
		require.Equal(t, `{"heartbeat":1}`, string(b))
		break
	}
	_, b, err := c.Read(ctx)
	require.NoError(t, err)
	n, ok := wire.AckNumber(b)
	require.True(t, ok, "a heartbeat's answer is followed by an ack, got %s", b)
	require.Equal(t, uint64(wire.AckEvery), n)
	require.Contains(t, acks, uint64(wire.AckEvery), "acknowledged unasked after AckEvery frames")

	require.Equal(t, uint64(wire.AckEvery), f.h.kept())
	send(t, c, string(wire.AppendAck(nil, wire.AckEvery)))
	waitFor(t, func() bool { return f.h.kept() == 0 })
}

// sessionReceived is the data frames the one stream has taken.
func (h *Handler) sessionReceived() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var n uint64
	for s := range h.sessions {
		n += s.received.Load()
	}
	return n
}

// held counts the streams with no socket: their servers held.
func (h *Handler) held() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for s := range h.sessions {
		if s.out != nil && s.socket() == nil {
			n++
		}
	}
	return n
}

// kept counts the data frames kept for a replay.
func (h *Handler) kept() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var n uint64
	for s := range h.sessions {
		s.outMu.Lock()
		if s.out != nil {
			n += uint64(s.out.Kept())
		}
		s.outMu.Unlock()
	}
	return n
}
