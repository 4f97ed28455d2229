package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The operator catalog its task hosts' agents run is given to the relay
// too: users may choose its servers in their settings, the runtime route
// lists them after the built-in ones, and an id neither catalog has is
// still refused with the field named.
func TestOperatorCatalogServersAreChoosable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "catalog.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"servers":[{"id":"company-yaml","languages":["yaml"],
		"command":"company-yaml-ls","args":["--stdio"],"install":{"kind":"manual","guidance":"ask IT"}}]}`), 0o600))
	r := start(t, filepath.Join(dir, "s.db"), nil, "-insecure-no-browser-auth", "-catalog", file)
	defer r.stop()

	status, body := req(t, "GET", r.base+"/api/v1/lsp/runtime", "", nil)
	require.Equal(t, 200, status, body)
	var rt struct {
		Languages []struct {
			ID      string   `json:"id"`
			Servers []string `json:"servers"`
		} `json:"languages"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &rt))
	for _, l := range rt.Languages {
		if l.ID == "yaml" {
			assert.Equal(t, []string{"yaml-language-server", "company-yaml"}, l.Servers)
		}
	}

	status, body = req(t, "PUT", r.base+"/api/v1/user/settings", `{"lsp_language_servers":{"yaml":["company-yaml","yaml-language-server"]},"lsp_server_configs":{"company-yaml":{"strict":true}}}`, nil)
	require.Equal(t, 200, status, body)
	assert.Contains(t, body, `"yaml":["company-yaml","yaml-language-server"]`)
	assert.Contains(t, body, `"company-yaml":{"strict":true}`)

	status, body = req(t, "PUT", r.base+"/api/v1/user/settings", `{"lsp_language_servers":{"json":["company-yaml"]}}`, nil)
	assert.Equal(t, 400, status, "an operator's server of another language")
	assert.Contains(t, body, `unknown server \"company-yaml\" (one of vscode-json-language-server)`)
}

// A bad operator catalog stops the relay at start, naming the entry and
// the field, as it stops the agent.
func TestBadOperatorCatalogStopsTheRelay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file, sessions := filepath.Join(dir, "catalog.json"), filepath.Join(dir, "sessions.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"servers":[{"id":"zig","languages":["zig"],"command":"zls","install":{"kind":"manual"}}]}`), 0o600))
	require.NoError(t, os.WriteFile(sessions, []byte(`{"sessions":[]}`), 0o600))
	var out syncBuffer
	err := run(t.Context(), []string{"-sessions", sessions, "-db", filepath.Join(dir, "s.db")}, []string{"KANDEV_RELAY_CATALOG=" + file}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `server "zig" (servers[0]): field languages: unknown language "zig"`)
	assert.Empty(t, out.String(), "nothing listens")
}
