package relay

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/internal/bridge"
)

// MetricsPath is the relay's Prometheus route when Config.Metrics is nil.
const MetricsPath = "/metrics"

// metrics are the relay's Prometheus collectors:
//
//	kandev_relay_streams_active{language}           browser streams being relayed now
//	kandev_relay_stream_refusals_total{code}        streams closed before relaying (4002 unknown
//	                                                session or agent unavailable, 4004, 4005,
//	                                                1001 at shutdown); 400 for an unknown language
//	kandev_relay_stream_closes_total{code}          relayed streams ended, by the code the browser got
//	kandev_relay_relayed_bytes_total{direction}     message bytes, browser_to_agent and agent_to_browser
//	kandev_relay_agents_running                     agent processes the relay started, alive now
type metrics struct {
	active  *prometheus.GaugeVec
	refused *prometheus.CounterVec
	closed  *prometheus.CounterVec
	bytes   [2]prometheus.Counter // by bridge.Side of origin
}

func newMetrics(reg prometheus.Registerer, execs *executions) *metrics {
	m := &metrics{
		active: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "kandev_relay_streams_active", Help: "Browser LSP streams being relayed now.",
		}, []string{"language"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kandev_relay_stream_refusals_total", Help: "Browser LSP streams refused before relaying, by close code (400: unknown language).",
		}, []string{"code"}),
		closed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kandev_relay_stream_closes_total", Help: "Relayed browser LSP streams that ended, by the close code the browser got.",
		}, []string{"code"}),
	}
	relayed := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kandev_relay_relayed_bytes_total", Help: "Message bytes relayed, by direction.",
	}, []string{"direction"})
	m.bytes[bridge.Browser] = relayed.WithLabelValues("browser_to_agent")
	m.bytes[bridge.Agent] = relayed.WithLabelValues("agent_to_browser")
	agents := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "kandev_relay_agents_running", Help: "Agent processes the relay started (local_pc sessions without agent.url), alive now.",
	}, func() float64 { return float64(execs.running()) })
	reg.MustRegister(m.active, m.refused, m.closed, relayed, agents)
	return m
}

// ownRegistry is the registry of a relay that serves MetricsPath itself:
// its collectors, and the Go runtime's and the process's.
func ownRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

func metricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

func (m *metrics) refuse(code wire.CloseCode) { m.refused.WithLabelValues(codeLabel(int(code))).Inc() }

func (m *metrics) relayed(from bridge.Side, n int64) { m.bytes[from].Add(float64(n)) }

func codeLabel(code int) string { return strconv.Itoa(code) }
