package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// agentVariables are the variables the agent reads as its own settings
// (and removes from the task environment).
func agentVariables() []string {
	var l limits
	names := []string{tokenEnv, releaseBaseEnv}
	for _, e := range l.table() {
		names = append(names, e.env)
	}
	slices.Sort(names)
	return names
}

// docs/integrating.md's table of the agent's variables and the container
// recipe name exactly the variables the agent reads: a variable added to
// the agent fails here until it is documented, and a documented one it no
// longer reads fails too.
func TestDocumentedVariables(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/integrating.md")
	require.NoError(t, err)
	const heading = "## The agent on a task host"
	_, section, ok := strings.Cut(string(doc), "\n"+heading+"\n")
	require.True(t, ok, "docs/integrating.md has no section %q", heading)
	if i := strings.Index(section, "\n#"); i >= 0 {
		section = section[:i]
	}
	row := regexp.MustCompile("(?m)^\\| `(KANDEV_[A-Z_]+)` \\|")
	var documented []string
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	slices.Sort(documented)
	require.Equal(t, agentVariables(), documented, "docs/integrating.md's table of the agent's variables")

	recipe, err := os.ReadFile("../../../docker/agent.Dockerfile")
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`KANDEV_[A-Z_]+`).FindAllString(string(recipe), -1) {
		require.Contains(t, agentVariables(), m, "docker/agent.Dockerfile names a variable the agent does not read")
	}
	require.True(t, strings.Contains(string(recipe), "-addr") && strings.Contains(string(recipe), "-workspace"))
}
