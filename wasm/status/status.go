// Package status builds the view-model the page renders for one (session,
// language) pair: the lifecycle state, a short localized summary for a
// toolbar or status bar, detail lines for a popover, the one available action
// (Start, Stop, Retry), and structured progress. No presentation logic is
// left to the page: close codes become localized categories here, elapsed
// time is formatted from the locale's catalog, and transport prose never
// reaches a text.
package status

import (
	"strconv"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/i18n"
	j "github.com/kandev/lsp/wasm/jsonlite"
)

// LongInit is when a pending initialize turns into the long-running
// warning. It changes only the presentation: the connection, the request
// and the server are left alone.
const LongInit = 60 * clock.Second

// Actions the view offers.
const (
	ActionStart = "start"
	ActionStop  = "stop"
	ActionRetry = "retry"
)

// View is the status of one pair as the UI renders it. Its JSON form is what
// kandevLSP.view() and onStatus deliver.
type View struct {
	SessionID string `json:"sessionId"`
	Language  string `json:"language"`
	State     string `json:"state"`
	// Summary is one short line for a toolbar or status bar.
	Summary string `json:"summary"`
	// Label is the control's text: the summary named by its language
	// ("Go · Ready"), so several open files are never ambiguous.
	Label string `json:"label"`
	// Details are the lines of the popover or drawer, in order.
	Details []string `json:"details"`
	// Action is "start", "stop", "retry", or null when none applies.
	Action *string `json:"action"`
	// ActionLabel is the action's localized button text, or null.
	ActionLabel *string `json:"actionLabel"`
	// Progress is the primary server-reported work item, or null.
	Progress *Progress `json:"progress"`
	// Initializing is set while initialize is pending after launch.
	Initializing *Initializing `json:"initializing"`
	// Finished is the last server-reported work item that ended, or null.
	Finished *Finished `json:"finished"`
	// Reconnect is the automatic reconnect under way, or null.
	Reconnect *Reconnect `json:"reconnect"`
	// CloseCode is the close code that ended the connection, or null.
	CloseCode *int `json:"closeCode"`
	// Message is server or task-host text shown verbatim (an install
	// failure detail, an initialize error message); omitted when empty.
	Message      string `json:"message,omitempty"`
	Experimental bool   `json:"experimental"`
	// InstallLabel is set, to the localized text of an Install button,
	// when the server is missing and the task host has an installer for it
	// (close code 4001): a page may offer to turn on auto-install for the
	// language and retry, which installs it. Null otherwise.
	InstallLabel *string `json:"installLabel"`
	// Documents counts the pair's open documents.
	Documents int `json:"documents"`
	// Server is the catalog id of the pair's server, "" before the task
	// host named the language's default one.
	Server string `json:"server"`
	// Slot is the server's place in the language's list (0: the first).
	Slot int `json:"slot"`
	// Servers, when the language has several servers, is the view of each
	// one in the list's order (Combine), the first's fields above; nil
	// with one server.
	Servers []View `json:"servers,omitempty"`
	// Tick is true while the view changes with time alone (elapsed time),
	// so the owner re-renders it every second.
	Tick bool `json:"-"`
}

// Progress is the primary work item: server title and message verbatim,
// percentage (0–100, null when the server reports none), locally measured
// elapsed time, and how many other items are active.
type Progress struct {
	_          [0]func() // incomparable: spares lsp.wasm an equality function
	Title      string    `json:"title"`
	Message    string    `json:"message"`
	Percentage *int      `json:"percentage"`
	ElapsedMs  int64     `json:"elapsedMs"`
	Others     int       `json:"others"`
}

// Initializing is the pending initialize: elapsed time measured in this
// browser and whether it counts as long-running.
type Initializing struct {
	ElapsedMs int64 `json:"elapsedMs"`
	Long      bool  `json:"long"`
}

// Reconnect is an automatic reconnect under way: the attempt (1 the
// first) and the time since the path was lost, measured in this browser.
type Reconnect struct {
	Attempt   int   `json:"attempt"`
	ElapsedMs int64 `json:"elapsedMs"`
}

// Finished is the last ended work item.
type Finished struct {
	_       [0]func() // incomparable: spares lsp.wasm an equality function
	Title   string    `json:"title"`
	Message string    `json:"message"`
}

// JSON encodes the view for JavaScript (parsed once with JSON.parse).
func (v View) JSON() string {
	return string(v.AppendJSON(make([]byte, 0, 256)))
}

// AppendJSON appends v as JSON, as encoding/json would for its tags.
func (v View) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"sessionId":`)
	b = j.AppendString(b, v.SessionID)
	b = j.AppendLit(b, `,"language":`)
	b = j.AppendString(b, v.Language)
	b = j.AppendLit(b, `,"state":`)
	b = j.AppendString(b, v.State)
	b = j.AppendLit(b, `,"summary":`)
	b = j.AppendString(b, v.Summary)
	b = j.AppendLit(b, `,"label":`)
	b = j.AppendString(b, v.Label)
	b = j.AppendLit(b, `,"details":`)
	if v.Details == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendStrings(b, v.Details)
	}
	b = j.AppendLit(b, `,"action":`)
	if v.Action == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendString(b, *v.Action)
	}
	b = j.AppendLit(b, `,"actionLabel":`)
	if v.ActionLabel == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendString(b, *v.ActionLabel)
	}
	b = j.AppendLit(b, `,"progress":`)
	if p := v.Progress; p == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendLit(b, `{"title":`)
		b = j.AppendString(b, p.Title)
		b = j.AppendLit(b, `,"message":`)
		b = j.AppendString(b, p.Message)
		b = j.AppendLit(b, `,"percentage":`)
		if p.Percentage == nil {
			b = j.AppendNull(b)
		} else {
			b = j.AppendInt(b, int64(*p.Percentage))
		}
		b = j.AppendLit(b, `,"elapsedMs":`)
		b = j.AppendInt(b, p.ElapsedMs)
		b = j.AppendLit(b, `,"others":`)
		b = j.AppendInt(b, int64(p.Others))
		b = append(b, '}')
	}
	b = j.AppendLit(b, `,"initializing":`)
	if i := v.Initializing; i == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendLit(b, `{"elapsedMs":`)
		b = j.AppendInt(b, i.ElapsedMs)
		b = j.AppendLit(b, `,"long":`)
		b = j.AppendBool(b, i.Long)
		b = append(b, '}')
	}
	b = j.AppendLit(b, `,"finished":`)
	if f := v.Finished; f == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendLit(b, `{"title":`)
		b = j.AppendString(b, f.Title)
		b = j.AppendLit(b, `,"message":`)
		b = j.AppendString(b, f.Message)
		b = append(b, '}')
	}
	b = j.AppendLit(b, `,"reconnect":`)
	if r := v.Reconnect; r == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendLit(b, `{"attempt":`)
		b = j.AppendInt(b, int64(r.Attempt))
		b = j.AppendLit(b, `,"elapsedMs":`)
		b = j.AppendInt(b, r.ElapsedMs)
		b = append(b, '}')
	}
	b = j.AppendLit(b, `,"closeCode":`)
	if v.CloseCode == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendInt(b, int64(*v.CloseCode))
	}
	if v.Message != "" {
		b = j.AppendLit(b, `,"message":`)
		b = j.AppendString(b, v.Message)
	}
	b = j.AppendLit(b, `,"experimental":`)
	b = j.AppendBool(b, v.Experimental)
	b = j.AppendLit(b, `,"installLabel":`)
	if v.InstallLabel == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendString(b, *v.InstallLabel)
	}
	b = j.AppendLit(b, `,"documents":`)
	b = j.AppendInt(b, int64(v.Documents))
	b = j.AppendLit(b, `,"server":`)
	b = j.AppendString(b, v.Server)
	b = j.AppendLit(b, `,"slot":`)
	b = j.AppendInt(b, int64(v.Slot))
	if v.Servers != nil {
		b = j.AppendLit(b, `,"servers":[`)
		for i, x := range v.Servers {
			if i > 0 {
				b = append(b, ',')
			}
			b = x.AppendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// Combine is the view of a language served by several servers: the first
// server's view, naming every server's state in its label ("TypeScript ·
// tsgo Ready · eslint Installing") and carrying each one's view in
// Servers, so a popover can list them with their own action.
func Combine(views []View, cat *i18n.Catalog) View {
	if len(views) < 2 {
		return views[0]
	}
	v := views[0]
	v.Servers = views
	v.Summary = ""
	for i, x := range views {
		if i > 0 {
			v.Summary += " · "
		}
		v.Summary += cat.T("control.server", "server", serverName(x.Language, x.Server), "summary", x.Summary)
		v.Tick = v.Tick || x.Tick
	}
	v.Label = cat.T("control.label", "language", DisplayName(v.Language), "summary", v.Summary)
	return v
}

// Server is the binary name of a language's server, as users know it.
func Server(lang string) string {
	switch wire.Language(lang) {
	case wire.Go:
		return "gopls"
	case wire.TypeScript:
		return "typescript-language-server"
	case wire.Python:
		return "pyright-langserver"
	case wire.Rust:
		return "rust-analyzer"
	case wire.Kotlin:
		return "kotlin-lsp"
	}
	if id, ok := wire.DefaultServer(wire.Language(lang)); ok {
		return id // the catalog id names the command of the newer servers
	}
	return lang
}

// serverName is how texts name a server: its catalog id, or for the
// language's default server the name users know it by (Server).
func serverName(lang, id string) string {
	if def, _ := wire.DefaultServer(wire.Language(lang)); id == "" || id == def {
		return Server(lang)
	}
	return id
}

// DisplayName is a language's English name for texts (the built-in
// catalog's), or lang itself for a language it does not know.
func DisplayName(lang string) string {
	if l, ok := wire.Lookup(lang); ok {
		return l.DisplayName
	}
	return lang
}

// Build derives the view of s at local time now (Clock milliseconds) in the
// catalog's locale.
//
// It is table-like on purpose (lsp.wasm pays for every call site): each
// branch only picks catalog keys, joined by "|", and one loop turns them into
// text. Two keys are special: "=" is s.Message verbatim (a task host's
// install detail, which may contain anything, "|" included) and "#" is the
// count of other work items.
func Build(s client.Status, cat *i18n.Catalog, now int64) View {
	v := View{
		SessionID:    s.SessionID,
		Language:     s.Language,
		State:        string(s.State),
		Documents:    s.Documents,
		Experimental: s.Language == string(wire.Kotlin),
		Server:       s.Server,
		Slot:         s.Slot,
	}
	if s.CloseCode != 0 {
		code := s.CloseCode
		v.CloseCode = &code
	}
	// Placeholder values, filled as the branches learn them.
	a := []string{"server", serverName(s.Language, s.Server), "language", DisplayName(s.Language),
		"elapsed", "", "since", "", "title", "", "message", s.Message, "pct", "", "attempt", ""}
	const elapsedAt, sinceAt, titleAt, messageAt, pctAt, attemptAt = 5, 7, 9, 11, 13, 15

	summary, act, keys := "", "", ""
	work := s.Progress.Primary
	switch s.State {
	case client.StateOff:
		summary, act, keys = "state.off", ActionStart, "off.detail|off.start"
	case client.StateConnecting:
		summary, act, keys = "state.connecting", ActionStop, "connecting.detail"
	case client.StateReconnecting:
		// Stop gives up; the time since the drop moves, so the view ticks.
		summary, act, keys = "state.reconnecting", ActionStop, "reconnecting.detail|reconnecting.kept"
		a[attemptAt] = strconv.Itoa(max(s.Attempt, 1))
		a[sinceAt] = cat.Elapsed(max(now-s.LostAt, 0))
		v.Reconnect = &Reconnect{Attempt: max(s.Attempt, 1), ElapsedMs: max(now-s.LostAt, 0)}
		work = nil
	case client.StateInstalling:
		summary, act, keys = "state.installing", ActionStop, "installing.detail"
	case client.StateStarting:
		act = ActionStop // kept through the long-running warning
		if !s.Launched || s.InitSince == 0 {
			summary, keys, work = "state.starting", "starting.detail", nil
			break
		}
		el := max(now-s.InitSince, 0)
		long := el >= LongInit.Milliseconds()
		v.Initializing = &Initializing{ElapsedMs: el, Long: long}
		a[elapsedAt] = cat.Elapsed(el)
		summary, keys = "init.summary", "init.launched|init.elapsed"
		if long {
			summary, keys = "init.long.summary", keys+"|init.long"
			if v.Experimental {
				keys += "|init.long.kotlin"
			}
		}
	case client.StateReady:
		summary, act, keys = "state.ready", ActionStop, "ready.detail"
		f := s.Progress.Finished
		switch {
		case work != nil:
		case f != nil:
			v.Finished = &Finished{Title: f.Title, Message: f.Message}
			// Servers may end work that began with an empty title: the
			// message stands in for it, and with neither the sentence
			// ends without a colon rather than with nothing after it.
			title, message := f.Title, f.Message
			if title == "" {
				title, message = message, ""
			}
			a[titleAt], a[messageAt] = title, message
			switch {
			case title == "":
				keys += "|work.finished.untitled|work.finished.note|ready.investigate"
			case message != "":
				keys += "|work.finished.msg|work.finished.note|ready.investigate"
			default:
				keys += "|work.finished|work.finished.note|ready.investigate"
			}
		default:
			keys += "|ready.noProgress|ready.investigate"
		}
	case client.StateStopping:
		summary, keys, work = "state.stopping", "stopping.detail", nil
	default: // error, unavailable
		summary, keys = failure(&v, s)
		work = nil
		if s.CloseCode != int(wire.CloseExecutorUnsupported) {
			act = ActionRetry
		}
	}

	if work != nil {
		el := max(now-work.Started, 0)
		p := &Progress{Title: work.Title, Message: work.Message, ElapsedMs: el, Others: s.Progress.Others}
		v.Progress = p
		a[titleAt], a[messageAt], a[sinceAt] = work.Title, work.Message, cat.Elapsed(el)
		keys += "|work.title"
		if work.Message != "" {
			keys += "|work.message"
		}
		summary = "work.summary"
		if work.Percentage >= 0 {
			pct := work.Percentage
			p.Percentage = &pct
			a[pctAt] = cat.N("percent", pct)
			summary, keys = "work.summary.pct", keys+"|work.percent"
		} else {
			keys += "|work.indeterminate"
		}
		keys += "|work.elapsed"
		if p.Others > 0 {
			keys += "|#"
		}
		keys += "|work.incomplete"
	}
	if v.Experimental {
		keys += "|experimental"
	}

	v.Summary = cat.T(summary, a...)
	if work != nil && s.Progress.Others > 0 {
		v.Summary = cat.T("work.withMore", "summary", v.Summary, "more", cat.N("work.more", s.Progress.Others))
	}
	v.Label = cat.T("control.label", "language", DisplayName(s.Language), "summary", v.Summary)
	v.Details = []string{}
	for start, i := 0, 0; i <= len(keys); i++ {
		if i < len(keys) && keys[i] != '|' {
			continue
		}
		k := keys[start:i]
		start = i + 1
		switch k {
		case "=":
			k = s.Message
		case "#":
			k = cat.N("work.others", s.Progress.Others)
		default:
			k = cat.T(k, a...)
		}
		v.Details = append(v.Details, k)
	}
	if v.CloseCode != nil && *v.CloseCode == int(wire.CloseBinaryMissing) && s.State != client.StateOff {
		label := cat.T("action.install")
		v.InstallLabel = &label
	}
	if act != "" {
		label := cat.T("action." + act)
		v.Action, v.ActionLabel = &act, &label
	}
	v.Tick = v.Initializing != nil || v.Progress != nil || v.Reconnect != nil
	return v
}

// failure picks the keys of an error or unavailable state from its close
// code; the server's own initialize error and a task host's install detail
// are kept verbatim, transport prose is never shown.
func failure(v *View, s client.Status) (summary, keys string) {
	code := s.CloseCode
	switch {
	case s.Encoding != "":
		v.Message = s.Encoding
		return "encoding.failed", "encoding.failed.detail"
	case code == 0 && s.Message != "":
		v.Message = s.Message
		return "init.failed", "init.failed.detail"
	case code >= 4001 && code <= 4008:
		key := "close." + strconv.Itoa(code)
		switch {
		case code == int(wire.CloseInstallFailed) && s.Message != "":
			v.Message = s.Message
			return key, "="
		case code == int(wire.CloseNoInstaller) && s.Language == string(wire.Kotlin):
			return key, key + ".kotlin"
		case code == int(wire.CloseNoInstaller) && s.Language == string(wire.Rust):
			return key, key + ".rust"
		}
		return key, key + ".detail"
	case code == 1000 || code == 1001:
		return "close.closed", "close.closed.detail"
	case code == int(wire.CloseServiceRestart):
		return "close.restart", "close.restart.detail"
	}
	return "close.lost", "close.lost.detail"
}
