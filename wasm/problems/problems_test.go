package problems

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/lsptypes"
)

func diag(line uint32, msg string) lsptypes.Diagnostic {
	return lsptypes.Diagnostic{Range: lsptypes.Range{Start: lsptypes.Position{Line: line}, End: lsptypes.Position{Line: line, Character: 3}}, Severity: lsptypes.SeverityError, Message: msg}
}

func TestOwnersReplaceOnlyTheirOwnAndConnectionsDropTheirs(t *testing.T) {
	var changes []string
	s := New(func(session string) { changes = append(changes, session) })
	s.Set("S", "b.ts", "kandev://S/b.ts", "typescript", "conn1\x00pushed", []lsptypes.Diagnostic{diag(0, "pushed b")})
	s.Set("S", "a.ts", "kandev://S/a.ts", "typescript", "conn1\x00pull", []lsptypes.Diagnostic{diag(1, "pulled a")})
	s.Set("S", "a.ts", "kandev://S/a.ts", "typescript", "conn1\x00pushed", []lsptypes.Diagnostic{diag(2, "pushed a")})
	s.Set("other", "a.ts", "kandev://other/a.ts", "go", "conn2\x00pushed", []lsptypes.Diagnostic{diag(0, "other session")})
	require.Equal(t, []string{"s", "s", "s", "other"}, changes, "sessions are case-insensitive")

	list := s.List("s")
	require.Len(t, list, 2)
	require.Equal(t, "a.ts", list[0].Path, "by path")
	require.Equal(t, []string{"pulled a", "pushed a"}, msgs(list[0].Diagnostics))

	// An empty report clears only its owner's part.
	s.Set("S", "a.ts", "kandev://S/a.ts", "typescript", "conn1\x00pull", nil)
	require.Equal(t, []string{"pushed a"}, msgs(s.List("S")[0].Diagnostics))
	// Clearing what is not there says nothing.
	changes = nil
	s.Set("S", "c.ts", "kandev://S/c.ts", "typescript", "conn1\x00pull", nil)
	require.Empty(t, changes)

	s.Drop("conn1\x00")
	require.Empty(t, s.List("S"))
	require.Len(t, s.List("other"), 1)
	require.Equal(t, []string{"s"}, changes)
}

func TestJSONIsWhatThePageGets(t *testing.T) {
	s := New(nil)
	s.Set("s", "src/a.ts", "kandev://s/src/a.ts", "typescript", "o", []lsptypes.Diagnostic{diag(4, "Cannot find name 'x'.")})
	var got []struct {
		Path, Model, Language string
		Markers               []struct {
			StartLineNumber, StartColumn, EndLineNumber, EndColumn, Severity int
			Message                                                          string
		}
	}
	require.NoError(t, json.Unmarshal(AppendJSON(nil, s.List("s"), func(u string) string { return u }), &got))
	require.Len(t, got, 1)
	require.Equal(t, "src/a.ts", got[0].Path)
	require.Equal(t, "kandev://s/src/a.ts", got[0].Model)
	require.Equal(t, "typescript", got[0].Language)
	require.Len(t, got[0].Markers, 1)
	m := got[0].Markers[0]
	require.Equal(t, []int{5, 1, 5, 4, 8}, []int{m.StartLineNumber, m.StartColumn, m.EndLineNumber, m.EndColumn, m.Severity}, "one-based, Monaco's error severity")
	require.Equal(t, "Cannot find name 'x'.", m.Message)
	require.Equal(t, "[]", string(AppendJSON(nil, nil, nil)))
}

func msgs(ds []lsptypes.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return out
}
