//go:build linux

package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// standInNPM stands in for `npm ci` on the task PATH: for pyright it fails
// as npm does on a missing package; otherwise it publishes a
// typescript-language-server launcher that echoes what it is sent.
const standInNPM = `#!/bin/sh
if grep -q '"pyright"' package.json; then echo "npm error 404 Not Found - GET https://registry.example/pyright"; exit 1; fi
mkdir -p node_modules/.bin
printf '#!/bin/sh\nexec cat\n' > node_modules/.bin/typescript-language-server
chmod +x node_modules/.bin/typescript-language-server
echo "added 1 package"
`

// An auto-install shows on /metrics: a successful npm install counts once
// in kandev_agent_installs_total{result="installed"} and is timed in
// kandev_agent_install_duration_seconds, a failed one counts under
// result="failed"; a later stream that finds the install in the cache
// counts nothing.
func TestInstallMetrics(t *testing.T) {
	t.Parallel()
	ws, home, bin := t.TempDir(), t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "npm"), []byte(standInNPM), 0o755))
	s, err := New(Config{
		Workspace: ws, Token: token, Env: map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": home},
		StopGrace: time.Second, KillGrace: time.Second,
	})
	require.NoError(t, err)
	hs := httptest.NewServer(s)
	t.Cleanup(func() { _ = s.Shutdown(context.Background()); hs.Close() })

	const (
		tsInstalled   = `kandev_agent_installs_total{language="typescript",result="installed"}`
		tsTimed       = `kandev_agent_install_duration_seconds_count{language="typescript",result="installed"}`
		tsTimedInf    = `kandev_agent_install_duration_seconds_bucket{language="typescript",result="installed",le="+Inf"}`
		pyFailed      = `kandev_agent_installs_total{language="python",result="failed"}`
		pyFailedTimed = `kandev_agent_install_duration_seconds_count{language="python",result="failed"}`
	)
	_, before := scrape(t, hs, token)
	for _, k := range []string{tsInstalled, tsTimed, pyFailed} {
		require.NotContains(t, before, k, "no install yet")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// stream dials with auto-install and returns the status frames up to
	// the first that is not "installing" (the ready one or the failure).
	stream := func(lang string) (*websocket.Conn, []string) {
		u := "ws" + strings.TrimPrefix(hs.URL, "http") + wire.AgentStreamPath + "?" + wire.ParamLanguage + "=" + lang + "&" + wire.ParamAutoInstall + "=true"
		c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
		require.NoError(t, err)
		t.Cleanup(func() { c.CloseNow() })
		var seen []string
		for {
			_, b, err := c.Read(ctx)
			require.NoError(t, err)
			require.True(t, wire.IsStatusFrame(b), "%s", b)
			var st wire.Status
			require.NoError(t, json.Unmarshal(b, &st))
			seen = append(seen, st.Status)
			if st.Status == wire.StatusReady || st.Status == wire.StatusInstallFailed {
				return c, seen
			}
		}
	}

	c, seen := stream("typescript")
	require.Equal(t, []string{wire.StatusInstalling, wire.StatusInstalled, wire.StatusReady}, seen)
	_, after := scrape(t, hs, token)
	require.Equal(t, 1.0, after[tsInstalled])
	require.Equal(t, 1.0, after[tsTimed])
	require.Equal(t, 1.0, after[tsTimedInf])
	require.Contains(t, after, `kandev_agent_install_duration_seconds_sum{language="typescript",result="installed"}`)
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))

	_, seen = stream("python")
	require.Equal(t, []string{wire.StatusInstalling, wire.StatusInstallFailed}, seen)
	require.Eventually(t, func() bool {
		_, after = scrape(t, hs, token)
		return after[pyFailed] == 1
	}, 15*time.Second, 20*time.Millisecond)
	require.Equal(t, 1.0, after[pyFailedTimed])

	again, seen := stream("typescript")
	require.Equal(t, []string{wire.StatusReady}, seen, "found in the cache")
	_, after = scrape(t, hs, token)
	require.Equal(t, 1.0, after[tsInstalled], "a cache hit is no install")
	require.Equal(t, 1.0, after[tsTimed])
	require.NoError(t, again.Close(websocket.StatusNormalClosure, ""))
}
