package status

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/i18n"
	"github.com/kandev/lsp/wasm/progress"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC).UnixMilli()

// ago is t0 minus d, in milliseconds.
func ago(d time.Duration) int64 { return t0 - d.Milliseconds() }

func st(lang string, state client.State, mut ...func(*client.Status)) client.Status {
	s := client.Status{SessionID: "s", Language: lang, State: state, Documents: 1}
	for _, m := range mut {
		m(&s)
	}
	return s
}

func code(c int) func(*client.Status)   { return func(s *client.Status) { s.CloseCode = c } }
func msg(m string) func(*client.Status) { return func(s *client.Status) { s.Message = m } }
func initSince(d time.Duration) func(*client.Status) {
	return func(s *client.Status) { s.Launched = true; s.InitSince = ago(d) }
}
func active(items ...progress.Item) func(*client.Status) {
	return func(s *client.Status) {
		if len(items) > 0 {
			p := items[0]
			s.Progress.Primary = &p
			s.Progress.Others = len(items) - 1
		}
	}
}
func finished(title, m string) func(*client.Status) {
	return func(s *client.Status) { s.Progress.Finished = &progress.Item{Title: title, Message: m, Percentage: -1} }
}

func TestViewTable(t *testing.T) {
	t.Parallel()
	importing := progress.Item{Title: "Importing Gradle project", Message: "resolving :app", Percentage: 42, Started: ago(75 * time.Second)}
	indexing := progress.Item{Title: "Indexing", Percentage: -1, Started: ago(3 * time.Second)}
	cases := []struct {
		name     string
		locale   string
		s        client.Status
		summary  string
		action   string // "" = null
		contains []string
		absent   []string
		message  string
		tick     bool
	}{
		{name: "off", s: st("go", client.StateOff), summary: "Off", action: "start",
			contains: []string{"The Go language server is not running for this session."}},
		{name: "connecting", s: st("go", client.StateConnecting), summary: "Connecting…", action: "stop"},
		{name: "installing", s: st("python", client.StateInstalling), summary: "Installing pyright-langserver…", action: "stop"},
		{name: "starting before launch", s: st("go", client.StateStarting), summary: "Starting…", action: "stop"},
		{name: "launched, initialize pending", s: st("go", client.StateStarting, initSince(12*time.Second)),
			summary: "Initializing (12 s)", action: "stop", tick: true,
			contains: []string{"The gopls process started. Waiting for its initialize response.", "Waiting for 12 s, measured in this browser."},
			absent:   []string{"Initialization is taking longer than usual. The server keeps running; you can keep waiting or stop it."}},
		{name: "long-running initialize keeps Stop", s: st("go", client.StateStarting, initSince(61*time.Second)),
			summary: "Initialization is taking longer than usual (1 min 1 s)", action: "stop", tick: true,
			contains: []string{"Initialization is taking longer than usual. The server keeps running; you can keep waiting or stop it."},
			absent:   []string{"Kotlin LSP may be importing a Gradle project. Cross-file features stay unavailable until initialization completes."}},
		{name: "kotlin long-running names Gradle", s: st("kotlin", client.StateStarting, initSince(2*time.Minute)),
			summary: "Initialization is taking longer than usual (2 min 0 s)", action: "stop", tick: true,
			contains: []string{"Kotlin LSP may be importing a Gradle project. Cross-file features stay unavailable until initialization completes.", "Kotlin support is experimental."}},
		{name: "kotlin initialize work with percentage", s: st("kotlin", client.StateStarting, initSince(80*time.Second), active(importing, indexing)),
			summary: "Importing Gradle project 42% · 1 more", action: "stop", tick: true,
			contains: []string{"Server-reported work: Importing Gradle project", "resolving :app", "Progress: 42%", "Running for 1 min 15 s", "1 other work item is active.", "Cross-file results may be incomplete while the server reports work."}},
		{name: "ready with indeterminate work", s: st("go", client.StateReady, active(indexing)),
			summary: "Indexing", action: "stop", tick: true,
			contains: []string{"In progress; the server reports no percentage.", "Running for 3 s", "Cross-file results may be incomplete while the server reports work."},
			absent:   []string{"The server has not reported ongoing analysis."}},
		{name: "ready, no progress reported", s: st("go", client.StateReady), summary: "Ready", action: "stop",
			contains: []string{"gopls is initialized.", "The server has not reported ongoing analysis.", "If cross-file results are missing, project import, dependencies or module resolution may need attention."},
			absent:   []string{"Cross-file results may be incomplete while the server reports work."}},
		{name: "ready, work finished", s: st("go", client.StateReady, finished("Indexing", "done 12 packages")), summary: "Ready", action: "stop",
			contains: []string{"Server-reported work finished: Indexing (done 12 packages)", "This only means the reported work item ended; not every reference or module is guaranteed to be resolved."},
			absent:   []string{"The server has not reported ongoing analysis."}},
		{name: "ready, work finished with a message only", s: st("go", client.StateReady, finished("", "done 12 packages")), summary: "Ready", action: "stop",
			contains: []string{"Server-reported work finished: done 12 packages"},
			absent:   []string{"Server-reported work finished: \n", "()"}},
		{name: "ready, work finished with neither title nor message", s: st("go", client.StateReady, finished("", "")), summary: "Ready", action: "stop",
			contains: []string{"Server-reported work finished.", "This only means the reported work item ended; not every reference or module is guaranteed to be resolved."},
			absent:   []string{"Server-reported work finished:"}},
		{name: "stopping", s: st("go", client.StateStopping), summary: "Stopping…"},
		{name: "4001 never the transport reason", s: st("python", client.StateError, code(4001)), summary: "pyright-langserver is not installed on the task host.", action: "retry",
			contains: []string{"Enable auto-install for Python in Editors settings, or install pyright-langserver on the task host."}},
		{name: "4002", s: st("go", client.StateUnavailable, code(4002)), summary: "The task environment is unavailable.", action: "retry"},
		{name: "4003 keeps install detail", s: st("python", client.StateError, code(4003), msg("npm ERR! 404 pyright | exit 1")), summary: "Installing pyright-langserver failed.", action: "retry",
			contains: []string{"npm ERR! 404 pyright | exit 1"}, message: "npm ERR! 404 pyright | exit 1"},
		{name: "4003 fallback", s: st("python", client.StateError, code(4003)), summary: "Installing pyright-langserver failed.", action: "retry",
			contains: []string{"The task host could not install pyright-langserver. Check its toolchain and network, then retry."}},
		{name: "4004 no action", s: st("go", client.StateUnavailable, code(4004)), summary: "This task host is not supported.",
			contains: []string{"Language servers run only on Local PC and local Docker tasks."}},
		{name: "4005", s: st("go", client.StateUnavailable, code(4005)), summary: "Too many language servers are active.", action: "retry"},
		{name: "4006 retry", s: st("go", client.StateError, code(4006)), summary: "The language server exited.", action: "retry",
			contains: []string{"gopls stopped unexpectedly. Retry to start it again."}},
		{name: "4007 kotlin", s: st("kotlin", client.StateError, code(4007)), summary: "kotlin-lsp must be installed manually.", action: "retry",
			contains: []string{"Install kotlin-lsp on the task host and make sure it is on the task host's PATH. Kandev does not install Kotlin LSP automatically."}},
		{name: "4007 rust", s: st("rust", client.StateError, code(4007)), summary: "rust-analyzer must be installed manually.", action: "retry",
			contains: []string{"No rust-analyzer installer is available on this task host (for example on Windows). Install rust-analyzer manually on the task host's PATH, then retry."}},
		{name: "4008 retry", s: st("go", client.StateError, code(4008)), summary: "gopls failed to start.", action: "retry"},
		{name: "1001 localized connection closed", s: st("go", client.StateUnavailable, code(1001)), summary: "The connection was closed.", action: "retry"},
		{name: "1012 relay restarting", s: st("go", client.StateUnavailable, code(1012)), summary: "The server is restarting.", action: "retry"},
		{name: "1006 lost", s: st("go", client.StateError, code(1006)), summary: "The connection was lost.", action: "retry"},
		{name: "initialize rejected keeps server message", s: st("go", client.StateError, msg("no go.mod found")), summary: "Initialization failed.", action: "retry",
			contains: []string{"The server rejected initialize: no go.mod found"}, message: "no go.mod found"},
		{name: "reconnecting", s: st("go", client.StateReconnecting, code(1006), func(s *client.Status) { s.Attempt, s.LostAt = 3, ago(7*time.Second) }),
			summary: "Reconnecting…", action: "stop", tick: true,
			contains: []string{"The connection to the task host was lost. Connecting again by itself: attempt 3, 7 s since it dropped.",
				"Your edits and the last diagnostics stay; the server gets the editor's text when it is back."},
			absent: []string{"The connection was lost."}},
		{name: "de reconnecting", locale: "de", s: st("go", client.StateReconnecting, func(s *client.Status) { s.Attempt, s.LostAt = 1, ago(2*time.Second) }),
			summary: "Neu verbinden …", action: "stop", tick: true,
			contains: []string{"Die Verbindung zum Task-Host wurde unterbrochen. Sie wird automatisch neu aufgebaut: Versuch 1 (unterbrochen seit 2 Sek.)."}},
		// Other locales.
		{name: "de 4001", locale: "de", s: st("python", client.StateError, code(4001)), summary: "pyright-langserver ist auf dem Task-Host nicht installiert.", action: "retry"},
		{name: "de 4003 fallback", locale: "de", s: st("python", client.StateError, code(4003)), summary: "Die Installation von pyright-langserver ist fehlgeschlagen.", action: "retry",
			contains: []string{"Der Task-Host konnte pyright-langserver nicht installieren. Prüfen Sie Toolchain und Netzwerk und versuchen Sie es erneut."}},
		{name: "de elapsed", locale: "de", s: st("go", client.StateStarting, initSince(time.Hour+2*time.Minute+3*time.Second)),
			summary: "Die Initialisierung dauert länger als üblich (1 Std. 2 Min. 3 Sek.)", action: "stop", tick: true},
		{name: "de work", locale: "de", s: st("go", client.StateReady, active(importing, indexing, indexing)),
			summary: "Importing Gradle project 42 % · 2 weitere", action: "stop", tick: true,
			contains: []string{"Fortschritt: 42 %", "Läuft seit 1 Min. 15 Sek.", "2 weitere Vorgänge sind aktiv."}},
		{name: "pseudo elapsed", locale: "en-XA", s: st("go", client.StateStarting, initSince(3723*time.Second)),
			summary: "[Îñîţîåļîžåţîöñ îš ţåķîñĝ ļöñĝéŕ ţĥåñ ûšûåļ ({elapsed}) ~~~~~~~~~~~~~]", action: "stop", tick: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			loc := c.locale
			if loc == "" {
				loc = "en"
			}
			v := Build(c.s, i18n.For(loc), t0)
			summary := strings.ReplaceAll(c.summary, "{elapsed}", "[1 ĥ ~] [2 ɱîñ ~~] [3 š ~]")
			require.Equal(t, summary, v.Summary)
			if c.action == "" {
				require.Nil(t, v.Action)
			} else {
				require.NotNil(t, v.Action)
				require.Equal(t, c.action, *v.Action)
			}
			for _, line := range c.contains {
				require.Contains(t, v.Details, line)
			}
			for _, line := range c.absent {
				require.NotContains(t, v.Details, line)
			}
			require.Equal(t, c.message, v.Message)
			require.Equal(t, c.tick, v.Tick)
			require.Equal(t, string(c.s.State), v.State)
		})
	}
}

// A missing server the task host can install (4001) offers Install in the
// view's locale; one it cannot (4007), an exited one, or one stopped since
// does not.
func TestInstallOffered(t *testing.T) {
	t.Parallel()
	label := func(locale string, s client.Status) *string { return Build(s, i18n.For(locale), t0).InstallLabel }
	require.Equal(t, "Install", *label("en", st("python", client.StateError, code(4001))))
	require.Equal(t, "Installieren", *label("de", st("python", client.StateError, code(4001))))
	require.Nil(t, label("en", st("kotlin", client.StateError, code(4007))))
	require.Nil(t, label("en", st("python", client.StateError, code(4006))))
	require.Nil(t, label("en", st("python", client.StateOff, code(4001))))
	require.Nil(t, label("en", st("python", client.StateReady)))
}

func TestViewJSON(t *testing.T) {
	t.Parallel()
	s := st("kotlin", client.StateStarting, initSince(80*time.Second), active(
		progress.Item{Title: "Importing", Message: "m", Percentage: 100, Started: ago(2 * time.Second)},
		progress.Item{Title: "other", Percentage: -1}))
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(Build(s, i18n.For("en"), t0).JSON()), &got))
	require.Equal(t, map[string]any{"title": "Importing", "message": "m", "percentage": 100.0, "elapsedMs": 2000.0, "others": 1.0}, got["progress"])
	require.Equal(t, map[string]any{"elapsedMs": 80000.0, "long": true}, got["initializing"])
	require.Nil(t, got["closeCode"])
	require.Equal(t, "stop", got["action"])
	require.Equal(t, true, got["experimental"])
	_, hasMsg := got["message"]
	require.False(t, hasMsg)

	v := Build(st("go", client.StateReady, active(progress.Item{Title: "x", Percentage: -1, Started: t0})), i18n.For("en"), t0)
	require.Contains(t, v.JSON(), `"percentage":null`)
	v = Build(st("go", client.StateError, code(4006)), i18n.For("en"), t0)
	require.Contains(t, v.JSON(), `"closeCode":4006`)
	require.Contains(t, v.JSON(), `"progress":null`)
}

// Spec (this product's status control): the control names its language,
// so a page with several open files is never ambiguous; the composition
// is the locale's.
func TestLabelNamesTheLanguage(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Go · Ready", Build(st("go", client.StateReady), i18n.For("en"), t0).Label)
	require.Equal(t, "Python · Bereit", Build(st("python", client.StateReady), i18n.For("de"), t0).Label)
	require.Equal(t, "Kotlin · Initializing (12 s)",
		Build(st("kotlin", client.StateStarting, initSince(12*time.Second)), i18n.For("en"), t0).Label)
	xa := Build(st("rust", client.StateOff), i18n.For("en-XA"), t0).Label
	require.True(t, strings.HasPrefix(xa, "["), xa)
	require.Contains(t, xa, "Rust")
}

// The action's button text comes localized with the view, so a German page
// shows no English label next to German texts.
func TestActionLabelLocalized(t *testing.T) {
	t.Parallel()
	cases := []struct {
		locale string
		state  client.State
		code   int
		want   string
	}{
		{"en", client.StateOff, 0, "Start"},
		{"de", client.StateOff, 0, "Starten"},
		{"de-CH", client.StateReady, 0, "Beenden"},
		{"de", client.StateError, 4006, "Erneut versuchen"},
		{"en", client.StateError, 4006, "Retry"},
	}
	for _, c := range cases {
		v := Build(client.Status{SessionID: "s", Language: "go", State: c.state, CloseCode: c.code}, i18n.For(c.locale), t0)
		require.NotNil(t, v.ActionLabel, "%s %s", c.locale, c.state)
		require.Equal(t, c.want, *v.ActionLabel, "%s %s", c.locale, c.state)
	}
	v := Build(client.Status{SessionID: "s", Language: "go", State: client.StateStopping}, i18n.For("de"), t0)
	require.Nil(t, v.Action)
	require.Nil(t, v.ActionLabel)
	require.Contains(t, v.JSON(), `"actionLabel":null`)
	xa := Build(client.Status{SessionID: "s", Language: "go", State: client.StateOff}, i18n.For("en-XA"), t0)
	require.NotEqual(t, "Start", *xa.ActionLabel, "the pseudo locale shows untranslated labels")
}
