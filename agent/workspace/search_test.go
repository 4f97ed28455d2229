package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// bigWorkspace writes n files of size bytes each, none holding "needle".
func bigWorkspace(t *testing.T, n, size int) *Root {
	t.Helper()
	dir := t.TempDir()
	body := []byte(strings.Repeat("haystack line\n", size/14+1)[:size])
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%20))
		require.NoError(t, os.MkdirAll(sub, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%04d.txt", i)), body, 0o644))
	}
	r, err := Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

// A search whose client gave up stops: no file is opened after the
// request's context ends, and the search returns the context's error.
func TestSearchStopsWhenContextEnds(t *testing.T) {
	t.Parallel()
	r := bigWorkspace(t, 2000, 4096)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened, afterCancel := 0, 0
	cancelled := false
	lim := SearchLimits{Timeout: time.Hour, onFile: func(string) {
		if cancelled {
			afterCancel++
		}
		opened++
		if opened == 50 {
			cancel()
			cancelled = true
		}
	}}
	_, err := r.Search(ctx, "needle", lim)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 50, opened, "the search went on after its context ended")
	require.Zero(t, afterCancel)

	// A context already done does no work at all, the walk included.
	done, stop := context.WithCancel(context.Background())
	stop()
	opened = 0
	_, err = r.Search(done, "needle", SearchLimits{onFile: func(string) { opened++ }})
	require.ErrorIs(t, err, context.Canceled)
	require.Zero(t, opened)
	_, err = r.Files(done)
	require.ErrorIs(t, err, context.Canceled)
}

// One search's work is bounded: past its bytes, files or time it answers
// what it found, truncated.
func TestSearchBudget(t *testing.T) {
	t.Parallel()
	r := bigWorkspace(t, 300, 4096)
	// Whole: every file read, nothing found, not truncated.
	opened := 0
	res, err := r.Search(context.Background(), "needle", SearchLimits{onFile: func(string) { opened++ }})
	require.NoError(t, err)
	require.False(t, res.Truncated)
	require.Equal(t, 300, opened)

	for name, lim := range map[string]SearchLimits{
		"bytes": {MaxBytes: 10 * 4096},
		"files": {MaxFilesRead: 10},
	} {
		opened = 0
		lim.onFile = func(string) { opened++ }
		res, err := r.Search(context.Background(), "needle", lim)
		require.NoError(t, err, name)
		require.True(t, res.Truncated, name)
		require.Equal(t, 10, opened, name)
		require.NotNil(t, res.Matches, name)
	}
	// A time budget already spent: truncated, before any file is read.
	opened = 0
	res, err = r.Search(context.Background(), "needle", SearchLimits{Timeout: time.Nanosecond, onFile: func(string) { opened++ }})
	require.NoError(t, err)
	require.True(t, res.Truncated)
	require.Zero(t, opened)

	// Matches found before the budget ran out are answered.
	require.NoError(t, os.WriteFile(filepath.Join(r.Dir(), "a.txt"), []byte("a needle\n"), 0o644))
	res, err = r.Search(context.Background(), "needle", SearchLimits{MaxFilesRead: 1})
	require.NoError(t, err)
	require.True(t, res.Truncated)
	require.Len(t, res.Matches, 1)
}
