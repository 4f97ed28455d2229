//go:build !js

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// goList runs go list for js/wasm, the platform lsp.wasm is built for.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// lsp.wasm has a size budget (4 MB raw, 1.1 MB gzip); net/http alone adds
// megabytes, and coder/websocket pulls it in. encoding/json, fmt and the
// reflect they need cost about a quarter of the budget: JSON goes through
// wasm/jsonlite and the binding wraps syscall/js itself (safejs brings
// fmt). time and context cost 350 KB raw, 90 KB gzip (see wasm/clock and
// wasm/ctxlite, which stand in for them). go list -deps reaches them
// however they come in, through the standard library included.
func TestNoForbiddenDependencies(t *testing.T) {
	forbidden := map[string]bool{
		"net/http":                    true,
		"github.com/coder/websocket":  true,
		"encoding/json":               true,
		"fmt":                         true,
		"reflect":                     true,
		"time":                        true,
		"context":                     true,
		"github.com/hack-pad/safejs":  true,
		"github.com/stretchr/testify": true,
		"os/exec":                     true,
		"github.com/creack/pty":       true,
		"modernc.org/sqlite":          true,
		"github.com/kandev/lsp/agent": true,
		"github.com/kandev/lsp/relay": true,
	}
	for _, dep := range goList(t, "-deps", ".") {
		for f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("lsp.wasm depends on %s", dep)
			}
		}
	}
}

// Only the binding package may touch JavaScript; everything else is pure Go
// and tested natively with -race. The one exception is wasm/clock, which
// stands in for the time package (itself built on syscall/js under
// GOOS=js): its page timers sit below every package, and natively it is the
// time package.
func TestOnlyBindingImportsJS(t *testing.T) {
	const binding = "github.com/kandev/lsp/wasm/jsbind"
	for _, line := range goList(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/kandev/lsp/wasm/...") {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] == binding || fields[0] == "github.com/kandev/lsp/wasm/clock" {
			continue
		}
		for _, imp := range fields[1:] {
			if imp == "syscall/js" || strings.HasPrefix(imp, "github.com/hack-pad/safejs") {
				t.Errorf("%s imports %s; only %s may", fields[0], imp, binding)
			}
		}
	}
}
