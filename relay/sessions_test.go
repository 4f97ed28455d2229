package relay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sessions.json")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	return p
}

func TestLoadSessions(t *testing.T) {
	t.Parallel()
	p := writeFile(t, `{"sessions":[
		{"id":"demo","executor":"local_pc","workspace":"/abs/dir",
		 "agent":{"url":"http://127.0.0.1:7070","token":"tok"}},
		{"id":"restore-me","executor":"local_pc","workspace":"/abs/other"},
		{"id":"box","executor":"local_docker","workspace":"/workspace","container":"task-1",
		 "agent":{"url":"http://127.0.0.1:7071","token":"t2"}}
	]}`)
	s, err := LoadSessions(p)
	require.NoError(t, err)

	got, ok := s.Lookup("demo")
	require.True(t, ok)
	assert.Equal(t, Session{ID: "demo", Executor: ExecutorLocalPC, Workspace: "/abs/dir",
		Agent: AgentRef{URL: "http://127.0.0.1:7070", Token: "tok"}}, got)
	got, ok = s.Lookup("restore-me")
	require.True(t, ok)
	assert.Empty(t, got.Agent.URL, "a session without agent.url is valid (restore path)")
	got, ok = s.Lookup("box")
	require.True(t, ok)
	assert.Equal(t, "task-1", got.Container)
	_, ok = s.Lookup("nope")
	assert.False(t, ok)
}

func TestLoadSessionsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, body, want string }{
		{"bad JSON", `{"sessions":[{"id":"a",}]}`, "invalid JSON"},
		{"not an object", `[]`, "invalid JSON"},
		{"unknown field", `{"sessions":[{"id":"a","executor":"local_pc","agnet":{}}]}`, `unknown field "agnet"`},
		{"trailing data", `{"sessions":[]} {}`, "data after"},
		{"no list", `{}`, `missing "sessions"`},
		{"empty id", `{"sessions":[{"executor":"local_pc"}]}`, "empty id"},
		{"empty executor", `{"sessions":[{"id":"a"}]}`, "empty executor"},
		{"docker without container", `{"sessions":[{"id":"a","executor":"local_docker","agent":{"url":"http://h:1"}}]}`, "needs container"},
		{"docker without agent", `{"sessions":[{"id":"a","executor":"local_docker","container":"c"}]}`, "needs container and agent.url"},
		{"duplicate", `{"sessions":[{"id":"a","executor":"ssh"},{"id":"a","executor":"ssh"}]}`, "duplicate id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.body)
			_, err := LoadSessions(p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), p, "the error names the file")
		})
	}
	_, err := LoadSessions(filepath.Join(t.TempDir(), "missing.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestStaticSessions(t *testing.T) {
	t.Parallel()
	s := StaticSessions(Session{ID: "a", Executor: "ssh"}, Session{ID: "a", Executor: ExecutorLocalPC})
	got, ok := s.Lookup("a")
	require.True(t, ok)
	assert.Equal(t, ExecutorLocalPC, got.Executor, "the later session wins")
	_, ok = StaticSessions().Lookup("a")
	assert.False(t, ok)
}
