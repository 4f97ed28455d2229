package taskenv

import (
	"slices"
	"strings"

	"github.com/kandev/lsp/internal/envallow"
)

// Allowed reports whether a variable is on the allowlist
// (internal/envallow): the only variables of the task environment that
// reach a child of the agent, besides those the operator names (WithPass).
func Allowed(name string) bool { return envallow.Allowed(name) }

// FilterEnviron is envallow.FilterEnviron.
func FilterEnviron(environ []string, pass ...string) []string {
	return envallow.FilterEnviron(environ, pass...)
}

// WithPass returns a copy of e whose children also get the variables
// named in names (the operator's -pass-env): a task variable a server
// really needs that the allowlist does not hold. Only exact names: a
// pattern would pass the next secret along with the setting.
func (e *Env) WithPass(names ...string) *Env {
	c := e.clone()
	for _, n := range names {
		if n != "" && !slices.Contains(c.pass, n) {
			c.pass = append(c.pass, n)
		}
	}
	return c
}

// passes reports whether variable k of this environment goes to children.
func (e *Env) passes(k string) bool {
	if Allowed(k) {
		return true
	}
	if e.GOOS == "windows" {
		return slices.ContainsFunc(e.pass, func(p string) bool { return strings.EqualFold(p, k) })
	}
	return slices.Contains(e.pass, k)
}
