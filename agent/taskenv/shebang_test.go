package taskenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// An npm launcher's "#!/usr/bin/env node" resolves like discovery does:
// the node in a workspace directory on the task PATH is skipped for the one
// outside it; anything that is not a plain env shebang is left to the
// kernel.
func TestInterpreter(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	planted := filepath.Join(ws, "node_modules", ".bin")
	tools := t.TempDir()
	for _, dir := range []string{planted, tools} {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "node"), []byte("#!/bin/sh\n"), 0o755))
	}
	scripts := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(scripts, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o755))
		return p
	}
	env := New(map[string]string{"PATH": planted + ":" + tools}).WithWorkspace(ws)
	env.GOOS = "linux"

	got, ok := env.Interpreter(script("launcher", "#!/usr/bin/env node\nrequire('./cli.js')\n"))
	require.True(t, ok)
	require.Equal(t, filepath.Join(tools, "node"), got, "the workspace's node is never the interpreter")
	got, ok = env.Interpreter(script("crlf", "#!/usr/bin/env  node\r\n"))
	require.True(t, ok)
	require.Equal(t, filepath.Join(tools, "node"), got)

	for name, body := range map[string]string{
		"binary":       "\x7fELF\x02\x01\x01",
		"absolute":     "#!/usr/bin/node\n",
		"env flags":    "#!/usr/bin/env -S node --max-old-space-size=4096\n",
		"env path":     "#!/usr/bin/env ./node\n",
		"not on PATH":  "#!/usr/bin/env deno\n",
		"empty":        "",
		"no interp":    "#!/usr/bin/env\n",
		"long comment": "# " + string(make([]byte, 400)) + "\n",
	} {
		_, ok := env.Interpreter(script(name, body))
		require.False(t, ok, name)
	}
	_, ok = env.Interpreter(filepath.Join(scripts, "missing"))
	require.False(t, ok)

	win := New(map[string]string{"PATH": tools})
	win.GOOS = "windows"
	_, ok = win.Interpreter(script("win", "#!/usr/bin/env node\n"))
	require.False(t, ok, "Windows launchers are .cmd shims")
}
