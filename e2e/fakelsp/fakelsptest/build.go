// Package fakelsptest builds the fake language server (e2e/fakelsp) for Go
// tests in other packages and installs it under a real server's name.
package fakelsptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// build caches one build per test process: every test shares the binary.
var build struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of a freshly built fakelsp, building it on the
// first call in this process. The binary lives at one fixed place per user
// in the temporary directory, replaced atomically by each build (test
// processes of several packages may build at once), so runs do not pile up
// copies; the Go build cache makes rebuilding cheap.
func Binary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("kandev-fakelsp-%d", os.Getuid()))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			build.err = err
			return
		}
		tmp, err := os.CreateTemp(dir, "fakelsp-*.tmp")
		if err != nil {
			build.err = err
			return
		}
		tmp.Close()
		out, err := exec.Command("go", "build", "-o", tmp.Name(), "github.com/kandev/lsp/e2e/fakelsp").CombinedOutput()
		if err != nil {
			os.Remove(tmp.Name())
			build.err = fmt.Errorf("build fakelsp: %v\n%s", err, out)
			return
		}
		build.path = filepath.Join(dir, "fakelsp")
		build.err = os.Rename(tmp.Name(), build.path)
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

// Install puts the fake into dir as name (gopls, rust-analyzer,
// kotlin-lsp...) and returns that path. It is a symlink, so the fake still
// finds itself through os.Executable to spawn its child.
func Install(t testing.TB, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Symlink(Binary(t), p); err != nil {
		t.Fatal(err)
	}
	return p
}
