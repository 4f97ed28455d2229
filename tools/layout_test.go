// Package tools holds the project's test and measurement rigs (see
// README.md); this file only checks that the arrows between the rigs, the
// programs and their contracts point one way.
package tools

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/kandev/lsp/"

// deps lists the packages of the module that patterns reach, as go list
// -deps resolves them from the module's root (with the given environment).
func deps(t *testing.T, env []string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps"}, args...)...)
	cmd.Dir = ".."
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, out)
	}
	var own []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, module) {
			own = append(own, strings.TrimPrefix(p, module))
		}
	}
	return own
}

// The contracts under internal/ import only one another, tests included:
// nothing of the programs and nothing of the rigs.
func TestInternalImportsOnlyInternal(t *testing.T) {
	for _, p := range deps(t, nil, "-test", "./internal/...") {
		if !strings.HasPrefix(p, "internal/") {
			t.Errorf("internal/ reaches %s", p)
		}
	}
}

// No program that ships links a rig; their tests may use one.
func TestProgramsDoNotLinkTools(t *testing.T) {
	for _, c := range []struct {
		env  []string
		pkgs []string
	}{
		{nil, []string{"./relay/...", "./agent/...", "./webdemo/..."}},
		{[]string{"GOOS=js", "GOARCH=wasm"}, []string{"./wasm/..."}},
	} {
		for _, p := range deps(t, c.env, c.pkgs...) {
			if strings.HasPrefix(p, "tools/") {
				t.Errorf("%v links %s", c.pkgs, p)
			}
		}
	}
}

// The relay links nothing of the agent: it knows the built-in catalog from
// internal/wire's languages table and reads an operator's catalog with
// internal/catalogfile, so the agent's npm lockfiles are not in its binary.
func TestRelayDoesNotLinkTheAgent(t *testing.T) {
	for _, p := range deps(t, nil, "./relay/...") {
		if strings.HasPrefix(p, "agent/") {
			t.Errorf("the relay links %s", p)
		}
	}
}
