// Package app is lsp.wasm without JavaScript: it wires the connection
// manager (client), the user settings and browser-local start/stop policy
// (settings), the status view-model (status) and its locale (i18n), and
// delivers each pair's view as one JSON string whenever it changes —
// including a one-second tick while elapsed time is on screen, which stops
// when nothing is elapsing. The binding package (jsbind) only translates
// JavaScript calls into these methods.
package app

import (
	"errors"
	"sync"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/i18n"
	"github.com/kandev/lsp/wasm/settings"
	"github.com/kandev/lsp/wasm/status"
)

// TickInterval is how often views with elapsed time are re-rendered.
const TickInterval = clock.Second

// Config configures an App.
type Config struct {
	// RelayURL is the browser-facing stream route, e.g. ws://host/lsp.
	RelayURL string
	// Dial opens WebSockets. Required.
	Dial client.Dialer
	// Clock tells time and schedules timers; nil means the wall clock.
	Clock client.Clock
	// Soon runs f once the current turn of the event loop is over
	// (client.Config.Soon); nil runs f on its own goroutine.
	Soon func(f func())
	// Store is local storage for remembered manual starts; may be nil.
	Store settings.Store
	// Locale picks the status texts' catalog; unknown tags fall back to English.
	Locale string
	// Settings are the initial user settings (the relay's
	// /api/v1/user/settings JSON); nil means none.
	Settings []byte
	// IdleTimeout and Debounce override the client's defaults when set.
	IdleTimeout, Debounce clock.Duration
	// Version is sent as clientInfo.version.
	Version string
	// Logf receives developer diagnostics; nil discards them.
	Logf func(format string, args ...any)
	// Editor receives Monaco provider registrations, refreshes,
	// suppression snapshots and workspace edits; nil means none.
	Editor client.Editor
	// FileOps are the page's file operations for workspace edits.
	FileOps features.FileOps
	// OnMessage receives the servers' messages for people (MessageJSON),
	// from the same goroutine as the views, in order; nil drops them and
	// answers every showMessageRequest null.
	OnMessage func(messageJSON string)
	// Library says the page opens library files read-only
	// (client.Config.Library).
	Library bool
	// ReadFile reads a task file for reloading an open document whose
	// file changed on disk (client.Config.ReadFile); nil reloads nothing.
	ReadFile func(ctx ctxlite.Context, sessionID, path string) (text string, ok bool)
	// ListFiles lists a task workspace's files (client.Config.ListFiles).
	ListFiles func(ctx ctxlite.Context, sessionID string) (paths []string, ok bool)
	// OnDiskChange receives each change on disk to an open document's
	// file (client.Config.OnDiskChange); nil drops them.
	OnDiskChange func(client.DiskChange)
	// OnWorkspaceFiles receives the workspace paths changed on the task
	// host (client.Config.OnWorkspaceFiles); nil drops them.
	OnWorkspaceFiles func(sessionID string, changes []client.FileChange)
	// OnProblems learns that a session's problems list changed
	// (client.Config.OnProblems); nil drops the events.
	OnProblems func(sessionID string)
	// ShowDocument shows a server's window/showDocument
	// (client.Config.ShowDocument); nil does not offer it.
	ShowDocument func(ctx ctxlite.Context, d client.ShowDocument) bool
}

type key struct {
	session string
	lang    wire.Language
	slot    int // the server's place in the language's list
}

// App is one configured lsp.wasm.
type App struct {
	policy *settings.Policy
	client *client.Client
	clock  client.Clock
	onView func(string)
	onMsg  func(string)

	mu       sync.Mutex
	cat      *i18n.Catalog
	statuses map[key]client.Status
	last     map[key]string // the JSON last delivered per pair
	ticking  bool           // a tick timer is pending
	messages []string       // server messages not yet delivered

	wake chan struct{} // one-slot: the emitter has work
	stop chan struct{} // closed by Close
	done chan struct{} // closed when the emitter returned
}

// New starts an App; nothing connects until a document opens or Start.
// onView receives a pair's view JSON whenever it changes, from one
// goroutine, in order, never while a lock is held (it may call back into
// the App); nil discards views.
func New(cfg Config, onView func(viewJSON string)) (*App, error) {
	if cfg.Clock == nil {
		cfg.Clock = client.RealClock{}
	}
	if onView == nil {
		onView = func(string) {}
	}
	a := &App{
		policy:   settings.NewPolicy(cfg.Store),
		clock:    cfg.Clock,
		onView:   onView,
		onMsg:    cfg.OnMessage,
		cat:      i18n.For(cfg.Locale),
		statuses: make(map[key]client.Status),
		last:     make(map[key]string),
		wake:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if cfg.Settings != nil {
		s, err := settings.Parse(cfg.Settings)
		if err != nil {
			return nil, errors.New("app: settings: " + err.Error())
		}
		a.policy.SetSettings(s)
	}
	var onMessage func(client.Message)
	if cfg.OnMessage != nil {
		onMessage = a.message
	}
	ccfg := client.Config{
		OnMessage:   onMessage,
		RelayURL:    cfg.RelayURL,
		Dial:        cfg.Dial,
		Clock:       cfg.Clock,
		Soon:        cfg.Soon,
		Debounce:    cfg.Debounce,
		IdleTimeout: cfg.IdleTimeout,
		Policy:      a.policy,
		Configs:     a.policy,
		Servers:     a.policy.Servers,
		Features:    a.policy.Features,
		Formatter:   a.policy.Formatter,
		OnStatus:    a.record,
		Version:     cfg.Version,
		Logf:        cfg.Logf,
		Editor:      cfg.Editor,
		FileOps:     cfg.FileOps,
	}
	ccfg.ReadFile, ccfg.OnDiskChange, ccfg.OnProblems = cfg.ReadFile, cfg.OnDiskChange, cfg.OnProblems
	ccfg.ListFiles = cfg.ListFiles
	ccfg.OnWorkspaceFiles = cfg.OnWorkspaceFiles
	ccfg.Library = cfg.Library
	ccfg.ShowDocument = cfg.ShowDocument
	c, err := client.New(ccfg)
	if err != nil {
		return nil, err
	}
	a.client = c
	go a.emitter()
	return a, nil
}

// OpenDocument opens a document (see client.Client.OpenDocument); whether it
// connects is decided by the auto-start set, a remembered manual start and
// this runtime's explicit stops.
func (a *App) OpenDocument(sessionID, relPath string, src client.TextSource, sink client.MarkerSink) (*client.Document, error) {
	return a.client.OpenDocument(sessionID, relPath, src, sink)
}

// OpenLibraryDocument opens a read-only file outside the workspace (see
// client.Client.OpenLibraryDocument).
func (a *App) OpenLibraryDocument(sessionID, abs string, src client.TextSource, sink client.MarkerSink) (*client.Document, error) {
	return a.client.OpenLibraryDocument(sessionID, abs, src, sink)
}

// Provide answers one Monaco provider call (see client.Client.Provide).
func (a *App) Provide(ctx ctxlite.Context, connID, name, req string) (string, error) {
	return a.client.Provide(ctx, connID, name, req)
}

// Saved reports a finished write (see client.Client.Saved).
func (a *App) Saved(js string) (string, error) { return a.client.Saved(js) }

// Nudge tries reconnecting connections now (the browser is online again,
// or the page visible).
func (a *App) Nudge() { a.client.Nudge() }

// Navigate resolves an editor-opener target (see client.Client.Navigate).
func (a *App) Navigate(js string) string { return a.client.Navigate(js) }

// Explore runs one of the page's hierarchy or workspace-symbol requests
// (client.Client.Explore).
func (a *App) Explore(ctx ctxlite.Context, js string) (string, error) {
	return a.client.Explore(ctx, js)
}

// WillChangeFiles is the first half of the page's create, rename or
// delete of workspace files: the servers' edits, applied
// (client.Client.WillChangeFiles). It answers the result's JSON.
func (a *App) WillChangeFiles(ctx ctxlite.Context, js string) (string, error) {
	r, err := a.client.WillChangeFiles(ctx, js)
	if err != nil {
		return "", err
	}
	return r.JSON(), nil
}

// DidChangeFiles tells the servers the operation was made
// (client.Client.DidChangeFiles).
func (a *App) DidChangeFiles(js string) error { return a.client.DidChangeFiles(js) }

// Problems is a session's problems list as JSON (client.Client.Problems).
func (a *App) Problems(sessionID string) string { return a.client.Problems(sessionID) }

// Respond answers a server's showMessageRequest (the message's id) with the
// action titled title, or dismisses it when chosen is false. It reports
// whether the request was still waiting.
func (a *App) Respond(id, title string, chosen bool) bool {
	return a.client.Respond(id, title, chosen)
}

// Start is the user's explicit Start: remembered in local storage, lifting a
// Stop in this runtime, and connecting the pair.
func (a *App) Start(sessionID string, lang wire.Language) {
	a.policy.Start(sessionID, lang)
	a.client.Start(sessionID, lang)
}

// Prepare connects the pair now if a document of the language would
// connect on opening (see client.Client.Prepare): the server starts on the
// workspace while the editor loads. Not a user's Start: nothing is
// remembered and a Stop holds. It reports whether a connection was started
// or is live.
func (a *App) Prepare(sessionID string, lang wire.Language) bool {
	return a.client.Prepare(sessionID, lang)
}

// Retry reconnects a failed pair with a new connection generation.
func (a *App) Retry(sessionID string, lang wire.Language) {
	a.policy.Retry(sessionID, lang)
	a.client.Start(sessionID, lang)
}

// StartSlot is Start for one server of the language (its place in the
// list); a negative slot is Start. Starting one server remembers the
// language as started, as Start does.
func (a *App) StartSlot(sessionID string, lang wire.Language, slot int) {
	if slot < 0 {
		a.Start(sessionID, lang)
		return
	}
	a.policy.Start(sessionID, lang)
	a.client.StartSlot(sessionID, lang, slot)
}

// RetrySlot is Retry for one server of the language; a negative slot is
// Retry.
func (a *App) RetrySlot(sessionID string, lang wire.Language, slot int) {
	if slot < 0 {
		a.Retry(sessionID, lang)
		return
	}
	a.policy.Retry(sessionID, lang)
	a.client.StartSlot(sessionID, lang, slot)
}

// StopSlot stops one server of the language, leaving the others and the
// language's auto-start as they are; a negative slot is Stop.
func (a *App) StopSlot(sessionID string, lang wire.Language, slot int) {
	if slot < 0 {
		a.Stop(sessionID, lang)
		return
	}
	go func() {
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
		defer cancel()
		_ = a.client.StopSlot(ctx, sessionID, lang, slot)
	}()
}

// Stop is the user's explicit Stop: auto-start stays suppressed for the pair
// in this runtime until Start, effective when Stop returns; the server shuts
// down in the background.
func (a *App) Stop(sessionID string, lang wire.Language) {
	a.policy.Stop(sessionID, lang)
	go func() {
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
		defer cancel()
		_ = a.client.Stop(ctx, sessionID, lang)
	}()
}

// SetSettings replaces the user settings (the relay's settings JSON). A
// language whose configuration changed gets workspace/didChangeConfiguration
// on its live connections — no new process — and pairs that are off and now
// allowed to auto-start connect.
func (a *App) SetSettings(data []byte) error {
	s, err := settings.Parse(data)
	if err != nil {
		return err
	}
	old := a.policy.SetSettings(s)
	for _, l := range wire.Languages {
		switch {
		case settings.ServerChanged(old, s, l.Language):
			// Other servers: the connections of the slots that changed
			// end and the new ones start (with their own configuration),
			// without a page reload.
			a.client.Restart(l.Language)
		case settings.FeaturesChanged(old, s, l.Language):
			// What a server is used for is read when it starts.
			a.client.Reconnect(l.Language)
		default:
			if settings.FormatterChanged(old, s, l.Language) {
				a.client.Republish(l.Language)
			}
			if settings.ConfigChanged(old, s, l.Language) {
				a.client.PushConfiguration(l.Language)
			}
		}
	}
	a.client.Reconsider()
	return nil
}

// SetLocale switches the status texts' locale (re-rendering every view) and
// returns the locale in use.
func (a *App) SetLocale(tag string) string {
	a.mu.Lock()
	a.cat = i18n.For(tag)
	loc := a.cat.Locale()
	a.mu.Unlock()
	a.kick()
	return loc
}

// View returns the current view of a pair, rendered now, as JSON, or "null"
// for an unknown language. With seenOnly, a pair this window never saw is
// "null" too; otherwise it is off with Start.
func (a *App) View(sessionID string, lang wire.Language, seenOnly bool) string {
	if _, ok := wire.Lookup(string(lang)); !ok || sessionID == "" {
		return "null"
	}
	k := key{sessionID, lang, 0}
	a.mu.Lock()
	_, ok := a.statuses[k]
	a.mu.Unlock()
	if !ok {
		s, seen := a.client.Status(sessionID, lang)
		if !seen && seenOnly {
			return "null"
		}
		if !seen {
			s = client.Status{SessionID: sessionID, Language: string(lang), State: client.StateOff}
		}
		a.mu.Lock()
		if _, ok := a.statuses[k]; !ok && seen {
			a.statuses[k] = s
		}
		a.mu.Unlock()
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.renderLocked(sessionID, lang, a.clock.Now()).JSON()
}

// renderLocked is the view of a session's language: its first server's,
// combined with the others' when the user chose several. a.mu must be
// held.
func (a *App) renderLocked(sessionID string, lang wire.Language, now int64) status.View {
	list := a.policy.Servers(lang)
	n := max(len(list), 1)
	views := make([]status.View, n)
	for slot := range n {
		s, ok := a.statuses[key{sessionID, lang, slot}]
		if !ok {
			s = client.Status{SessionID: sessionID, Language: string(lang), Slot: slot, State: client.StateOff}
		}
		if s.Server == "" && slot < len(list) {
			s.Server = list[slot]
		}
		views[slot] = status.Build(s, a.cat, now)
	}
	return status.Combine(views, a.cat)
}

// Close stops every connection and the emitter; it waits for them or ctx.
func (a *App) Close(ctx ctxlite.Context) error {
	err := a.client.Close(ctx)
	a.mu.Lock()
	select {
	case <-a.stop:
	default:
		close(a.stop)
	}
	a.mu.Unlock()
	select {
	case <-a.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return err
}

// record is the client's status callback: it only stores and wakes the
// emitter, so the client never waits on JavaScript.
func (a *App) record(s client.Status) {
	a.mu.Lock()
	a.statuses[key{s.SessionID, wire.Language(s.Language), s.Slot}] = s
	a.mu.Unlock()
	a.kick()
}

// message renders a server message in the current locale and queues it
// for the emitter, so the connection's handler never waits on JavaScript.
func (a *App) message(m client.Message) {
	a.mu.Lock()
	a.messages = append(a.messages, MessageJSON(m, a.cat))
	a.mu.Unlock()
	a.kick()
}

func (a *App) kick() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// emitter renders every pair when woken, delivers the views whose JSON
// changed, and keeps a one-second tick scheduled while any view shows
// elapsed time; with nothing elapsing no timer is left.
func (a *App) emitter() {
	defer close(a.done)
	for {
		select {
		case <-a.wake:
		case <-a.stop:
			return
		}
		now := a.clock.Now()
		var out []string
		a.mu.Lock()
		tick := false
		for k := range a.statuses {
			if k.slot != 0 {
				if _, ok := a.statuses[key{k.session, k.lang, 0}]; ok {
					continue // rendered with the language's first server
				}
				k.slot = 0
			}
			v := a.renderLocked(k.session, k.lang, now)
			tick = tick || v.Tick
			if js := v.JSON(); a.last[k] != js {
				a.last[k] = js
				out = append(out, js)
			}
		}
		if tick && !a.ticking {
			a.ticking = true
			a.clock.AfterFunc(TickInterval, func() {
				a.mu.Lock()
				a.ticking = false
				a.mu.Unlock()
				a.kick()
			})
		}
		msgs := a.messages
		a.messages = nil
		a.mu.Unlock()
		for _, js := range out {
			a.onView(js)
		}
		for _, js := range msgs {
			a.onMsg(js)
		}
	}
}
