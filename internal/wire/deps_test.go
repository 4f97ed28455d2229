//go:build !js

package wire

import (
	"os/exec"
	"strings"
	"testing"
)

// The contract package is linked into lsp.wasm; net/http would add megabytes.
func TestNoNetHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" {
			t.Fatal("internal/wire depends on net/http")
		}
	}
}
