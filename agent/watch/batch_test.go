package watch

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

const (
	c = wire.FileCreated
	m = wire.FileChanged
	d = wire.FileDeleted
)

func TestCoalescing(t *testing.T) {
	cases := []struct {
		name   string
		events []int // for one path, in order
		want   int   // 0: nothing reported
	}{
		{"created", []int{c}, c},
		{"created then changed", []int{c, m, m}, c},
		{"created then deleted", []int{c, m, d}, 0},
		{"deleted then created: a save by rename", []int{d, c}, m},
		{"changed then deleted", []int{m, d}, d},
		{"changed twice", []int{m, m}, m},
		{"created, deleted, created", []int{c, d, c}, c},
		{"deleted, created, deleted", []int{d, c, d}, d},
		{"changed, deleted, created", []int{m, d, c}, m},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b batch
			for _, e := range tc.events {
				b.add("a.go", e)
			}
			got := b.take(10)
			if tc.want == 0 {
				require.Empty(t, got)
				require.True(t, b.empty())
				return
			}
			require.Equal(t, []wire.FileChange{{Path: "a.go", Type: tc.want}}, got)
		})
	}
}

func TestBatchKeepsFirstOrderAndSplits(t *testing.T) {
	var b batch
	b.add("b", m)
	b.add("a", c)
	b.add("gone", c)
	b.add("b", d)
	b.add("gone", d) // cancels out, takes no room
	b.add("c", m)
	require.Equal(t, []wire.FileChange{{Path: "b", Type: d}, {Path: "a", Type: c}}, b.take(2))
	require.False(t, b.empty())
	b.add("a", m) // a new change to a path already taken
	require.Equal(t, []wire.FileChange{{Path: "c", Type: m}, {Path: "a", Type: m}}, b.take(10))
	require.True(t, b.empty())
	require.Empty(t, b.take(10))
}

// manualWindow replaces the coalescing window of w with one the test
// closes, so a batch's extent does not depend on timing.
func manualWindow(w *Watcher) chan time.Time {
	ch := make(chan time.Time)
	w.window = func() <-chan time.Time { return ch }
	return ch
}

// subscribeOnly subscribes to w without kernel events mattering: the
// workspace is an empty temporary directory.
func subscribeOnly(t *testing.T, w *Watcher) (*Subscription, *running) {
	t.Helper()
	s, err := w.Subscribe()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	require.NoError(t, s.Ready(t.Context()))
	return s, s.run
}

func TestBatchWaitsForTheWindow(t *testing.T) {
	w := New(t.TempDir(), Options{})
	t.Cleanup(w.Close)
	window := manualWindow(w)
	s, run := subscribeOnly(t, w)

	w.publish(run, "a.go", m)
	got := make(chan []wire.FileChange, 1)
	go func() {
		out, err := s.Next(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- out
	}()
	// Changes made while the window is open join the batch; Next cannot
	// return before the window closes.
	w.publish(run, "b.go", c)
	w.publish(run, "a.go", m)
	window <- time.Time{}
	require.Equal(t, []wire.FileChange{{Path: "a.go", Type: m}, {Path: "b.go", Type: c}}, <-got)
}

func TestLargeBatchSplitsWithoutWaitingAgain(t *testing.T) {
	w := New(t.TempDir(), Options{})
	t.Cleanup(w.Close)
	window := manualWindow(w)
	s, run := subscribeOnly(t, w)
	n := wire.MaxFilesPerFrame + 3
	for i := range n {
		w.publish(run, fmt.Sprintf("f%05d.go", i), c)
	}
	go func() { window <- time.Time{} }() // one window only
	first, err := s.Next(t.Context())
	require.NoError(t, err)
	require.Len(t, first, wire.MaxFilesPerFrame)
	require.Equal(t, "f00000.go", first[0].Path)
	rest, err := s.Next(t.Context()) // the window has passed for these
	require.NoError(t, err)
	require.Equal(t, []wire.FileChange{{Path: fmt.Sprintf("f%05d.go", n-3), Type: c}, {Path: fmt.Sprintf("f%05d.go", n-2), Type: c}, {Path: fmt.Sprintf("f%05d.go", n-1), Type: c}}, rest)
}

func TestSlowSubscriberLosesNothing(t *testing.T) {
	w := New(t.TempDir(), Options{})
	t.Cleanup(w.Close)
	window := manualWindow(w)
	fast, run := subscribeOnly(t, w)
	slow, _ := subscribeOnly(t, w)

	w.publish(run, "a.go", c)
	go func() { window <- time.Time{} }()
	got, err := fast.Next(t.Context())
	require.NoError(t, err)
	require.Equal(t, []wire.FileChange{{Path: "a.go", Type: c}}, got)
	// slow has not asked yet: its changes wait for it, merged.
	w.publish(run, "a.go", m)
	w.publish(run, "b.go", d)
	go func() { window <- time.Time{} }()
	got, err = slow.Next(t.Context())
	require.NoError(t, err)
	require.Equal(t, []wire.FileChange{{Path: "a.go", Type: c}, {Path: "b.go", Type: d}}, got)
}

func TestNextEndsWithCloseAndContext(t *testing.T) {
	w := New(t.TempDir(), Options{})
	s, _ := subscribeOnly(t, w)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := s.Next(ctx)
	require.ErrorIs(t, err, context.Canceled)

	errs := make(chan error, 1)
	go func() {
		_, err := s.Next(context.Background())
		errs <- err
	}()
	w.Close() // ends every subscription, waits for the watching goroutine
	require.ErrorIs(t, <-errs, ErrClosed)
	_, err = w.Subscribe()
	require.ErrorIs(t, err, ErrClosed)
	s.Close() // after the Watcher's Close: harmless
}
