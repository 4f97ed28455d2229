package jsonrpc_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/transport"
	"github.com/stretchr/testify/require"
)

// peer is the test's side of the pipe, speaking raw JSON.
type peer struct {
	t   *testing.T
	end transport.PipeEnd
}

func newPair(t *testing.T, h jsonrpc.Handler) (*jsonrpc.Conn, *peer) {
	t.Helper()
	local, remote := transport.Pipe()
	conn := jsonrpc.NewConn(local, h)
	t.Cleanup(func() {
		_ = conn.Close()
		<-conn.Done()
	})
	return conn, &peer{t: t, end: remote}
}

type wireMsg struct {
	ID     json.RawMessage  `json:"id"`
	Method string           `json:"method"`
	Params json.RawMessage  `json:"params"`
	Result *json.RawMessage `json:"result"`
	Error  *jsonrpc.Error   `json:"error"`
	raw    string
}

func (p *peer) recv() wireMsg {
	p.t.Helper()
	ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
	defer cancel()
	data, err := p.end.Read(ctx)
	require.NoError(p.t, err)
	var m wireMsg
	require.NoError(p.t, json.Unmarshal(data, &m), string(data))
	m.raw = string(data)
	return m
}

func (p *peer) send(format string, args ...any) {
	p.t.Helper()
	require.NoError(p.t, p.end.Write(ctxlite.Background(), fmt.Appendf(nil, format, args...)))
}

func TestCallOutOfOrderResponses(t *testing.T) {
	t.Parallel()
	conn, p := newPair(t, nil)

	type res struct {
		v   string
		err error
	}
	results := make([]chan res, 2)
	for i := range results {
		results[i] = make(chan res, 1)
		method := fmt.Sprintf("m%d", i)
		go func() {
			var raw jsonlite.Raw
			err := conn.Call(ctxlite.Background(), method, jsonlite.Raw(`{"n":1}`), &raw)
			var v string
			if err == nil {
				err = json.Unmarshal(raw, &v)
			}
			results[i] <- res{v, err}
		}()
	}
	reqs := map[string]json.RawMessage{}
	for range 2 {
		m := p.recv()
		reqs[m.Method] = m.ID
	}
	// Answer the second call first.
	p.send(`{"jsonrpc":"2.0","id":%s,"result":"second"}`, reqs["m1"])
	require.Equal(t, res{v: "second"}, <-results[1])
	p.send(`{"jsonrpc":"2.0","id":%s,"result":"first"}`, reqs["m0"])
	require.Equal(t, res{v: "first"}, <-results[0])
}

func TestCallErrorResponse(t *testing.T) {
	t.Parallel()
	conn, p := newPair(t, nil)
	errc := make(chan error, 1)
	go func() { errc <- conn.Call(ctxlite.Background(), "bad", nil, nil) }()
	m := p.recv()
	require.Equal(t, "bad", m.Method)
	require.Nil(t, m.Params, "nil params are omitted")
	p.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"no such thing"}}`, m.ID)
	err := <-errc
	require.ErrorIs(t, err, jsonrpc.ErrInvalidParams)
	var e *jsonrpc.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, "no such thing", e.Message)
}

func TestNotificationsInOrder(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	all := make(chan struct{})
	conn, p := newPair(t, jsonrpc.HandlerFunc(func(_ ctxlite.Context, r *jsonrpc.Request) (jsonlite.Appender, error) {
		require.True(t, r.IsNotification())
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Method+string(r.Params))
		if len(got) == 3 {
			close(all)
		}
		return nil, nil
	}))
	for i := range 3 {
		p.send(`{"jsonrpc":"2.0","method":"n","params":[%d]}`, i)
	}
	<-all
	mu.Lock()
	require.Equal(t, []string{"n[0]", "n[1]", "n[2]"}, got)
	mu.Unlock()

	require.NoError(t, conn.Notify(ctxlite.Background(), "out", jsonlite.Raw(`{"x":true}`)))
	m := p.recv()
	require.Equal(t, "out", m.Method)
	require.Nil(t, m.ID)
	require.JSONEq(t, `{"x":true}`, string(m.Params))
}

// A request whose answer waits (Later) stops neither the reader nor the
// messages after it: responses to our own calls keep arriving, and a later
// request is answered first.
func TestLaterAnswerBlocksNothing(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{})
	noted := make(chan struct{})
	conn, p := newPair(t, jsonrpc.HandlerFunc(func(ctx ctxlite.Context, r *jsonrpc.Request) (jsonlite.Appender, error) {
		switch r.Method {
		case "slow":
			return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
				close(entered)
				select {
				case <-release:
				case <-ctx.Done():
				}
				return jsonlite.Raw(`[null]`), nil
			}), nil
		case "note":
			close(noted)
			return jsonrpc.Later(func(ctxlite.Context) (jsonlite.Appender, error) {
				panic("a notification's Later must not run")
			}), nil
		}
		return nil, jsonrpc.ErrMethodNotFound
	}))
	p.send(`{"jsonrpc":"2.0","id":"srv-1","method":"slow"}`)
	p.send(`{"jsonrpc":"2.0","method":"note"}`)
	<-entered
	<-noted

	done := make(chan error, 1)
	go func() { done <- conn.Call(ctxlite.Background(), "ping", nil, nil) }()
	m := p.recv()
	require.Equal(t, "ping", m.Method)
	p.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID)
	require.NoError(t, <-done)

	p.send(`{"jsonrpc":"2.0","id":7,"method":"unknown"}`)
	m = p.recv()
	require.JSONEq(t, `7`, string(m.ID))
	require.NotNil(t, m.Error)
	require.Equal(t, jsonrpc.ErrMethodNotFound.Code, m.Error.Code)

	close(release)
	m = p.recv()
	require.JSONEq(t, `"srv-1"`, string(m.ID))
	require.NotNil(t, m.Result)
	require.JSONEq(t, `[null]`, string(*m.Result))
}

// A server may use a progress token right after asking to create it,
// without waiting for the answer (rust-analyzer does): the request's
// handler runs to its end before the notification that followed it is
// handled. The create handler here gives a racing notification time to
// overtake it; in arrival order none can.
func TestRequestThenNotificationInArrivalOrder(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var order []string
	progressed := make(chan struct{})
	_, p := newPair(t, jsonrpc.HandlerFunc(func(_ ctxlite.Context, r *jsonrpc.Request) (jsonlite.Appender, error) {
		if r.Method == "window/workDoneProgress/create" {
			select {
			case <-progressed: // overtaken
			case <-time.After(50 * time.Millisecond):
			}
		}
		mu.Lock()
		order = append(order, r.Method)
		mu.Unlock()
		if r.Method == "$/progress" {
			close(progressed)
		}
		return nil, nil
	}))
	p.send(`{"jsonrpc":"2.0","id":1,"method":"window/workDoneProgress/create","params":{"token":"t"}}`)
	p.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"t","value":{"kind":"begin","title":"x"}}}`)
	require.JSONEq(t, `1`, string(p.recv().ID))
	<-progressed
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"window/workDoneProgress/create", "$/progress"}, order)
}

func TestNullResultIsSent(t *testing.T) {
	t.Parallel()
	_, p := newPair(t, jsonrpc.HandlerFunc(func(ctxlite.Context, *jsonrpc.Request) (jsonlite.Appender, error) { return nil, nil }))
	p.send(`{"jsonrpc":"2.0","id":1,"method":"x"}`)
	m := p.recv()
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":null}`, m.raw, "result must be present")
	require.Nil(t, m.Error)
}

func TestCallContextCancel(t *testing.T) {
	t.Parallel()
	conn, p := newPair(t, nil)
	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	errc := make(chan error, 1)
	go func() { errc <- conn.Call(ctx, "wait", nil, nil) }()
	first := p.recv()
	cancel()
	// The peer learns that nobody waits for the answer.
	c := p.recv()
	require.Equal(t, "$/cancelRequest", c.Method)
	require.JSONEq(t, `{"id":`+string(first.ID)+`}`, string(c.Params))
	require.ErrorIs(t, <-errc, ctxlite.Canceled)

	// The late response is dropped; the connection keeps working.
	p.send(`{"jsonrpc":"2.0","id":%s,"result":1}`, first.ID)
	var raw jsonlite.Raw
	go func() { errc <- conn.Call(ctxlite.Background(), "next", nil, &raw) }()
	m := p.recv()
	p.send(`{"jsonrpc":"2.0","id":%s,"result":2}`, m.ID)
	require.NoError(t, <-errc)
	var n int
	require.NoError(t, json.Unmarshal(raw, &n))
	require.Equal(t, 2, n)
}

func TestTransportCloseFailsPendingCalls(t *testing.T) {
	t.Parallel()
	conn, p := newPair(t, nil)
	errc := make(chan error, 1)
	go func() { errc <- conn.Call(ctxlite.Background(), "wait", nil, nil) }()
	p.recv()
	p.end.CloseWith(4006) // the peer's socket closes with "server exited"

	err := <-errc
	require.ErrorIs(t, err, jsonrpc.ErrClosed)
	var ce *transport.CloseError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, 4006, ce.Code)

	<-conn.Done()
	require.ErrorAs(t, conn.Err(), &ce)
	require.ErrorIs(t, conn.Call(ctxlite.Background(), "after", nil, nil), jsonrpc.ErrClosed)
	require.ErrorIs(t, conn.Notify(ctxlite.Background(), "after", nil), jsonrpc.ErrClosed)
}

// Close racing with calls must neither hang a caller nor panic.
func TestCloseCallRace(t *testing.T) {
	t.Parallel()
	conn, _ := newPair(t, nil)
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = conn.Call(ctxlite.Background(), "x", nil, nil)
		}()
	}
	require.NoError(t, conn.Close())
	wg.Wait()
	<-conn.Done()
	require.ErrorIs(t, conn.Err(), jsonrpc.ErrClosed)
}

// A Later answer whose connection ends before it is started still runs,
// with its context done, so it can release what it holds.
func TestLaterRunsAfterClose(t *testing.T) {
	t.Parallel()
	ran := make(chan error, 1)
	handled := make(chan struct{})
	release := make(chan struct{})
	conn, p := newPair(t, jsonrpc.HandlerFunc(func(ctx ctxlite.Context, r *jsonrpc.Request) (jsonlite.Appender, error) {
		close(handled)
		<-release // the connection closes while the handler runs
		return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
			<-ctx.Done()
			ran <- ctx.Err()
			return nil, nil
		}), nil
	}))
	p.send(`{"jsonrpc":"2.0","id":1,"method":"ask"}`)
	<-handled
	require.NoError(t, conn.Close())
	close(release)
	select {
	case err := <-ran:
		require.Error(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the Later answer never ran")
	}
	<-conn.Done()
}
