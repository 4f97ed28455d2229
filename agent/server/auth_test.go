//go:build linux

package server

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/metrics"
	"github.com/kandev/lsp/internal/wire"
)

// Every route checks the token before anything else: without it, any
// method and any parameters get the same 401, so an anonymous peer learns
// neither which catalog ids, paths or methods the agent would accept.
func TestEveryRouteAuthenticatesFirst(t *testing.T) {
	t.Parallel()
	_, hs := start(t, map[string]string{"PATH": "/usr/bin:/bin"}, t.TempDir())
	var first string
	for _, route := range []string{
		wire.AgentStreamPath + "?language=go&server=gopls", wire.AgentStreamPath + "?language=go&server=nope",
		wire.AgentStreamPath + "?language=cobol", wire.AgentInstallersPath, wire.AgentFilesPath,
		wire.AgentFilePath + "?path=a.go", wire.AgentFilePath + "?path=../x", wire.AgentSearchPath + "?q=x",
		wire.AgentSearchPath, wire.AgentReposPath, wire.AgentTaskStopPath, metrics.Path,
		wire.AgentLibraryRootsPath, wire.AgentLibraryFilePath + "?path=/etc/passwd",
		wire.AgentEntryPath + "?path=a.go&kind=file", wire.AgentEntryPath + "?path=..",
		wire.AgentMovePath + "?from=a.go&to=b.go", wire.AgentMovePath,
	} {
		for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
			for _, tok := range []string{"", "wrong"} {
				req, err := http.NewRequest(method, hs.URL+route, nil)
				require.NoError(t, err)
				if tok != "" {
					req.Header.Set("Authorization", "Bearer "+tok)
				}
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				require.NoError(t, err)
				require.Equal(t, http.StatusUnauthorized, resp.StatusCode, "%s %s", method, route)
				require.Equal(t, "Bearer", resp.Header.Get("WWW-Authenticate"))
				require.True(t, resp.Close, "%s %s: Connection: close", method, route)
				if first == "" {
					first = string(b)
				}
				require.Equal(t, first, string(b), "%s %s", method, route)
			}
		}
	}
}
