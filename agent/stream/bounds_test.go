//go:build linux

package stream

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// Each stdout bound closes the stream with 4006 (a proxy stream failure)
// and stops the server, without allocating what the peer announced.
func TestStdoutHeaderBounds(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", framing.MaxHeaderLine)
	block := strings.Repeat("X-Pad: "+strings.Repeat("p", 1000)+"\\r\\n", framing.MaxHeaderBlock/1000+1)
	for name, header := range map[string]string{
		"line":  "X-Long: " + line + "\\r\\n",
		"block": block + "Content-Length: 2\\r\\n\\r\\n{}",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, "echo $$ > server.pid; printf '"+header+"'; exec sleep 1000")
			c, _ := readReady(t, f)
			server := pidFrom(t, f, "server.pid")
			requireClose(t, c, int(wire.CloseServerExited))
			waitFor(t, func() bool { return !alive(server) })
		})
	}
}

// Missing servers: 4001 where this host could install the server but the
// request did not ask, 4007 where it has no installer. A Windows task host
// (injected OS) has none for rust-analyzer, with or without autoInstall;
// kotlin has none anywhere.
func TestMissingServerCodesByOS(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		goos, lang string
		code       wire.CloseCode
	}{
		{"linux", "rust", wire.CloseBinaryMissing},
		{"darwin", "rust", wire.CloseBinaryMissing},
		{"windows", "rust", wire.CloseNoInstaller},
		{"windows", "rust&autoInstall=true", wire.CloseNoInstaller},
		{"windows", "kotlin", wire.CloseNoInstaller},
		{"windows", "python", wire.CloseBinaryMissing},
	} {
		f := newFixture(t, "", func(cfg *Config) { cfg.Env.GOOS = c.goos })
		conn, _, err := dial(t, f, c.lang, token)
		require.NoError(t, err)
		ce := closeStatus(t, conn)
		require.Equal(t, websocket.StatusCode(c.code), ce.Code, "%s %s", c.goos, c.lang)
		require.Empty(t, ce.Reason)
	}
}

// Spec: a Windows Local PC task host has no rust-analyzer installer, yet
// runs one installed by hand. The task env describes Windows (GOOS, a
// ;-separated Path, PATHEXT) and its Path names a directory holding
// rust-analyzer.exe; the request asks for auto-install, as the setting
// makes the browser do. The stream must not close 4007 (that is only for
// a missing server): it becomes ready and bridges that very executable,
// with the handler's installers present or not, since a found server never
// reaches the installer decision.
//
// No Windows host runs this: the lookup is the agent's own, under Windows
// rules, over this host's file system. A Windows Path entry "//x/bin" is
// absolute (UNC-shaped) and Windows joins it with a backslash, so the
// file it looks for is, to Linux, "bin\rust-analyzer.exe" in x: that file
// is a shell script standing in for the .exe, which records the path it
// was started as and its pid, then echoes every frame like the fixture's
// "exec cat" server.
func TestWindowsRunsManualRustAnalyzer(t *testing.T) {
	t.Parallel()
	for name, installs := range map[string]func() *install.Manager{
		"no installers":   func() *install.Manager { return nil },
		"with installers": func() *install.Manager { return install.New(install.Config{}) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			dir := "/" + root + "/bin" // "//tmp/…/bin": absolute under Windows rules
			exe := dir + `\rust-analyzer.exe`
			// Absolute commands: the server's Path is the Windows one,
			// which no Linux shell can search. The pid comes last: once
			// it is there, so is the path.
			server := "#!/bin/sh\nprintf '%s\\n' \"$0\" > server.path\necho $$ > server.pid\nexec /bin/cat\n"
			require.NoError(t, os.WriteFile(exe, []byte(server), 0o755))
			f := newFixture(t, "", func(cfg *Config) {
				env := taskenv.New(map[string]string{
					"Path": `C:\Windows\system32;` + dir, "PATHEXT": ".COM;.EXE;.BAT;.CMD",
					"USERPROFILE": "/" + t.TempDir(),
				})
				env.GOOS, env.GOARCH = "windows", "amd64"
				cfg.Env, cfg.Installs = env, installs()
			})
			c, _, err := dial(t, f, "rust&"+wire.ParamAutoInstall+"=true", token)
			require.NoError(t, err)
			st := readStatus(t, c)
			require.Equal(t, wire.StatusReady, st.Status, "not 4007: the server is there")
			require.Equal(t, "rust-analyzer", st.Server)

			pid := pidFrom(t, f, "server.pid")
			started, err := os.ReadFile(filepath.Join(f.ws, "server.path"))
			require.NoError(t, err)
			require.Equal(t, exe, strings.TrimSpace(string(started)), "the Path's rust-analyzer.exe runs")
			msg := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
			require.NoError(t, c.Write(testCtx(t), websocket.MessageText, []byte(msg)))
			_, got, err := c.Read(testCtx(t))
			require.NoError(t, err)
			require.Equal(t, msg, string(got), "frames reach that server and come back")

			require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
			waitFor(t, func() bool { return !alive(pid) })
		})
	}
}

// A peer that stops reading, seen from the raw TCP side: the agent's
// socket writes fill the connection, the injected write deadline fires,
// the server is stopped and the agent drops the connection.
func TestStalledPeerRawTCP(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("x", 1<<16)
	script := "echo $$ > server.pid\nwhile :; do printf 'Content-Length: 65536\\r\\n\\r\\n" + body + "'; done"
	f := newFixture(t, script, func(c *Config) { c.WriteTimeout = 100 * time.Millisecond })
	rc, err := dialRaw(f.url("go"), token)
	require.NoError(t, err)
	defer rc.close()
	_, err = rc.read() // ready; then never read again
	require.NoError(t, err)
	server := pidFrom(t, f, "server.pid")
	waitFor(t, func() bool { return !alive(server) })

	// Draining now must end in the agent's close, not in our timeout.
	require.NoError(t, rc.conn.SetReadDeadline(time.Now().Add(20*time.Second)))
	buf := make([]byte, 1<<20)
	for {
		if _, err = rc.conn.Read(buf); err != nil {
			break
		}
	}
	require.False(t, errors.Is(err, os.ErrDeadlineExceeded), "the agent dropped the connection")
}

// The stdout forwarder ending (the server closed stdout) releases a stdin
// write that would otherwise wait out its whole timeout: the stream ends
// at once with 4006 although the stdin timeout is an hour.
func TestStdoutEndReleasesStdinWrite(t *testing.T) {
	t.Parallel()
	// The server never reads stdin, and closes stdout once told to by a
	// file in the workspace (polling is the server's behaviour here).
	f := newFixture(t, "echo $$ > server.pid; while [ ! -e go ]; do sleep 0.01; done; exec 1>&-; exec sleep 1000",
		func(c *Config) { c.StdinWriteTimeout = time.Hour })
	c, _ := readReady(t, f)
	server := pidFrom(t, f, "server.pid")
	// More than the stdin pipe holds: the agent's stdin write blocks.
	require.NoError(t, c.Write(testCtx(t), websocket.MessageText, make([]byte, 4<<20)))
	require.NoError(t, os.WriteFile(filepath.Join(f.ws, "go"), nil, 0o644))
	requireClose(t, c, int(wire.CloseServerExited))
	waitFor(t, func() bool { return !alive(server) })
}

// The write deadline covers our writes only: a session idle for longer
// than the write timeout still answers the peer's ping (the library's pong
// write must not inherit an expired deadline).
func TestIdleSessionAnswersPing(t *testing.T) {
	t.Parallel()
	const timeout = 50 * time.Millisecond
	f := newFixture(t, "exec cat", func(c *Config) { c.WriteTimeout = timeout })
	c, _ := readReady(t, f) // the ready frame armed the deadline once
	go func() {
		for { // the client's reader delivers the pong to Ping
			if _, _, err := c.Read(testCtx(t)); err != nil {
				return
			}
		}
	}()
	// The condition is elapsed wall time itself: let the deadline that the
	// ready frame set pass.
	time.Sleep(4 * timeout)
	require.NoError(t, c.Ping(testCtx(t)))
	require.NoError(t, c.Write(testCtx(t), websocket.MessageText, []byte(`{}`)))
}
