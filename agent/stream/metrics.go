package stream

import (
	"net/http"
	"strings"
	"time"

	"github.com/kandev/lsp/internal/wire"
)

// Metrics receives what a Handler does, for counters; package
// agent/metrics implements it with Prometheus. Its methods are called from
// many goroutines and must not block.
type Metrics interface {
	// StreamOpened reports a stream admitted and upgraded; StreamClosed
	// its end, with the close code the peer got (1006 when the connection
	// was dropped without one).
	StreamOpened(lang wire.Language)
	StreamClosed(lang wire.Language, code int)
	// StreamRefused reports a request refused before any stream ran: HTTP
	// 400, 401 or 503, or close code 4005 (the connection cap).
	StreamRefused(code int)
	// InstallFinished reports an install that ended as "installed",
	// "failed" or "cancelled" after d.
	InstallFinished(lang wire.Language, result string, d time.Duration)
	// Relayed reports n message bytes passed to the server (toServer) or
	// from it.
	Relayed(toServer bool, n int)
	// ServerStarted and ServerStopped bracket a language server's process
	// tree, from its start until it is reaped.
	ServerStarted(lang wire.Language)
	ServerStopped(lang wire.Language)
	// Held brackets a server held for a resume (true when the hold
	// begins, false when it ends either way); Resumed reports how a
	// resume request or a hold ended (Resume* values); Replayed the data
	// frames a resume sent again.
	Held(lang wire.Language, held bool)
	Resumed(lang wire.Language, result string)
	Replayed(frames int)
}

// Results for Metrics.Resumed.
const (
	// ResumeDone: a resume re-attached to its held server.
	ResumeDone = "resumed"
	// ResumeUnknown: no server was held for the token (the grace ended,
	// the agent restarted, the token was used or foreign).
	ResumeUnknown = "unknown"
	// ResumeGap: the frames the browser missed were no longer kept.
	ResumeGap = "gap"
	// ResumeExpired: a held server's grace ended without a resume.
	ResumeExpired = "expired"
)

// Install results for Metrics.InstallFinished.
const (
	InstallInstalled = "installed"
	InstallFailed    = "failed"
	InstallCancelled = "cancelled"
)

// noMetrics counts nothing.
type noMetrics struct{}

func (noMetrics) StreamOpened(wire.Language)                           {}
func (noMetrics) StreamClosed(wire.Language, int)                      {}
func (noMetrics) StreamRefused(int)                                    {}
func (noMetrics) InstallFinished(wire.Language, string, time.Duration) {}
func (noMetrics) Relayed(bool, int)                                    {}
func (noMetrics) ServerStarted(wire.Language)                          {}
func (noMetrics) ServerStopped(wire.Language)                          {}
func (noMetrics) Held(wire.Language, bool)                             {}
func (noMetrics) Resumed(wire.Language, string)                        {}
func (noMetrics) Replayed(int)                                         {}

// logID reads a log-only id the relay sent (wire.HeaderSession,
// wire.HeaderConnection): at most 64 printable ASCII characters, or "".
// It only ever labels log lines, so a wrong one misleads no decision.
func logID(r *http.Request, header string) string {
	v := r.Header.Get(header)
	if len(v) > 64 || strings.IndexFunc(v, func(c rune) bool { return c < 0x21 || c > 0x7e }) >= 0 {
		return ""
	}
	return v
}
