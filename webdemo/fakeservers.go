package webdemo

import (
	"os"
	"path/filepath"
	"strings"
)

// FakeServerNames are the servers these machines cannot install for real;
// the fake language server stands in for them under their own names, so the
// agent discovers and runs them exactly as it would the real ones.
var FakeServerNames = []string{"rust-analyzer", "kotlin-lsp"}

// WithFakeServers links fakeBin into a new folder under dir as each of
// FakeServerNames and returns env with that folder first on PATH.
func WithFakeServers(env []string, dir, fakeBin string) ([]string, error) {
	abs, err := filepath.Abs(fakeBin)
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "fake-servers")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	for _, name := range FakeServerNames {
		if err := os.Symlink(abs, filepath.Join(bin, name)); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(env)+1)
	path := bin
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = bin + string(os.PathListSeparator) + v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path), nil
}
