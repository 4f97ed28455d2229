package pull

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/stretchr/testify/require"
)

// wait bounds every wait on the puller's goroutines.
const wait = 5 * time.Second

// server stands for the language server behind Config.Call: each pull
// waits until the test answers it, and gives up when its context ends, as
// jsonrpc.Conn.Call does.
type server struct {
	calls    chan *call
	inFlight atomic.Int32
	maxIn    atomic.Int32
}

type call struct {
	Method     string
	Previous   map[string]string // workspace/diagnostic: previousResultIds
	URI        string
	Identifier string
	PreviousID string
	ctx        ctxlite.Context
	answer     chan answer
}

type answer struct {
	result string
	err    error
}

func newServer() *server { return &server{calls: make(chan *call, 64)} }

func (s *server) Call(ctx ctxlite.Context, method string, params jsonlite.Appender, result *jsonlite.Raw) error {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxIn.Load()
		if n <= m || s.maxIn.CompareAndSwap(m, n) {
			break
		}
	}
	var p struct {
		TextDocument      struct{ URI string }
		Identifier        string
		PreviousResultID  string `json:"previousResultId"`
		PreviousResultIDs []struct{ URI, Value string }
	}
	if err := json.Unmarshal(params.AppendJSON(nil), &p); err != nil {
		panic(err)
	}
	c := &call{Method: method, URI: p.TextDocument.URI, Identifier: p.Identifier, PreviousID: p.PreviousResultID, ctx: ctx, answer: make(chan answer, 1)}
	if method == MethodWorkspace {
		c.Previous = map[string]string{}
		for _, r := range p.PreviousResultIDs {
			c.Previous[r.URI] = r.Value
		}
	}
	s.calls <- c
	select {
	case a := <-c.answer:
		if a.err != nil {
			return a.err
		}
		*result = jsonlite.Raw(a.result)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// next is the next pull the server receives.
func (s *server) next(t *testing.T) *call {
	t.Helper()
	select {
	case c := <-s.calls:
		return c
	case <-time.After(wait):
		t.Fatal("no pull reached the server")
		return nil
	}
}

// none asserts that no pull is waiting at the server once the puller's
// goroutines are done (the caller made sure they are).
func (s *server) none(t *testing.T) {
	t.Helper()
	select {
	case c := <-s.calls:
		t.Fatalf("unexpected pull of %s (previous %q)", c.URI, c.PreviousID)
	default:
	}
}

func (c *call) reply(result string) { c.answer <- answer{result: result} }
func (c *call) fail(err error)      { c.answer <- answer{err: err} }

// cancelled waits until the puller gave up on the call.
func (c *call) cancelled(t *testing.T) {
	t.Helper()
	select {
	case <-c.ctx.Done():
	case <-time.After(wait):
		t.Fatal("the pull in flight was not cancelled")
	}
}

// show is one Config.Show call.
type show struct {
	URI, Set string
	Messages []string // nil: cleared
}

type harness struct {
	srv   *server
	p     *Puller
	shows chan show
	logs  chan string
}

func newHarness(t *testing.T, matches func(jsonlite.Raw, string) bool) *harness {
	h := &harness{srv: newServer(), shows: make(chan show, 64), logs: make(chan string, 64)}
	h.p = New(Config{
		Call: h.srv.Call,
		Show: func(uri, set string, ds []lsptypes.Diagnostic) {
			s := show{URI: uri, Set: set}
			for _, d := range ds {
				s.Messages = append(s.Messages, d.Message)
			}
			h.shows <- s
		},
		Matches: matches,
		Logf:    func(f string, a ...any) { h.logs <- fmt.Sprintf(f, a...) },
	})
	t.Cleanup(h.p.Stop)
	return h
}

func (h *harness) nextShow(t *testing.T) show {
	t.Helper()
	select {
	case s := <-h.shows:
		return s
	case <-time.After(wait):
		t.Fatal("nothing was shown")
		return show{}
	}
}

// settle waits until every pull has returned and its report was shown.
func (h *harness) settle(t *testing.T) {
	t.Helper()
	done := make(chan struct{})
	go func() { h.p.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("pulls still running")
	}
}

func (h *harness) noShow(t *testing.T) {
	t.Helper()
	h.settle(t)
	select {
	case s := <-h.shows:
		t.Fatalf("unexpected show %+v", s)
	default:
	}
}

func full(id string, messages ...string) string {
	items := "["
	for i, m := range messages {
		if i > 0 {
			items += ","
		}
		items += `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":1,"message":` + fmt.Sprintf("%q", m) + `}`
	}
	return `{"kind":"full","resultId":"` + id + `","items":` + items + `]}`
}

const a, b = "file:///ws/a.ts", "file:///ws/b.ts"

var static = Registration{Identifier: "ts"}

func TestOpenPullsAndShowsTheFullReport(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	c := h.srv.next(t)
	require.Equal(t, a, c.URI)
	require.Equal(t, "ts", c.Identifier, "the identifier goes back with every pull")
	require.Empty(t, c.PreviousID, "the first pull has no previous result")
	c.reply(full("1", "Type 'string' is not assignable to type 'number'."))
	require.Equal(t, show{a, static.Set(), []string{"Type 'string' is not assignable to type 'number'."}}, h.nextShow(t))
}

func TestChangeSendsThePreviousResultIDAndUnchangedKeepsTheMarkers(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	h.srv.next(t).reply(full("1", "e"))
	h.nextShow(t)

	h.p.Changed(a)
	c := h.srv.next(t)
	require.Equal(t, "1", c.PreviousID)
	c.reply(`{"kind":"unchanged","resultId":"2"}`)
	h.noShow(t) // unchanged: the markers stay as they are

	h.p.Changed(a)
	c = h.srv.next(t)
	require.Equal(t, "2", c.PreviousID, "an unchanged report's id is the next previousResultId")
	c.reply(full("3"))
	require.Equal(t, show{a, static.Set(), nil}, h.nextShow(t), "an empty full report clears")
}

func TestANewerChangeCancelsThePullInFlightAndPullsAgain(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	first := h.srv.next(t)
	h.p.Changed(a)
	first.cancelled(t)
	second := h.srv.next(t)
	require.Empty(t, second.PreviousID)
	first.reply(full("stale", "old")) // too late: nobody waits for it
	second.reply(full("2", "new"))
	require.Equal(t, []string{"new"}, h.nextShow(t).Messages)
	h.noShow(t)
	require.EqualValues(t, 1, h.srv.maxIn.Load(), "one pull in flight per document at a time")
}

func TestABurstOfChangesKeepsOnePullInFlight(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	for range 20 {
		h.p.Changed(a)
	}
	var last *call
	for {
		c := h.srv.next(t)
		last = c
		select {
		case <-c.ctx.Done():
			continue // cancelled by a later change
		default:
		}
		break
	}
	last.reply(full("9", "latest"))
	require.Equal(t, []string{"latest"}, h.nextShow(t).Messages)
	h.noShow(t)
	h.srv.none(t)
	require.EqualValues(t, 1, h.srv.maxIn.Load())
}

func TestInterFileDependenciesPullTheOtherOpenDocuments(t *testing.T) {
	for _, inter := range []bool{false, true} {
		t.Run(fmt.Sprint(inter), func(t *testing.T) {
			h := newHarness(t, nil)
			h.p.Register(Registration{InterFileDependencies: inter})
			h.p.Open(a, "typescript")
			h.srv.next(t).reply(full("a1"))
			h.nextShow(t)
			h.p.Open(b, "typescript")
			h.srv.next(t).reply(full("b1"))
			h.nextShow(t)

			h.p.Changed(a)
			n := 1
			if inter {
				n = 2
			}
			pulled, shown := map[string]string{}, map[string][]string{}
			for range n {
				c := h.srv.next(t)
				pulled[c.URI] = c.PreviousID
				if c.URI == b {
					c.reply(full("b2", "b broke"))
				} else {
					c.reply(full("a2"))
				}
			}
			for range n {
				s := h.nextShow(t)
				shown[s.URI] = s.Messages
			}
			if inter {
				require.Equal(t, map[string]string{a: "a1", b: "b1"}, pulled)
				require.Equal(t, map[string][]string{a: nil, b: {"b broke"}}, shown)
			} else {
				require.Equal(t, map[string]string{a: "a1"}, pulled)
			}
			h.settle(t)
			h.srv.none(t)
		})
	}
}

func TestRefreshPullsEveryOpenDocument(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	h.srv.next(t).reply(full("a1"))
	h.p.Open(b, "typescript")
	h.srv.next(t).reply(full("b1"))
	h.nextShow(t)
	h.nextShow(t)

	h.p.Refresh()
	got := map[string]string{}
	for range 2 {
		c := h.srv.next(t)
		got[c.URI] = c.PreviousID
		c.reply(`{"kind":"unchanged","resultId":"x"}`)
	}
	require.Equal(t, map[string]string{a: "a1", b: "b1"}, got)
	h.noShow(t)
}

func TestSavePullsTheDocument(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	h.srv.next(t).reply(full("1"))
	h.nextShow(t)
	h.p.Saved(a)
	require.Equal(t, "1", h.srv.next(t).PreviousID)
}

func TestRelatedDocumentsAreApplied(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	h.srv.next(t).reply(full("a1"))
	h.nextShow(t)
	h.p.Open(b, "typescript")
	h.srv.next(t).reply(full("b1"))
	h.nextShow(t)

	h.p.Changed(a)
	const c = "file:///ws/c.ts" // not open: shown, no result id kept
	h.srv.next(t).reply(`{"kind":"full","resultId":"a2","items":[],"relatedDocuments":{` +
		`"` + b + `":` + full("b2", "b broke") + `,"` + c + `":` + full("c2", "c broke") + `}}`)
	got := map[string][]string{}
	for range 3 {
		s := h.nextShow(t)
		got[s.URI] = s.Messages
	}
	require.Equal(t, map[string][]string{a: nil, b: {"b broke"}, c: {"c broke"}}, got)

	h.p.Changed(b)
	require.Equal(t, "b2", h.srv.next(t).PreviousID, "a related report's result id counts for the document")
}

func TestServerCancelledAndContentModifiedPullAgain(t *testing.T) {
	cancelled := &jsonrpc.Error{Code: jsonrpc.ErrServerCancelled.Code, Message: "busy", Data: jsonlite.Raw(`{"retriggerRequest":true}`)}
	for name, err := range map[string]error{"server cancelled": cancelled, "content modified": jsonrpc.ErrContentModified} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.p.Register(static)
			h.p.Open(a, "typescript")
			h.srv.next(t).fail(err)
			h.srv.next(t).reply(full("1", "after retry"))
			require.Equal(t, []string{"after retry"}, h.nextShow(t).Messages)
		})
	}
}

func TestServerCancelledWithoutRetriggerIsNotRetried(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	h.srv.next(t).fail(&jsonrpc.Error{Code: jsonrpc.ErrServerCancelled.Code, Message: "no", Data: jsonlite.Raw(`{"retriggerRequest":false}`)})
	h.noShow(t)
	h.srv.none(t)
	h.p.Changed(a)
	h.srv.next(t) // the next change pulls as usual
}

func TestRetriesAreBounded(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	for range maxRetries + 1 {
		h.srv.next(t).fail(jsonrpc.ErrContentModified)
	}
	h.noShow(t)
	h.srv.none(t)
	require.Contains(t, <-h.logs, "in a row")
	h.p.Changed(a)
	h.srv.next(t).reply(full("1", "x"))
	require.Equal(t, []string{"x"}, h.nextShow(t).Messages)
}

func TestMethodNotFoundTurnsThatProviderOff(t *testing.T) {
	h := newHarness(t, nil)
	other := Registration{ID: "r2", Identifier: "lint"}
	h.p.Register(static, other)
	h.p.Open(a, "typescript")
	calls := map[string]*call{}
	for range 2 {
		c := h.srv.next(t)
		calls[c.Identifier] = c
	}
	calls["ts"].fail(jsonrpc.ErrMethodNotFound)
	calls["lint"].reply(full("1", "lint says"))
	require.Equal(t, show{a, other.Set(), []string{"lint says"}}, h.nextShow(t))
	h.settle(t)
	require.Contains(t, <-h.logs, "off for this connection")

	h.p.Changed(a)
	c := h.srv.next(t)
	require.Equal(t, "lint", c.Identifier, "only the provider still on is pulled")
	c.reply(`{"kind":"unchanged","resultId":"1"}`)
	h.settle(t)
	h.srv.none(t)
	require.True(t, h.p.Active())
}

func TestOtherErrorsAreLoggedOnceAndTheNextChangePulls(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	h.srv.next(t).fail(jsonrpc.NewError(jsonrpc.ErrInternal.Code, "boom"))
	h.p.Changed(a)
	h.srv.next(t).fail(jsonrpc.NewError(jsonrpc.ErrInternal.Code, "boom"))
	h.settle(t)
	require.Len(t, h.logs, 1)
	h.p.Changed(a)
	h.srv.next(t).reply(full("1", "ok"))
	require.Equal(t, []string{"ok"}, h.nextShow(t).Messages)
}

func TestDynamicRegistrationPullsOpenDocumentsAndUnregisterClears(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Open(a, "typescript")
	h.settle(t)
	h.srv.none(t) // no provider yet: nothing pulled
	require.False(t, h.p.Active())

	dyn := Registration{ID: "r1", Identifier: "tsgo"}
	h.p.Register(dyn)
	c := h.srv.next(t)
	require.Equal(t, "tsgo", c.Identifier)
	c.reply(full("1", "e"))
	require.Equal(t, show{a, dyn.Set(), []string{"e"}}, h.nextShow(t))

	h.p.Unregister("r1")
	require.Equal(t, show{a, dyn.Set(), nil}, h.nextShow(t), "an unregistered provider's markers go")
	h.p.Changed(a)
	h.noShow(t)
	h.srv.none(t)
}

func TestEachProviderHasItsOwnSet(t *testing.T) {
	x, y := Registration{ID: "1", Identifier: "x"}, Registration{ID: "2", Identifier: "y"}
	require.NotEqual(t, x.Set(), y.Set())
	require.NotEqual(t, "", x.Set(), "pushed diagnostics are set \"\"")
	h := newHarness(t, nil)
	h.p.Register(x, y)
	h.p.Open(a, "typescript")
	got := map[string][]string{}
	for range 2 {
		c := h.srv.next(t)
		c.reply(full("1", "from "+c.Identifier))
	}
	for range 2 {
		s := h.nextShow(t)
		got[s.Set] = s.Messages
	}
	require.Equal(t, map[string][]string{x.Set(): {"from x"}, y.Set(): {"from y"}}, got)
}

func TestTheSelectorDecidesWhichDocumentsArePulled(t *testing.T) {
	h := newHarness(t, func(sel jsonlite.Raw, lang string) bool { return lang == "typescript" })
	h.p.Register(Registration{ID: "r", Selector: jsonlite.Raw(`[{"language":"typescript"}]`)})
	h.p.Open("file:///ws/x.py", "python")
	h.p.Open(a, "typescript")
	c := h.srv.next(t)
	require.Equal(t, a, c.URI)
	c.reply(full("1"))
	h.settle(t)
	h.srv.none(t)
}

func TestClosedDropsThePullInFlight(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	c := h.srv.next(t)
	h.p.Closed(a)
	c.cancelled(t)
	h.noShow(t)
	h.p.Changed(a) // not open: nothing
	h.settle(t)
	h.srv.none(t)
}

func TestStopEndsEveryPull(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(static)
	h.p.Open(a, "typescript")
	c := h.srv.next(t)
	h.p.Stop()
	c.cancelled(t)
	h.p.Open(b, "typescript")
	h.p.Refresh()
	h.noShow(t)
	h.srv.none(t)
}

func TestMalformedReportsAreLoggedAndShowNothing(t *testing.T) {
	for _, raw := range []string{`{"kind":"partial"}`, `{"kind":"full"}`, `{"kind":"full","items":[{"message":1}]}`, `[]`} {
		h := newHarness(t, nil)
		h.p.Register(static)
		h.p.Open(a, "typescript")
		h.srv.next(t).reply(raw)
		h.noShow(t)
		require.Len(t, h.logs, 1, raw)
	}
}

func TestConcurrentTriggersUnderRace(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(Registration{InterFileDependencies: true})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() { // the server answers whatever comes
		for {
			select {
			case c := <-h.srv.calls:
				c.reply(full("r"))
			case <-stop:
				return
			}
		}
	}()
	go func() {
		for {
			select {
			case <-h.shows:
			case <-stop:
				return
			}
		}
	}()
	for i := range 4 {
		wg.Go(func() {
			uri := fmt.Sprintf("file:///ws/%d.ts", i)
			h.p.Open(uri, "typescript")
			for range 50 {
				h.p.Changed(uri)
			}
			h.p.Refresh()
			h.p.Closed(uri)
		})
	}
	wg.Wait()
	h.settle(t)
	close(stop)
}

// workspaceCalls answers every document pull with an unchanged report
// until the test ends, and hands the workspace pulls to the test.
func (s *server) workspaceCalls(t *testing.T) chan *call {
	out := make(chan *call, 16)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case c := <-s.calls:
				if c.Method == MethodWorkspace {
					out <- c
				} else {
					c.reply(`{"kind":"unchanged","resultId":"x"}`)
				}
			case <-stop:
				return
			}
		}
	}()
	return out
}

func nextCall(t *testing.T, ch chan *call) *call {
	t.Helper()
	select {
	case c := <-ch:
		return c
	case <-time.After(wait):
		t.Fatal("no workspace pull")
		return nil
	}
}

func TestWorkspaceDiagnosticsListFilesNobodyOpened(t *testing.T) {
	h := newHarness(t, nil)
	calls := h.srv.workspaceCalls(t)
	ws := Registration{ID: "w", Identifier: "ws", WorkspaceDiagnostics: true}
	h.p.Open(a, "typescript")
	h.p.Register(ws)
	c := nextCall(t, calls)
	require.Equal(t, "ws", c.Identifier)
	require.Empty(t, c.Previous)
	const other = "file:///ws/lib/c.ts"
	c.reply(`{"items":[` +
		`{"uri":"` + other + `","version":null,"kind":"full","resultId":"c1","items":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"c broke"}]},` +
		`{"uri":"` + a + `","version":3,"kind":"full","resultId":"a9","items":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"old a"}]}]}`)
	require.Equal(t, show{other, ws.Set(), []string{"c broke"}}, h.nextShow(t), "an open document's own pulls answer for it")
	h.noShow(t)

	// Refresh and save ask again, with each file's result id.
	for _, trigger := range []func(){h.p.Refresh, func() { h.p.Saved(a) }} {
		trigger()
		c = nextCall(t, calls)
		require.Equal(t, map[string]string{other: "c1"}, c.Previous)
		c.reply(`{"items":[{"uri":"` + other + `","kind":"unchanged","resultId":"c1"}]}`)
		h.settle(t)
	}

	// Unregistering clears what it listed.
	h.p.Unregister("w")
	require.Equal(t, show{other, ws.Set(), nil}, h.nextShow(t))
}

func TestWorkspaceMethodNotFoundKeepsDocumentPulls(t *testing.T) {
	h := newHarness(t, nil)
	h.p.Register(Registration{WorkspaceDiagnostics: true})
	h.srv.next(t).fail(jsonrpc.ErrMethodNotFound)
	h.settle(t)
	h.p.Refresh()
	h.p.Open(a, "typescript")
	c := h.srv.next(t)
	require.Equal(t, MethodDocument, c.Method, "no workspace pull any more")
	c.reply(full("1", "still pulled"))
	require.Equal(t, []string{"still pulled"}, h.nextShow(t).Messages)
	h.settle(t)
	h.srv.none(t)
}
