package client

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

type problemFile struct {
	Path, Model, Language string
	Markers               []struct{ Message string }
}

func problemsOf(t *testing.T, h *harness, session string) map[string][]string {
	t.Helper()
	var files []problemFile
	require.NoError(t, json.Unmarshal([]byte(h.client.Problems(session)), &files))
	out := map[string][]string{}
	for _, f := range files {
		require.Equal(t, "kandev://"+session+"/"+f.Path, f.Model, "the model URI opens the file")
		for _, m := range f.Markers {
			out[f.Path] = append(out[f.Path], m.Message)
		}
	}
	return out
}

// The problems list holds every file's diagnostics — pushed for files no
// model shows, pulled for open ones and their related documents — and a
// connection's end takes its entries away.
func TestProblemsListEveryFileOfTheSession(t *testing.T) {
	events := make(chan string, 64)
	h := newHarness(t, func(c *Config) { c.OnProblems = func(s string) { events <- s } })
	m := newModel("const answer: number = \"forty-two\";\n")
	_, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, tsgoInitializeResult)
	a.recvMethod("textDocument/didOpen")
	req, _ := recvPull(t, a)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"1","items":[%s],"relatedDocuments":{"file:///w/lib/c.ts":{"kind":"full","items":[%s]}}}}`,
		req.ID, diag("pulled a"), diag("related c"))
	m.nextMarkers(t)
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/b.ts","diagnostics":[%s]}}`, diag("pushed b"))
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///elsewhere/x.ts","diagnostics":[%s]}}`, diag("outside"))
	want := map[string][]string{"a.ts": {"pulled a"}, "lib/c.ts": {"related c"}, "b.ts": {"pushed b"}}
	require.Eventually(t, func() bool { return len(problemsOf(t, h, "s")) == 3 }, 5*time.Second, time.Millisecond)
	require.Equal(t, want, problemsOf(t, h, "s"), "files outside the workspace are not listed")
	require.Equal(t, "s", <-events)

	// A file's empty publish removes it.
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/b.ts","diagnostics":[]}}`)
	require.Eventually(t, func() bool { return len(problemsOf(t, h, "s")) == 2 }, 5*time.Second, time.Millisecond)

	h.client.Stop(t.Context(), "s", wire.TypeScript)
	require.Eventually(t, func() bool { return len(problemsOf(t, h, "s")) == 0 }, 5*time.Second, time.Millisecond)
	require.Equal(t, "[]", h.client.Problems("s"))
}
