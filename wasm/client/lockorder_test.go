package client

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/navigate"
)

// quietEditor is an Editor that never blocks: its calls come with client
// locks held, from many goroutines at once.
type quietEditor struct{ calls atomic.Int64 }

func (e *quietEditor) Provider(string, string, features.Feature, string) { e.calls.Add(1) }
func (e *quietEditor) Ended(string)                                      { e.calls.Add(1) }
func (e *quietEditor) Refresh(string, features.Feature)                  { e.calls.Add(1) }
func (e *quietEditor) Suppress(string)                                   { e.calls.Add(1) }
func (e *quietEditor) Apply(ctxlite.Context, string) (bool, string) {
	e.calls.Add(1)
	return true, ""
}

// quietModel is a model whose markers are counted, never queued, so that
// no sink call waits for the test. It gives its further servers' markers
// to itself (SlotSinks).
type quietModel struct {
	mu      sync.Mutex
	text    string
	markers atomic.Int64
}

func (m *quietModel) Text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.text
}

func (m *quietModel) SetMarkers([]monaco.Marker) { m.markers.Add(1) }

func (m *quietModel) ForSlot(int) MarkerSink { return m }

// chaosInitializeResult is a server with push and pull diagnostics and a
// few providers.
const chaosInitializeResult = `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2,"save":{}},` +
	`"hoverProvider":true,"definitionProvider":true,"completionProvider":{"triggerCharacters":["."]},` +
	`"diagnosticProvider":{"interFileDependencies":true,"workspaceDiagnostics":false}},"serverInfo":{"name":"fake"}}`

// chaosFiles are the files the test's documents open, as the server names
// them.
var chaosFiles = []string{"f0.go", "f1.go", "f2.go", "shared.go", "x.ts"}

// serveChaos plays the task host and its server on one dialed connection
// until the socket closes: it answers every request, echoes heartbeats,
// refuses resumes, and once initialized sends what servers send on their
// own — diagnostics, registrations, progress, refreshes — for a few
// rounds. Then, for some connections, it loses the path (1006) or fails
// (1011), so the client reconnects or waits for a Start.
func serveChaos(a *fakeAgent, seq int, wg *sync.WaitGroup) {
	defer wg.Done()
	write := func(format string, args ...any) error {
		return a.end.Write(ctxlite.Background(), fmt.Appendf(nil, format, args...))
	}
	if strings.Contains(a.url, wire.ParamResume+"=") {
		// The server is gone: the client connects afresh.
		a.closeWith(int(wire.CloseResumeRefused))
		return
	}
	extra := ""
	if seq%2 == 0 {
		extra = fmt.Sprintf(`,"heartbeat":true,"resume":"t%d"`, seq)
	}
	if write(`{"status":"ready","workspacePath":"/w","workspaceUri":"file:///w"%s}`, extra) != nil {
		return
	}
	var once sync.Once
	for {
		frame, err := a.end.Read(ctxlite.Background())
		if err != nil {
			return // the client closed the socket
		}
		if wire.IsHeartbeatFrame(frame) {
			_ = a.end.Write(ctxlite.Background(), frame)
			continue
		}
		var m rpcMsg
		if json.Unmarshal(frame, &m) != nil || m.Method == "" {
			continue // an ack, or an answer to the server's request
		}
		if m.Method == "initialized" {
			wg.Add(1)
			once.Do(func() { go chaosRounds(a, seq, write, wg) })
			continue
		}
		if len(m.ID) == 0 {
			continue // didOpen, didChange, …
		}
		result := "null"
		switch m.Method {
		case "initialize":
			result = chaosInitializeResult
		case "textDocument/hover":
			result = `{"contents":{"kind":"markdown","value":"x"}}`
		case "textDocument/diagnostic":
			result = fmt.Sprintf(`{"kind":"full","items":[%s]}`, diag("pulled"))
		}
		_ = write(`{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}
}

// chaosRounds is what the server sends on its own on connection seq.
func chaosRounds(a *fakeAgent, seq int, write func(string, ...any) error, wg *sync.WaitGroup) {
	defer wg.Done()
	for r := 0; r < 3; r++ {
		id := fmt.Sprintf("%d-%d", seq, r)
		for _, f := range chaosFiles {
			if write(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/%s","diagnostics":[%s]}}`, f, diag("pushed")) != nil {
				return
			}
		}
		msgs := []string{
			`{"jsonrpc":"2.0","id":"reg-%[1]s","method":"client/registerCapability","params":{"registrations":[` +
				`{"id":"sync-%[1]s","method":"textDocument/didChange","registerOptions":{"documentSelector":null,"syncKind":1}},` +
				`{"id":"pull-%[1]s","method":"textDocument/diagnostic","registerOptions":{"documentSelector":null,"identifier":"extra","interFileDependencies":false,"workspaceDiagnostics":false}}]}}`,
			`{"jsonrpc":"2.0","id":"prog-%[1]s","method":"window/workDoneProgress/create","params":{"token":"w%[1]s"}}`,
			`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"w%[1]s","value":{"kind":"begin","title":"indexing"}}}`,
			`{"jsonrpc":"2.0","id":"sem-%[1]s","method":"workspace/semanticTokens/refresh"}`,
			`{"jsonrpc":"2.0","id":"dref-%[1]s","method":"workspace/diagnostic/refresh"}`,
			`{"jsonrpc":"2.0","id":"cfg-%[1]s","method":"workspace/configuration","params":{"items":[{"section":"gopls"}]}}`,
			`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"w%[1]s","value":{"kind":"end"}}}`,
			`{"jsonrpc":"2.0","id":"unreg-%[1]s","method":"client/unregisterCapability","params":{"unregisterations":[` +
				`{"id":"sync-%[1]s","method":"textDocument/didChange"},{"id":"pull-%[1]s","method":"textDocument/diagnostic"}]}}`,
		}
		for _, m := range msgs {
			if write(m, id) != nil {
				return
			}
		}
	}
	switch seq % 5 {
	case 1:
		a.closeWith(1006) // the path is lost: reconnect, or resume
	case 3:
		a.closeWith(1011) // the server failed: only a Start connects again
	}
}

// The connection, document and editor paths run at once, over and over,
// against one Client: connections come, go, reconnect and are restarted
// while documents open, change, save and close and the editor asks for
// providers, navigation and problems. The status listener edits a document
// that has peers, as its contract allows, while the peers change. All of
// it must end — no two paths may wait for each other's locks — and stay
// clean under the race detector.
func TestConcurrentConnectionDocumentEditorPaths(t *testing.T) {
	if runtime.GOOS == "js" {
		// One thread: the clock goroutine never blocks, so the event loop
		// that fires the deadlines never runs. The test is for the race
		// detector and real parallelism, which only a native run has.
		t.Skip("needs threads; run natively with -race")
	}
	var (
		twoTS      atomic.Bool // TypeScript is served by two servers
		lead       atomic.Pointer[Document]
		ready      atomic.Int64
		statuses   atomic.Int64
		goReadyGen atomic.Uint64 // the latest generation of the Go pair seen ready
	)
	goReady := make(chan struct{}, 1) // goReadyGen moved
	twoTS.Store(true)
	ed := &quietEditor{}
	h := newHarness(t, func(c *Config) {
		c.Editor = ed
		c.Logf = func(string, ...any) {}
		c.IdleTimeout = clock.Second
		c.OnStatus = func(s Status) {
			statuses.Add(1)
			if s.State == StateReady {
				ready.Add(1)
				if s.Language == string(wire.Go) {
					for g := goReadyGen.Load(); g < s.Gen; g = goReadyGen.Load() {
						if goReadyGen.CompareAndSwap(g, s.Gen) {
							break
						}
					}
					select {
					case goReady <- struct{}{}:
					default:
					}
				}
			}
			if d := lead.Load(); d != nil {
				d.MarkDirty() // takes the lead's peerMu
			}
		}
		c.Servers = func(lang wire.Language) []string {
			if lang != wire.TypeScript {
				return nil
			}
			if twoTS.Load() {
				return []string{"tsgo", "eslint"}
			}
			return []string{"tsgo"}
		}
	})
	cl := h.client

	// Every dialed connection gets an agent of its own until the end.
	var agents sync.WaitGroup
	dialing := make(chan struct{})
	takerDone := make(chan struct{})
	go func() {
		defer close(takerDone)
		for seq := 0; ; seq++ {
			select {
			case a := <-h.dialer.agents:
				agents.Add(1)
				go serveChaos(a, seq, &agents)
			case <-dialing:
				return
			}
		}
	}()

	// Time passes for the whole test: debounces, turns, idle teardowns,
	// reconnect and resume schedules, heartbeats.
	stopClock := make(chan struct{})
	clockDone := make(chan struct{})
	go func() {
		defer close(clockDone)
		for {
			select {
			case <-stopClock:
				return
			default:
				h.clock.Advance(50 * time.Millisecond)
				runtime.Gosched()
			}
		}
	}()

	const deadline = 20 * time.Second
	fail := func(format string, args ...any) {
		buf := make([]byte, 1<<22)
		t.Fatalf(format+"\n%s", append(args, buf[:runtime.Stack(buf, true)])...)
	}
	// awaitGoReady waits until a generation of the Go pair after since
	// is ready.
	awaitGoReady := func(since uint64) bool {
		timeout := time.After(deadline / 2)
		for goReadyGen.Load() <= since {
			select {
			case <-goReady:
			case <-timeout:
				return false
			}
		}
		return true
	}
	stopCtx := func() (ctxlite.Context, ctxlite.CancelFunc) {
		return ctxlite.WithTimeout(ctxlite.Background(), 5*clock.Second)
	}
	edit := func(d *Document, v int) {
		if err := d.Changed(fmt.Sprintf(`{"versionId":%d,"changes":[{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1},"rangeOffset":0,"rangeLength":0,"text":"x"}]}`, v)); err != nil {
			t.Errorf("Changed: %v", err)
		}
	}
	open := func(rel, text string) *Document {
		m := &quietModel{text: text}
		d, err := cl.OpenDocument("s", rel, m, m)
		if err != nil {
			t.Errorf("OpenDocument %s: %v", rel, err)
		}
		return d
	}

	// Documents open throughout keep the pairs leased (no idle teardown)
	// and give the editor's calls a model served.
	anchors := []*Document{open("f0.go", "package main\n"), open("a.ts", "let a = 1\n")}
	if t.Failed() || !awaitGoReady(0) {
		fail("no Go connection became ready")
	}

	var work sync.WaitGroup
	run := func(f func()) {
		work.Add(1)
		go func() {
			defer work.Done()
			f()
		}()
	}
	connDone := make(chan struct{})
	more := func(i int) bool {
		select {
		case <-connDone:
			return i < 5 // each path runs a few times at least
		default:
			return true
		}
	}

	// The connection path: a Go connection stopped and started again each
	// round, which then becomes ready (its agent answers), besides a
	// reconnect, a restart on another list of servers, a republish, a
	// configuration push, a Start, a Stop, a nudge.
	run(func() {
		defer close(connDone)
		for i := range 12 {
			switch i % 6 {
			case 0:
				cl.Reconnect(wire.Go)
			case 1:
				twoTS.Store(!twoTS.Load())
				cl.Restart(wire.TypeScript)
			case 2:
				cl.Republish(wire.Go)
				cl.PushConfiguration(wire.Go)
			case 3:
				cl.Start("s", wire.TypeScript)
				cl.Prepare("s", wire.Go)
			case 4:
				ctx, cancel := stopCtx()
				if err := cl.Stop(ctx, "s", wire.TypeScript); err != nil {
					t.Errorf("Stop: %v", err)
				}
				cancel()
				cl.Start("s", wire.TypeScript)
			case 5:
				cl.Nudge()
			}
			// The first generation after the one stopped becomes ready:
			// this StartSlot's, or a document's opened meanwhile (its agent
			// fails it, if at all, only after initialized).
			cl.mu.Lock()
			since := cl.pairs[connKey{"s", wire.Go, 0}].gen
			cl.mu.Unlock()
			ctx, cancel := stopCtx()
			if err := cl.StopSlot(ctx, "s", wire.Go, 0); err != nil {
				t.Errorf("StopSlot: %v", err)
			}
			cancel()
			cl.StartSlot("s", wire.Go, 0)
			if !awaitGoReady(since) {
				st, _ := cl.Status("s", wire.Go)
				t.Errorf("round %d: the Go connection did not become ready: %+v", i, st)
				return
			}
		}
	})

	// The document path: open, edit, save and close documents, two models
	// of one file among them, and a document with peers on two servers.
	goDocs := func(files ...string) func() {
		return func() {
			for i := 0; more(i); i++ {
				d := open(files[i%len(files)], "package main\n")
				if d == nil {
					return
				}
				edit(d, 2)
				d.MarkDirty()
				if _, err := cl.Saved(fmt.Sprintf(`{"model":%q,"ok":true,"persistedVersion":%d,"liveVersion":%d}`, d.Model(), i+3, i+3)); err != nil {
					t.Errorf("Saved: %v", err)
				}
				d.Close()
			}
		}
	}
	run(goDocs("f0.go", "f1.go", "f2.go"))
	run(goDocs("shared.go"))
	run(goDocs("shared.go", "f1.go"))
	run(func() {
		for i := 0; more(i); i++ {
			d := open("x.ts", "let x = 1\n")
			if d == nil {
				return
			}
			lead.Store(d)
			edit(d, i+2)
			d.Close() // the listener may still edit it: a no-op
		}
		lead.Store(nil)
	})

	// The editor path: providers, navigation, problems and statuses.
	run(func() {
		for i := 0; more(i); i++ {
			model := navigate.ModelURI("s", chaosFiles[i%len(chaosFiles)])
			ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 5*clock.Second)
			if _, err := cl.Provide(ctx, "", features.Hover.String(), fmt.Sprintf(`{"uri":%q,"lineNumber":1,"column":1}`, model)); err != nil {
				t.Errorf("Provide: %v", err)
			}
			cancel()
			cl.Navigate(fmt.Sprintf(`{"source":%q,"target":"file:///w/f1.go","tabs":[]}`, model))
			cl.Problems("s")
			cl.Statuses("s", wire.Go)
			cl.PairOf(model)
		}
	})

	// No deadlock: everything ends within the deadline.
	within := func(what string, done <-chan struct{}) {
		select {
		case <-done:
		case <-time.After(deadline):
			fail("%s did not end: deadlock?", what)
		}
	}
	wait := func(wg *sync.WaitGroup) <-chan struct{} {
		done := make(chan struct{})
		go func() {
			wg.Wait()
			close(done)
		}()
		return done
	}
	within("the paths", wait(&work))
	for _, d := range anchors {
		d.Close()
	}
	close(stopClock)
	within("the clock", clockDone)
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		ctx, cancel := stopCtx()
		defer cancel()
		if err := cl.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	within("Close", closed)
	close(dialing)
	within("the dialer", takerDone)
	within("the agents", wait(&agents))

	if ed.calls.Load() == 0 {
		t.Errorf("the editor heard nothing: %d ready of %d statuses", ready.Load(), statuses.Load())
	}
	t.Logf("%d statuses, %d ready, %d editor calls", statuses.Load(), ready.Load(), ed.calls.Load())
}
