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

	got, err := env.Interpreter(script("launcher", "#!/usr/bin/env node\nrequire('./cli.js')\n"))
	require.NoError(t, err)
	require.Equal(t, filepath.Join(tools, "node"), got, "the workspace's node is never the interpreter")
	got, err = env.Interpreter(script("crlf", "#!/usr/bin/env  node\r\n"))
	require.NoError(t, err)
	require.Equal(t, filepath.Join(tools, "node"), got)

	for name, body := range map[string]string{
		"binary":       "\x7fELF\x02\x01\x01",
		"absolute":     "#!/usr/bin/node\n",
		"env flags":    "#!/usr/bin/env -S node --max-old-space-size=4096\n",
		"env path":     "#!/usr/bin/env ./node\n",
		"empty":        "",
		"no interp":    "#!/usr/bin/env\n",
		"long comment": "# " + string(make([]byte, 400)) + "\n",
	} {
		got, err := env.Interpreter(script(name, body))
		require.NoError(t, err, name)
		require.Empty(t, got, name)
	}
	got, err = env.Interpreter(filepath.Join(scripts, "missing"))
	require.NoError(t, err)
	require.Empty(t, got)

	win := New(map[string]string{"PATH": tools})
	win.GOOS = "windows"
	got, err = win.Interpreter(script("win", "#!/usr/bin/env node\n"))
	require.NoError(t, err)
	require.Empty(t, got, "Windows launchers are .cmd shims")
}

// A launcher whose interpreter is found only inside the workspace (or
// nowhere) is an error, not a launcher to run as it is: env would search
// the task PATH and could only find the repository's.
func TestInterpreterOnlyInWorkspace(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	planted := filepath.Join(ws, "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(planted, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(planted, "node"), []byte("#!/bin/sh\n"), 0o755))
	launcher := filepath.Join(t.TempDir(), "pyright-langserver")
	require.NoError(t, os.WriteFile(launcher, []byte("#!/usr/bin/env node\n"), 0o755))
	for _, path := range []string{planted + ":" + ws + ":.:bin", "", planted} {
		env := New(map[string]string{"PATH": path}).WithWorkspace(ws)
		env.GOOS = "linux"
		got, err := env.Interpreter(launcher)
		require.ErrorIs(t, err, ErrNotFound, path)
		require.Empty(t, got)
	}
	deno := New(map[string]string{"PATH": "/usr/bin:/bin"}).WithWorkspace(ws)
	deno.GOOS = "linux"
	require.NoError(t, os.WriteFile(launcher, []byte("#!/usr/bin/env kandev-no-such-interpreter\n"), 0o755))
	_, err := deno.Interpreter(launcher)
	require.ErrorIs(t, err, ErrNotFound)
}
