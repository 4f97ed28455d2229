//go:build linux

package install

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// fakeGo records how it was called and "installs" gopls into GOBIN.
const fakeGo = `
echo "$PWD|$*|GOBIN=$GOBIN|GOPATH=$GOPATH|HOME=$HOME" >> "$FAKE_GO_LOG"
mkdir -p "$GOBIN"
printf '#!/bin/sh\necho gopls\n' > "$GOBIN/gopls"
chmod +x "$GOBIN/gopls"
`

// Spec: Task-only toolchain — `go` comes from the task PATH, GOBIN is set
// only in the task environment, and the result is found there.
func TestGoplsInstallUsesTaskToolchain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	taskBin := filepath.Join(dir, "task-go", "bin")
	writeScript(t, taskBin, "go", fakeGo)
	gobin := filepath.Join(dir, "task-gobin")
	log := filepath.Join(dir, "go.log")
	home := filepath.Join(dir, "home")
	env := taskenv.New(map[string]string{
		"PATH": taskBin + ":" + shPath, "GOBIN": gobin, "GOPATH": filepath.Join(dir, "gopath"),
		"HOME": home, "FAKE_GO_LOG": log,
	}).WithPass("FAKE_GO_LOG")
	m := New(Config{Runner: testRunner()})
	job, err := m.Prepare(env, def(wire.Go))
	require.NoError(t, err)
	res, err := job.Run(context.Background())
	require.NoError(t, err)
	require.Equal(t, filepath.Join(gobin, "gopls"), res.Path)
	root := filepath.Join(home, ".kandev", "lsp-servers")
	require.Equal(t, root+"|install -v golang.org/x/tools/gopls@v0.23.0|GOBIN="+gobin+"|GOPATH="+filepath.Join(dir, "gopath")+"|HOME="+home+"\n", readOr(log))

	got, err := ManagedLauncher(env, def(wire.Go))
	require.NoError(t, err)
	require.Equal(t, res.Path, got)
}

func TestGoplsWithoutGoOnTaskPath(t *testing.T) {
	t.Parallel()
	env := taskenv.New(map[string]string{"PATH": t.TempDir(), "HOME": t.TempDir()})
	job, err := New(Config{Runner: testRunner()}).Prepare(env, def(wire.Go))
	require.NoError(t, err)
	_, err = job.Run(context.Background())
	require.ErrorContains(t, err, "go is required")
}

// Spec: Relative Go binary directory — a relative GOBIN is ignored: go
// installs into the first absolute Go bin directory (HOME/go/bin here),
// where the result is found, and nothing is written relative to the
// working directory.
func TestGoplsResultOnlyInAbsoluteDirs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	taskBin := filepath.Join(dir, "bin")
	writeScript(t, taskBin, "go", fakeGo)
	env := taskenv.New(map[string]string{
		"PATH": taskBin + ":" + shPath, "GOBIN": "rel-gobin", "HOME": filepath.Join(dir, "home"),
		"FAKE_GO_LOG": filepath.Join(dir, "log"),
	}).WithPass("FAKE_GO_LOG")
	job, err := New(Config{Runner: testRunner()}).Prepare(env, def(wire.Go))
	require.NoError(t, err)
	res, err := job.Run(context.Background())
	require.NoError(t, err, Detail(err))
	require.Equal(t, filepath.Join(dir, "home", "go", "bin", "gopls"), res.Path)
	require.NoFileExists(t, filepath.Join(dir, "home", ".kandev", "lsp-servers", "rel-gobin", "gopls"))
}

// Discovery inside the workspace: a go planted in a workspace PATH entry
// never runs, and GOBIN and GOPATH inside the workspace are not written
// to: go install gets the task environment without them and GOBIN set to
// the first Go bin directory outside the checkout.
func TestGoplsInstallIgnoresWorkspaceDirs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	writeScript(t, filepath.Join(ws, "bin"), "go", "echo planted >> \"$FAKE_GO_LOG\"; exit 1\n")
	taskBin := filepath.Join(dir, "task-go", "bin")
	writeScript(t, taskBin, "go", fakeGo)
	home, log := filepath.Join(dir, "home"), filepath.Join(dir, "go.log")
	env := taskenv.New(map[string]string{
		"PATH":  filepath.Join(ws, "bin") + ":" + taskBin + ":" + shPath,
		"GOBIN": filepath.Join(ws, "gobin"), "GOPATH": filepath.Join(ws, "gopath"),
		"HOME": home, "FAKE_GO_LOG": log,
	}).WithPass("FAKE_GO_LOG").WithWorkspace(ws)
	job, err := New(Config{Runner: testRunner()}).Prepare(env, def(wire.Go))
	require.NoError(t, err)
	res, err := job.Run(context.Background())
	require.NoError(t, err, Detail(err))
	gobin := filepath.Join(home, "go", "bin")
	require.Equal(t, filepath.Join(gobin, "gopls"), res.Path)
	root := filepath.Join(home, ".kandev", "lsp-servers")
	require.Equal(t, root+"|install -v golang.org/x/tools/gopls@v0.23.0|GOBIN="+gobin+"|GOPATH=|HOME="+home+"\n", readOr(log))
	require.NoDirExists(t, filepath.Join(ws, "gobin"))
}

// A task HOME inside the workspace gets no install at all: the managed
// cache, npm's cache and go's caches would all live in the checkout.
func TestHomeInWorkspaceRefusesInstalls(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	env := taskenv.New(map[string]string{"PATH": shPath, "HOME": filepath.Join(ws, "home")}).WithWorkspace(ws)
	m := New(Config{Runner: testRunner()})
	for _, lang := range []wire.Language{wire.Go, wire.TypeScript, wire.Python, wire.Rust} {
		_, err := m.Prepare(env, def(lang))
		require.ErrorIs(t, err, ErrHomeInWorkspace, lang)
		_, err = ManagedLauncher(env, def(lang))
		require.Error(t, err, lang)
	}
	_, err := CacheRoot(env)
	require.ErrorIs(t, err, ErrHomeInWorkspace)
}

// A real `go install` of a tiny local module, with GOBIN set only in the
// task environment: the runner, the pty and the result lookup against the
// real toolchain, offline.
func TestRealGoInstallLocalModule(t *testing.T) {
	goExe, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain")
	}
	gocache, err := exec.Command(goExe, "env", "GOCACHE").Output()
	require.NoError(t, err)
	dir := t.TempDir()
	mod := filepath.Join(dir, "mod")
	require.NoError(t, os.MkdirAll(mod, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/hello\n\ngo 1.22\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(mod, "main.go"), []byte("package main\n\nfunc main() { println(\"hello\") }\n"), 0o644))
	gobin := filepath.Join(dir, "gobin")
	home := filepath.Join(dir, "home")
	env := taskenv.New(map[string]string{
		"PATH": filepath.Dir(goExe) + ":" + shPath, "GOBIN": gobin, "HOME": home,
		"GOCACHE": strings.TrimSpace(string(gocache)), "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "",
	})
	g, err := newGoInstaller(env, def(wire.Go))
	require.NoError(t, err)
	g.target, g.binary, g.dir = ".", "hello", mod
	job := &Job{m: New(Config{Runner: testRunner()}), language: wire.Go, server: "hello", inst: g}
	start := time.Now()
	res, err := job.Run(context.Background())
	require.NoError(t, err, Detail(err))
	t.Logf("go install took %v", time.Since(start))
	require.Equal(t, filepath.Join(gobin, "hello"), res.Path)
	out, err := exec.Command(res.Path).CombinedOutput()
	require.NoError(t, err)
	require.Equal(t, "hello\n", string(out))
}

// gopls itself, from the module proxy: minutes of build on a cold cache, so
// only with KANDEV_INSTALL_GOPLS=1.
func TestRealGoplsInstall(t *testing.T) {
	if os.Getenv("KANDEV_INSTALL_GOPLS") != "1" {
		t.Skip("set KANDEV_INSTALL_GOPLS=1 to go install gopls " + catalog.Version("gopls"))
	}
	goExe, err := exec.LookPath("go")
	require.NoError(t, err)
	dir := t.TempDir()
	vars := map[string]string{"PATH": filepath.Dir(goExe) + ":" + shPath, "GOBIN": filepath.Join(dir, "gobin"), "HOME": filepath.Join(dir, "home")}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPROXY", "GOFLAGS"} {
		v, err := exec.Command(goExe, "env", k).Output()
		require.NoError(t, err)
		vars[k] = strings.TrimSpace(string(v))
	}
	env := taskenv.New(vars)
	job, err := New(Config{}).Prepare(env, def(wire.Go))
	require.NoError(t, err)
	start := time.Now()
	res, err := job.Run(context.Background())
	require.NoError(t, err, Detail(err))
	t.Logf("go install gopls took %v", time.Since(start))
	out, err := exec.Command(res.Path, "version").CombinedOutput()
	require.NoError(t, err)
	require.Contains(t, string(out), catalog.Version("gopls"))
}
