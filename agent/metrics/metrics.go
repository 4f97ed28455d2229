// Package metrics is the agent's Prometheus side: the collectors behind
// stream.Metrics and the registry its /metrics route serves.
//
//	kandev_agent_streams_active{language}            streams running now
//	kandev_agent_stream_refusals_total{code}         requests refused before a stream ran:
//	                                                 HTTP 400, 401, 503, or close code 4005
//	kandev_agent_stream_closes_total{code}           streams ended, by the close code the peer got
//	                                                 (1006: dropped without one)
//	kandev_agent_installs_total{language,result}     installs: installed, failed, cancelled
//	kandev_agent_install_duration_seconds{language,result}  their duration (histogram)
//	kandev_agent_relayed_bytes_total{direction}      message bytes to_server and from_server
//	kandev_agent_servers_running{language}           language-server process trees alive
//
// Plus the Go runtime's and the process's own collectors.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kandev/lsp/agent/stream"
	"github.com/kandev/lsp/internal/wire"
)

// Path is the agent's metrics route.
const Path = "/metrics"

// Agent holds the agent's collectors; it implements stream.Metrics.
type Agent struct {
	reg      *prometheus.Registry
	active   *prometheus.GaugeVec
	refused  *prometheus.CounterVec
	closed   *prometheus.CounterVec
	installs *prometheus.CounterVec
	duration *prometheus.HistogramVec
	toServer prometheus.Counter
	fromSrv  prometheus.Counter
	servers  *prometheus.GaugeVec
	held     *prometheus.GaugeVec
	resumes  *prometheus.CounterVec
	replayed prometheus.Counter
}

var _ stream.Metrics = (*Agent)(nil)

// New returns the collectors, registered in a registry of their own.
func New() *Agent {
	bytes := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kandev_agent_relayed_bytes_total", Help: "Message bytes passed to language servers (to_server) and from them (from_server).",
	}, []string{"direction"})
	a := &Agent{
		reg: prometheus.NewRegistry(),
		active: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "kandev_agent_streams_active", Help: "LSP streams running now.",
		}, []string{"language"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kandev_agent_stream_refusals_total", Help: "Stream requests refused before a stream ran, by HTTP status or close code (4005: the connection cap).",
		}, []string{"code"}),
		closed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kandev_agent_stream_closes_total", Help: "Streams that ended, by the close code the peer got (1006: dropped without one).",
		}, []string{"code"}),
		installs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kandev_agent_installs_total", Help: "Language-server installs, by language and result.",
		}, []string{"language", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "kandev_agent_install_duration_seconds", Help: "How long installs took, by language and result.",
			// npm and go installs take seconds to minutes; the install
			// timeout is 15 minutes.
			Buckets: []float64{1, 5, 15, 30, 60, 120, 300, 600, 900},
		}, []string{"language", "result"}),
		toServer: bytes.WithLabelValues("to_server"),
		fromSrv:  bytes.WithLabelValues("from_server"),
		servers: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "kandev_agent_servers_running", Help: "Language-server process trees alive, by language.",
		}, []string{"language"}),
		held: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "kandev_agent_servers_held", Help: "Language servers whose socket was lost, held for a resume, by language.",
		}, []string{"language"}),
		resumes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kandev_agent_resumes_total", Help: "Resume requests and holds, by language and result: resumed, unknown (no server held for the token), gap (missed frames no longer kept), expired (a hold's grace ended).",
		}, []string{"language", "result"}),
		replayed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "kandev_agent_frames_replayed_total", Help: "Data frames sent again to a browser by resumes.",
		}),
	}
	a.reg.MustRegister(a.active, a.refused, a.closed, a.installs, a.duration, bytes, a.servers, a.held, a.resumes, a.replayed,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return a
}

// Handler serves the Prometheus text format. It checks no credential:
// mount it behind the agent's token (package server does).
func (a *Agent) Handler() http.Handler { return promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{}) }

// StreamOpened implements stream.Metrics.
func (a *Agent) StreamOpened(lang wire.Language) { a.active.WithLabelValues(string(lang)).Inc() }

// StreamClosed implements stream.Metrics.
func (a *Agent) StreamClosed(lang wire.Language, code int) {
	a.active.WithLabelValues(string(lang)).Dec()
	a.closed.WithLabelValues(strconv.Itoa(code)).Inc()
}

// StreamRefused implements stream.Metrics.
func (a *Agent) StreamRefused(code int) { a.refused.WithLabelValues(strconv.Itoa(code)).Inc() }

// InstallFinished implements stream.Metrics.
func (a *Agent) InstallFinished(lang wire.Language, result string, d time.Duration) {
	a.installs.WithLabelValues(string(lang), result).Inc()
	a.duration.WithLabelValues(string(lang), result).Observe(d.Seconds())
}

// Relayed implements stream.Metrics.
func (a *Agent) Relayed(toServer bool, n int) {
	if toServer {
		a.toServer.Add(float64(n))
	} else {
		a.fromSrv.Add(float64(n))
	}
}

// ServerStarted implements stream.Metrics.
func (a *Agent) ServerStarted(lang wire.Language) { a.servers.WithLabelValues(string(lang)).Inc() }

// ServerStopped implements stream.Metrics.
func (a *Agent) ServerStopped(lang wire.Language) { a.servers.WithLabelValues(string(lang)).Dec() }

// Held implements stream.Metrics.
func (a *Agent) Held(lang wire.Language, held bool) {
	if held {
		a.held.WithLabelValues(string(lang)).Inc()
	} else {
		a.held.WithLabelValues(string(lang)).Dec()
	}
}

// Resumed implements stream.Metrics.
func (a *Agent) Resumed(lang wire.Language, result string) {
	a.resumes.WithLabelValues(string(lang), result).Inc()
}

// Replayed implements stream.Metrics.
func (a *Agent) Replayed(frames int) { a.replayed.Add(float64(frames)) }
