package settings

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/jsonlite"
)

func TestParse(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(`{"lsp_auto_start_languages":["go"],"lsp_auto_install_languages":["python"],` +
		`"lsp_server_configs":{"go":{"gopls":{"staticcheck":true}},"rust":null},"lsp_status_location":"nowhere","other":1}`))
	require.NoError(t, err)
	require.Equal(t, []string{"go"}, s.AutoStart)
	require.Equal(t, []string{"python"}, s.AutoInstall)
	require.True(t, s.AutoStarts(wire.Go))
	require.False(t, s.AutoStarts(wire.Python))
	require.Equal(t, wire.StatusLocationToolbar, s.StatusLocation)
	require.Nil(t, s.Config(wire.Rust, "", true))
	require.JSONEq(t, `{"gopls":{"staticcheck":true}}`, string(s.Config(wire.Go, "", true)))

	s, err = Parse([]byte(`{"lsp_status_location":"status_bar"}`))
	require.NoError(t, err)
	require.Equal(t, wire.StatusLocationStatusBar, s.StatusLocation)
	_, err = Parse([]byte(`[`))
	require.Error(t, err)
}

// workspace/configuration is answered item by item, never with the whole
// object for a named section.
func TestSection(t *testing.T) {
	t.Parallel()
	cfg := jsonlite.Raw(`{"gopls":{"staticcheck":true,"ui":{"semanticTokens":true}},"python":{"analysis":{"typeCheckingMode":"strict"}},"flag":3}`)
	cases := []struct {
		config  jsonlite.Raw
		section string
		want    string
	}{
		{cfg, "", string(cfg)},
		{cfg, "gopls", `{"staticcheck":true,"ui":{"semanticTokens":true}}`},
		{cfg, "gopls.ui.semanticTokens", `true`},
		{cfg, "python.analysis", `{"typeCheckingMode":"strict"}`},
		{cfg, "python.analysis.missing", `null`},
		{cfg, "go", `null`},
		{cfg, "flag.deeper", `null`},
		{nil, "gopls", `null`},
		{nil, "", `null`},
		{jsonlite.Raw(`null`), "", `null`},
	}
	for _, c := range cases {
		require.JSONEq(t, c.want, string(Section(c.config, c.section)), c.section)
	}
}

func TestConfigChanged(t *testing.T) {
	t.Parallel()
	a := Settings{Configs: map[string]jsonlite.Raw{"go": jsonlite.Raw(`{"a":1}`)}}
	b := Settings{Configs: map[string]jsonlite.Raw{"go": jsonlite.Raw(`{"a":1}`)}}
	c := Settings{Configs: map[string]jsonlite.Raw{"go": jsonlite.Raw(`{"a":2}`)}}
	require.False(t, ConfigChanged(a, b, wire.Go))
	require.True(t, ConfigChanged(a, c, wire.Go))
	require.True(t, ConfigChanged(a, Settings{}, wire.Go))
	require.False(t, ConfigChanged(a, c, wire.Python))
}

// mapStore is localStorage in memory.
type mapStore struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *mapStore) Get(k string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}
func (s *mapStore) Set(k, v string) { s.mu.Lock(); s.m[k] = v; s.mu.Unlock() }
func (s *mapStore) Remove(k string) { s.mu.Lock(); delete(s.m, k); s.mu.Unlock() }

// ShouldConnect = !stoppedThisRuntime && (autoStart || manualInLocalStorage).
func TestPolicyDecision(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		auto    bool
		stored  bool   // a manual start already in local storage (e.g. from before a reload)
		actions string // s = Start, x = Stop, r = Retry, in order
		want    bool
		stored2 bool // local storage afterwards
	}{
		{name: "nothing", want: false},
		{name: "auto-start", auto: true, want: true},
		{name: "manual start survives reload", stored: true, want: true, stored2: true},
		{name: "start", actions: "s", want: true, stored2: true},
		{name: "stop suppresses auto-start", auto: true, actions: "x", want: false},
		{name: "stop forgets manual start", stored: true, actions: "x", want: false},
		{name: "start after stop", auto: true, actions: "xs", want: true, stored2: true},
		{name: "retry lifts stop but is not remembered", actions: "xr", want: false},
		{name: "retry with auto-start", auto: true, actions: "xr", want: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st := &mapStore{m: map[string]string{}}
			key := ManualKey("s1", wire.Go)
			require.Equal(t, "kandev.lsp.manual.s1.go", key)
			if c.stored {
				st.m[key] = "1"
			}
			p := NewPolicy(st)
			if c.auto {
				p.SetSettings(Settings{AutoStart: []string{"go"}})
			}
			for _, a := range c.actions {
				switch a {
				case 's':
					p.Start("s1", wire.Go)
				case 'x':
					p.Stop("s1", wire.Go)
				case 'r':
					p.Retry("s1", wire.Go)
				}
			}
			require.Equal(t, c.want, p.ShouldConnect("s1", wire.Go))
			_, ok := st.Get(key)
			require.Equal(t, c.stored2, ok)
			// Another session or language is untouched.
			require.Equal(t, c.auto, p.ShouldConnect("s2", wire.Go))
			require.False(t, p.ShouldConnect("s1", wire.Python))
		})
	}
}

// The stop is runtime-only: a new policy over the same storage (a reload or
// another window) does not inherit it, while a settings change does not lift it.
func TestStopIsRuntimeOnly(t *testing.T) {
	t.Parallel()
	st := &mapStore{m: map[string]string{}}
	p := NewPolicy(st)
	p.SetSettings(Settings{AutoStart: []string{"go"}})
	p.Stop("s", wire.Go)
	p.SetSettings(Settings{AutoStart: []string{"go", "python"}})
	require.False(t, p.ShouldConnect("s", wire.Go))

	other := NewPolicy(st)
	other.SetSettings(Settings{AutoStart: []string{"go"}})
	require.True(t, other.ShouldConnect("s", wire.Go))
}

// Parse accepts and rejects what decoding into Settings with encoding/json
// would.
func TestParseMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`{"lsp_auto_start_languages":["go",null],"lsp_server_configs":{"go":{"a":1},"py":null},"lsp_status_location":"status_bar","other":[1]}`,
		`{"lsp_auto_start_languages":null,"lsp_server_configs":null}`, `{}`, `null`,
		`{"lsp_auto_start_languages":"go"}`, `{"lsp_auto_install_languages":[1]}`, `{"lsp_server_configs":[]}`,
		`{"lsp_status_location":3}`, `[]`, `{`,
	} {
		var want struct {
			AutoStart   []string                   `json:"lsp_auto_start_languages"`
			AutoInstall []string                   `json:"lsp_auto_install_languages"`
			Configs     map[string]json.RawMessage `json:"lsp_server_configs"`
			Status      string                     `json:"lsp_status_location"`
		}
		werr := json.Unmarshal([]byte(s), &want)
		got, err := Parse([]byte(s))
		require.Equal(t, werr == nil, err == nil, s)
		if err != nil {
			continue
		}
		require.Equal(t, want.AutoStart, got.AutoStart, s)
		require.Equal(t, want.AutoInstall, got.AutoInstall, s)
		for k, v := range want.Configs {
			if string(v) != "null" {
				require.Equal(t, string(v), string(got.Configs[k]), s)
			}
		}
	}
}

func TestLanguageServers(t *testing.T) {
	s, err := Parse([]byte(`{"lsp_language_servers":{"typescript":["tsgo"],"python":[]},` +
		`"lsp_server_configs":{"typescript":{"a":1},"tsgo":{"b":2},"go":{"c":3}}}`))
	require.NoError(t, err)
	require.Equal(t, "tsgo", s.Server(wire.TypeScript))
	require.Equal(t, "", s.Server(wire.Python), "an empty list is the default server")
	require.Equal(t, "", s.Server(wire.Go))
	require.JSONEq(t, `{"b":2}`, string(s.Config(wire.TypeScript, "tsgo", true)), "the chosen server's own configuration")
	require.JSONEq(t, `{"c":3}`, string(s.Config(wire.Go, "", true)), "language keys are the default server's")

	// A chosen server without a configuration of its own keeps the
	// language's.
	s2, err := Parse([]byte(`{"lsp_language_servers":{"typescript":["tsgo"]},"lsp_server_configs":{"typescript":{"a":1}}}`))
	require.NoError(t, err)
	require.JSONEq(t, `{"a":1}`, string(s2.Config(wire.TypeScript, "tsgo", true)))
	require.True(t, ServerChanged(s, Settings{}, wire.TypeScript))
	require.False(t, ServerChanged(s, s2, wire.TypeScript))
	require.Nil(t, s2.Config(wire.TypeScript, "eslint", false), "a further server never gets the language's configuration")
}

// Several servers per language: the list in order, each server's own
// configuration, the formatter and the feature lists; a change of any
// part of the list is a change of servers.
func TestSeveralServersPerLanguage(t *testing.T) {
	s, err := Parse([]byte(`{"lsp_language_servers":{"typescript":["tsgo","eslint"]},` +
		`"lsp_server_configs":{"eslint":{"validate":"on"}},"lsp_formatters":{"typescript":"eslint"},` +
		`"lsp_server_features":{"eslint":["diagnostics","code-action"]}}`))
	require.NoError(t, err)
	require.Equal(t, []string{"tsgo", "eslint"}, s.ServerList(wire.TypeScript))
	require.JSONEq(t, `{"validate":"on"}`, string(s.Config(wire.TypeScript, "eslint", false)))
	require.Equal(t, "eslint", s.Formatters["typescript"])
	require.Equal(t, []string{"diagnostics", "code-action"}, s.Features["eslint"])
	one, err := Parse([]byte(`{"lsp_language_servers":{"typescript":["tsgo"]}}`))
	require.NoError(t, err)
	require.True(t, ServerChanged(one, s, wire.TypeScript))
	require.True(t, FeaturesChanged(one, s, wire.TypeScript))
	require.True(t, FormatterChanged(one, s, wire.TypeScript))
	require.False(t, FeaturesChanged(s, s, wire.TypeScript))
	// With no server chosen, the default's features and those of the
	// servers beside it still count.
	none, limited := Settings{}, Settings{Features: map[string][]string{"kotlin-lsp": {"diagnostics"}}}
	require.True(t, FeaturesChanged(none, limited, wire.Kotlin), "the default server's")
	require.False(t, FeaturesChanged(none, limited, wire.Go), "another language's server")
	beside := Settings{Features: map[string][]string{"vue-typescript": {"diagnostics"}}}
	require.True(t, FeaturesChanged(none, beside, wire.Language("vue")), "a server beside the default")
	_, err = Parse([]byte(`{"lsp_server_features":{"eslint":"diagnostics"}}`))
	require.Error(t, err, "a feature list must be a list")

	for _, bad := range []string{`{"lsp_language_servers":[]}`, `{"lsp_language_servers":{"go":"gopls"}}`, `{"lsp_language_servers":{"go":[1]}}`} {
		_, err := Parse([]byte(bad))
		require.Error(t, err, bad)
	}
}
