package client

import (
	"strings"
	"sync"
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/stretchr/testify/require"
)

// stateEditor keeps what a Monaco would show after the calls: the
// registered providers in registration order, and the suppression
// snapshot.
type stateEditor struct {
	mu       sync.Mutex
	order    []string // conn/lang/feature=options, in registration order
	snapshot string
	calls    int
}

func (s *stateEditor) drop(prefix string) {
	kept := s.order[:0]
	for _, o := range s.order {
		if !strings.HasPrefix(o, prefix) {
			kept = append(kept, o)
		}
	}
	s.order = kept
}

func (s *stateEditor) Provider(conn, lang string, f features.Feature, opts string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.drop(conn + "/" + lang + "/" + f.String() + "=")
	if opts != "" {
		s.order = append(s.order, conn+"/"+lang+"/"+f.String()+"="+opts)
	}
}

func (s *stateEditor) Ended(conn string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.drop(conn + "/")
}

func (s *stateEditor) Refresh(string, features.Feature) {}

func (s *stateEditor) Apply(ctxlite.Context, string) (bool, string) { return true, "" }

func (s *stateEditor) Suppress(snap string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.snapshot = snap
}

func (s *stateEditor) state() (string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.order, " "), s.snapshot
}

// The calls made before the editor exists leave it, once resolved, in the
// state it would have had if it had been there: the same providers in the
// same order, the same suppression, nothing of a connection that ended.
func TestLateEditorReplaysToTheSameState(t *testing.T) {
	t.Parallel()
	hover := features.Hover
	completion := features.Completion
	calls := func(e Editor) {
		e.Provider("c1", "go", hover, `{"a":1}`)
		e.Provider("c1", "go", completion, `{"b":1}`)
		e.Suppress(`{"x":1}`)
		e.Provider("c1", "go", hover, `{"a":2}`) // replaced: now after completion
		e.Provider("c2", "typescript", hover, `{}`)
		e.Refresh("c2", hover)
		e.Ended("c2")
		e.Provider("c1", "go", completion, "") // disposed
		e.Provider("c3", "go", completion, `{"c":1}`)
		e.Suppress(`{"x":2}`)
	}
	direct := &stateEditor{}
	calls(direct)

	late := NewLateEditor()
	calls(late)
	resolved := &stateEditor{}
	late.Resolve(resolved)
	want, wantSnap := direct.state()
	got, gotSnap := resolved.state()
	require.Equal(t, want, got)
	require.Equal(t, wantSnap, gotSnap)
	require.Equal(t, `c1/go/hover={"a":2} c3/go/completion={"c":1}`, got)
	require.Less(t, resolved.calls, direct.calls, "moot calls are not replayed")

	// After resolution every call goes straight through.
	late.Ended("c1")
	got, _ = resolved.state()
	require.Equal(t, `c3/go/completion={"c":1}`, got)
}

// An Ended before the editor arrives leaves nothing of that connection
// for the editor: no provider is registered and disposed again.
func TestLateEditorEndedBeforeResolve(t *testing.T) {
	t.Parallel()
	hover := features.Hover
	late := NewLateEditor()
	late.Provider("c1", "go", hover, `{}`)
	late.Refresh("c1", hover)
	late.Ended("c1")
	rec := make(recordingEditor, 8)
	late.Resolve(rec)
	for len(rec) > 0 {
		e := <-rec
		require.NotEqual(t, "provider", e.kind, "%+v", e)
		require.NotEqual(t, "refresh", e.kind, "%+v", e)
	}
}

// A workspace edit waits for the editor; after Fail it is refused and
// nothing reaches any editor.
func TestLateEditorApplyWaitsAndFail(t *testing.T) {
	t.Parallel()
	late := NewLateEditor()
	rec := make(recordingEditor, 8)
	out := make(chan bool, 1)
	go func() {
		ok, _ := late.Apply(ctxlite.Background(), "plan")
		out <- ok
	}()
	// No wait for Apply "not returning yet": whenever it returns, it can
	// report the edit applied only if the editor it waited for received it.
	late.Resolve(rec)
	require.True(t, <-out)
	require.Equal(t, "apply", (<-rec).kind)

	failed := NewLateEditor()
	hover := features.Hover
	failed.Provider("c1", "go", hover, `{}`)
	go func() {
		ok, _ := failed.Apply(ctxlite.Background(), "plan")
		out <- ok
	}()
	failed.Fail()
	require.False(t, <-out)
	failed.Resolve(rec)
	failed.Suppress("{}")
	require.Empty(t, rec)

	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	cancel()
	ok, reason := NewLateEditor().Apply(ctx, "plan")
	require.False(t, ok)
	require.NotEmpty(t, reason)
}
