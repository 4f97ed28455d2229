package relay

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/settings"
)

// do sends one request and returns the status and the decoded JSON body.
func do(t *testing.T, method, u, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	require.NoError(t, err)
	resp, err := testClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var v map[string]any
	if resp.Header.Get("Content-Type") == "application/json" {
		require.NoError(t, json.Unmarshal(b, &v), "%s", b)
	}
	return resp.StatusCode, v
}

func TestSettingsRoundTrip(t *testing.T) {
	t.Parallel()
	var (
		mu      sync.Mutex
		changes []settings.Settings
	)
	srv, _ := newRelay(t, Config{SettingsChanged: func(user string, s settings.Settings) {
		assert.Equal(t, settings.LocalUser, user, "without authentication, the one local user")
		mu.Lock()
		changes = append(changes, s)
		mu.Unlock()
	}})
	u := srv.URL + wire.RelaySettingsPath

	status, got := do(t, http.MethodGet, u, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{
		wire.SettingAutoStartLanguages:   []any{},
		wire.SettingAutoInstallLanguages: []any{},
		wire.SettingServerConfigs:        map[string]any{},
		wire.SettingStatusLocation:       "toolbar",
		wire.SettingLanguageServers:      map[string]any{},
		wire.SettingFormatters:           map[string]any{},
		wire.SettingServerFeatures:       map[string]any{},
	}, got, "defaults: every field present")

	status, got = do(t, http.MethodPut, u, `{"lsp_auto_start_languages":["go","typescript"],
		"lsp_server_configs":{"go":{"gopls":{"gofumpt":true}}}}`)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []any{"go", "typescript"}, got[wire.SettingAutoStartLanguages])

	// A partial update leaves the other fields.
	status, got = do(t, http.MethodPut, u, `{"lsp_status_location":"status_bar","lsp_auto_install_languages":["rust"]}`)
	require.Equal(t, http.StatusOK, status)
	status, again := do(t, http.MethodGet, u, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, got, again)
	assert.Equal(t, map[string]any{
		wire.SettingAutoStartLanguages:   []any{"go", "typescript"},
		wire.SettingAutoInstallLanguages: []any{"rust"},
		wire.SettingServerConfigs:        map[string]any{"go": map[string]any{"gopls": map[string]any{"gofumpt": true}}},
		wire.SettingStatusLocation:       "status_bar",
		wire.SettingLanguageServers:      map[string]any{},
		wire.SettingFormatters:           map[string]any{},
		wire.SettingServerFeatures:       map[string]any{},
	}, again)

	// An invalid location normalizes instead of failing.
	status, got = do(t, http.MethodPut, u, `{"lsp_status_location":"sidebar"}`)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "toolbar", got[wire.SettingStatusLocation])

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, changes, 3, "the hook sees every stored change")
	assert.Equal(t, wire.StatusLocationToolbar, changes[2].StatusLocation)
}

// Each 400 is JSON naming the field; nothing is stored.
func TestSettingsValidation(t *testing.T) {
	t.Parallel()
	srv, _ := newRelay(t, Config{})
	u := srv.URL + wire.RelaySettingsPath
	for _, tc := range []struct{ body, field string }{
		{`{"lsp_auto_start_languages":["cobol"]}`, wire.SettingAutoStartLanguages},
		{`{"lsp_auto_install_languages":["kotlin"]}`, wire.SettingAutoInstallLanguages},
		{`{"lsp_auto_install_languages":["go","klingon"]}`, wire.SettingAutoInstallLanguages},
		{`{"lsp_server_configs":{"go":"x"}}`, wire.SettingServerConfigs},
		{`{"lsp_server_configs":{"go":true}}`, wire.SettingServerConfigs},
		{`{"lsp_server_configs":{"cobol":{}}}`, wire.SettingServerConfigs},
		{`{"lsp_auto_start_languages":["go"],"theme":"dark"}`, "theme"},
		{`{"lsp_language_servers":{"typescript":["deno"]}}`, wire.SettingLanguageServers},
		{`{"lsp_language_servers":{"python":["tsgo"]}}`, wire.SettingLanguageServers},
		{`{"lsp_language_servers":{"cobol":["gopls"]}}`, wire.SettingLanguageServers},
		{`{"lsp_language_servers":{"typescript":["tsgo","tsgo"]}}`, wire.SettingLanguageServers},
		{`{"lsp_language_servers":{"go":"gopls"}}`, wire.SettingLanguageServers},
		{`{"lsp_formatters":{"typescript":"gopls"}}`, wire.SettingFormatters},
		{`{"lsp_server_features":{"eslint":["spelling"]}}`, wire.SettingServerFeatures},
		{`{"lsp_server_features":{"../eslint":["diagnostics"]}}`, wire.SettingServerFeatures},
	} {
		status, got := do(t, http.MethodPut, u, tc.body)
		require.Equal(t, http.StatusBadRequest, status, tc.body)
		assert.Equal(t, tc.field, got["field"], tc.body)
		assert.Contains(t, got["error"], tc.field, tc.body)
	}
	status, got := do(t, http.MethodPut, u, `[1]`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.NotEmpty(t, got["error"])
	status, _ = do(t, http.MethodPut, u, `{"lsp_server_configs":{"go":{"x":"`+strings.Repeat("y", maxSettingsBody)+`"}}}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)

	_, stored := do(t, http.MethodGet, u, "")
	assert.Equal(t, []any{}, stored[wire.SettingAutoStartLanguages], "a rejected update stores nothing")
}

// lsp_language_servers chooses among the built-in servers of each
// language; a choice the built-in catalog does not list for that language
// is refused with the field named, and nothing of the request is stored.
func TestLanguageServersSetting(t *testing.T) {
	t.Parallel()
	srv, _ := newRelay(t, Config{})
	u := srv.URL + wire.RelaySettingsPath
	status, got := do(t, http.MethodPut, u, `{"lsp_language_servers":{"typescript":["tsgo"],"python":["basedpyright"],"go":[]}}`)
	require.Equal(t, http.StatusOK, status)
	want := map[string]any{"typescript": []any{"tsgo"}, "python": []any{"basedpyright"}}
	assert.Equal(t, want, got[wire.SettingLanguageServers], "an empty list is the default")

	for body, msg := range map[string]string{
		`{"lsp_auto_start_languages":["go"],"lsp_language_servers":{"typescript":["my-ts"]}}`: `"typescript": unknown server "my-ts" (one of typescript-language-server, tsgo, eslint, tailwindcss-language-server)`,
		`{"lsp_language_servers":{"typescript":["../../bin/sh"]}}`:                            `"typescript": unknown server "../../bin/sh" (one of typescript-language-server, tsgo, eslint, tailwindcss-language-server)`,
		`{"lsp_language_servers":{"typescript":["eslint","tsgo","eslint"]}}`:                  `"typescript": server "eslint" is listed twice`,
		`{"lsp_language_servers":{"klingon":["gopls"]}}`:                                      `unknown language "klingon"`,
		`{"lsp_language_servers":["tsgo"]}`:                                                   `must be an object of language ids to arrays of server ids`,
	} {
		status, got := do(t, http.MethodPut, u, body)
		require.Equal(t, http.StatusBadRequest, status, body)
		assert.Equal(t, wire.SettingLanguageServers, got["field"], body)
		assert.Equal(t, wire.SettingLanguageServers+": "+msg, got["error"], body)
	}
	_, stored := do(t, http.MethodGet, u, "")
	assert.Equal(t, want, stored[wire.SettingLanguageServers], "nothing of a refused update is stored")
	assert.Equal(t, []any{}, stored[wire.SettingAutoStartLanguages], "not even its valid fields")

	status, got = do(t, http.MethodPut, u, `{"lsp_language_servers":null}`)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{}, got[wire.SettingLanguageServers], "null: every language's default")

	// Several servers on a language's files, in order, with the one that
	// formats them and what the additional one is used for.
	status, got = do(t, http.MethodPut, u, `{"lsp_language_servers":{"typescript":["tsgo","eslint"]},`+
		`"lsp_formatters":{"typescript":"eslint"},"lsp_server_features":{"eslint":["diagnostics","code-action","diagnostics"]}}`)
	require.Equal(t, http.StatusOK, status, got)
	assert.Equal(t, map[string]any{"typescript": []any{"tsgo", "eslint"}}, got[wire.SettingLanguageServers])
	assert.Equal(t, map[string]any{"typescript": "eslint"}, got[wire.SettingFormatters])
	assert.Equal(t, map[string]any{"eslint": []any{"diagnostics", "code-action"}}, got[wire.SettingServerFeatures], "repeats dropped")
}

// Settings survive a restart: a new relay on the same database file.
func TestSettingsSurviveRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "settings.db")
	open := func() (string, func()) {
		store, err := settings.OpenSQLite(path)
		require.NoError(t, err)
		rl := New(Config{Settings: store})
		srv := httptest.NewServer(rl)
		return srv.URL, func() {
			srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			require.NoError(t, rl.Close(ctx))
			require.NoError(t, store.Close())
		}
	}
	srv, stop := open()
	status, want := do(t, http.MethodPut, srv+wire.RelaySettingsPath,
		`{"lsp_auto_install_languages":["python"],"lsp_server_configs":{"python":{"python":{"venvPath":"."}}},"lsp_status_location":"status_bar",
		"lsp_language_servers":{"typescript":["tsgo"]}}`)
	require.Equal(t, http.StatusOK, status)
	stop()

	srv, stop = open()
	defer stop()
	status, got := do(t, http.MethodGet, srv+wire.RelaySettingsPath, "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, want, got)
}

func TestRuntime(t *testing.T) {
	t.Parallel()
	srv, _ := newRelay(t, Config{})
	resp, err := testClient.Get(srv.URL + wire.RelayRuntimePath)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	type language struct {
		ID            string            `json:"id"`
		Extensions    []string          `json:"extensions"`
		FileNames     []string          `json:"fileNames"`
		Patterns      []string          `json:"patterns"`
		MonacoIDs     []string          `json:"monacoIds"`
		LanguageIDs   map[string]string `json:"languageIds"`
		Experimental  bool              `json:"experimental"`
		Servers       []string          `json:"servers"`
		DefaultServer string            `json:"defaultServer"`
	}
	var got struct {
		Languages       []language `json:"languages"`
		AutoInstallable []string   `json:"autoInstallable"`
		Servers         []struct {
			ID        string   `json:"id"`
			Languages []string `json:"languages"`
		} `json:"servers"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
	require.Len(t, got.Languages, len(wire.Languages))
	for i, l := range wire.Languages {
		g := got.Languages[i]
		assert.Equal(t, string(l.Language), g.ID)
		assert.Equal(t, l.Extensions, g.Extensions)
		assert.Equal(t, l.MonacoIDs, g.MonacoIDs)
		assert.Equal(t, l.Experimental, g.Experimental)
		assert.Equal(t, l.Servers, g.Servers)
		assert.Equal(t, l.Servers[0], g.DefaultServer)
		assert.NotNil(t, g.FileNames)
		assert.NotNil(t, g.Patterns)
	}
	go_ := got.Languages[slices.IndexFunc(got.Languages, func(l language) bool { return l.ID == "go" })]
	assert.Equal(t, []string{"go.mod", "go.work"}, go_.FileNames)
	assert.Equal(t, map[string]string{"go.mod": "go.mod", "go.work": "go.work"}, go_.LanguageIDs)
	// Rust included whatever OS the relay runs on; Kotlin and C never.
	var installable []string
	ids := map[string]bool{}
	for _, l := range wire.Languages {
		if l.AutoInstallable {
			installable = append(installable, string(l.Language))
		}
		for _, id := range l.Servers {
			ids[id] = true
		}
	}
	assert.Equal(t, installable, got.AutoInstallable)
	assert.Contains(t, got.AutoInstallable, "rust")
	assert.NotContains(t, got.AutoInstallable, "kotlin")
	assert.NotContains(t, got.AutoInstallable, "c")

	// The built-in catalog: every server once, with the languages it serves.
	servers := map[string][]string{}
	for _, s := range got.Servers {
		require.NotContains(t, servers, s.ID)
		servers[s.ID] = s.Languages
	}
	assert.Len(t, servers, len(ids))
	assert.Equal(t, []string{"typescript"}, servers["tsgo"])
	assert.Equal(t, []string{"typescript"}, servers["eslint"])
	assert.Equal(t, []string{"python"}, servers["basedpyright"])
	assert.Equal(t, []string{"c"}, servers["clangd"])
}

// Another site's page cannot read or change settings or stop a task from
// the user's browser; same-origin and allowlisted origins can.
func TestStateChangingRoutesCheckOrigin(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, _ := newRelay(t, Config{Sessions: testSessions(a), OriginPatterns: []string{"app.example.com"}})
	send := func(method, path, origin, body string) int {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := testClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	put := `{"lsp_auto_start_languages":["go"]}`
	for _, origin := range []string{"https://evil.example.net", "null", "https://app.example.com.evil.net"} {
		assert.Equal(t, http.StatusForbidden, send(http.MethodPut, wire.RelaySettingsPath, origin, put), origin)
		assert.Equal(t, http.StatusForbidden, send(http.MethodPost, "/api/v1/sessions/pc/stop", origin, ""), origin)
	}
	assert.Zero(t, a.stopCalls.Load())
	assert.Equal(t, http.StatusForbidden, send(http.MethodGet, wire.RelaySettingsPath, "https://evil.example.net", ""),
		"a foreign Origin is refused on reads too")
	_, stored := do(t, http.MethodGet, srv.URL+wire.RelaySettingsPath, "")
	assert.Equal(t, []any{}, stored[wire.SettingAutoStartLanguages], "nothing stored from a foreign origin")
	for _, origin := range []string{"", srv.URL, "https://app.example.com"} {
		assert.Equal(t, http.StatusOK, send(http.MethodPut, wire.RelaySettingsPath, origin, put), origin)
	}
}
