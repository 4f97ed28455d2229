package stream

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/wire"
)

// watchWait bounds how long ready waits for the first walk of the
// workspace: a huge tree on a slow disk must not hold up the server, and
// changes in directories not yet walked are then missed, as before.
const watchWait = 3 * time.Second

// watchFiles subscribes the session to the workspace's changes, when the
// agent watches it. A system that cannot watch (no inotify instance left)
// costs the stream its files frames, nothing else.
func (s *session) watchFiles() {
	w := s.h.cfg.Watch
	if w == nil {
		return
	}
	sub, err := w.Subscribe()
	if err != nil {
		s.logger.Warn("workspace changes will not be reported", "err", err)
		return
	}
	s.files = sub
}

// unwatchFiles ends the subscription; the last stream's stops the watching.
func (s *session) unwatchFiles() {
	if s.files != nil {
		s.files.Close()
	}
}

// awaitWatch waits, within watchWait or until task stop, for the walk
// that makes changes reportable.
func (s *session) awaitWatch() {
	if s.files == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), watchWait)
	defer cancel()
	go func() { // task stop ends the wait; returns with it at the latest
		select {
		case <-s.shutdown:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := s.files.Ready(ctx); errors.Is(err, context.DeadlineExceeded) {
		s.logger.Info("workspace walk still running at ready; changes in directories not yet walked are missed", "waited", watchWait)
	}
}

// filesToSocket sends each batch of workspace changes as one files frame,
// until ctx ends (failed false) or a write fails (failed true, with the
// code the stream ends with: the peer is gone).
func (s *session) filesToSocket(ctx context.Context) (code websocket.StatusCode, failed bool) {
	for {
		batch, err := s.files.Next(ctx)
		if err != nil || s.ending.Load() {
			return 0, false
		}
		b, err := json.Marshal(wire.Files{Files: batch})
		if err != nil {
			return 0, false // cannot happen: strings and ints
		}
		s.send(b)
	}
}
