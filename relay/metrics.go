package relay

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/executor"
	"github.com/kandev/lsp/relay/internal/bridge"
)

// MetricsPath is the relay's Prometheus route when Config.Metrics is nil.
const MetricsPath = "/metrics"

// metrics are the relay's Prometheus collectors:
//
//	kandev_relay_streams_active{language}           browser streams being relayed now
//	kandev_relay_stream_refusals_total{code}        streams closed before relaying (4002 unknown
//	                                                session or agent unavailable, 4004, 4005,
//	                                                1012 while draining, 1001 when the server's
//	                                                BaseContext ends); 400 for an unknown language
//	kandev_relay_stream_closes_total{code}          relayed streams ended, by the code the browser got
//	kandev_relay_reconnects_total{kind}             streams lsp.wasm opened by itself after losing one:
//	                                                resume (a token) or fresh (a new server)
//	kandev_relay_relayed_bytes_total{direction}     message bytes, browser_to_agent and agent_to_browser
//	kandev_relay_agents_running                     agent processes the relay started, alive now
//	kandev_relay_capacity_max                       the connection cap
//	kandev_relay_capacity_in_use_global             slots in use by every replica sharing the cap
//	                                                (this process's alone without a shared database)
//	kandev_relay_capacity_in_use{replica}           slots in use by each replica holding any
//	kandev_relay_capacity_held                      of the global slots, those of lost streams held
//	                                                for their resume (servers the agents hold)
type metrics struct {
	active  *prometheus.GaugeVec
	refused *prometheus.CounterVec
	closed  *prometheus.CounterVec
	// reconnects counts streams opened by lsp.wasm by itself after it
	// lost one: kind resume (a resume token; the agent's
	// kandev_agent_resumes_total says whether the server was still held)
	// or fresh (a new server for the same editor).
	reconnects *prometheus.CounterVec
	bytes      [2]prometheus.Counter // by bridge.Side of origin
}

func newMetrics(reg prometheus.Registerer, execs *executor.Executions, cap capacity.Cap) *metrics {
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
		reconnects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kandev_relay_reconnects_total", Help: "Streams opened by lsp.wasm by itself after it lost one: resume (with a resume token) or fresh (a new server).",
		}, []string{"kind"}),
	}
	relayed := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kandev_relay_relayed_bytes_total", Help: "Message bytes relayed, by direction.",
	}, []string{"direction"})
	m.bytes[bridge.Browser] = relayed.WithLabelValues("browser_to_agent")
	m.bytes[bridge.Agent] = relayed.WithLabelValues("agent_to_browser")
	agents := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "kandev_relay_agents_running", Help: "Agent processes the relay started (local_pc sessions without agent.url), alive now.",
	}, func() float64 { return float64(execs.Running()) })
	reg.MustRegister(m.active, m.refused, m.closed, m.reconnects, relayed, agents, capCollector{cap})
	return m
}

// capUsageTimeout bounds the cap's query at scrape time (the lease table
// of a shared database).
const capUsageTimeout = 2 * time.Second

var (
	capMaxDesc    = prometheus.NewDesc("kandev_relay_capacity_max", "The active LSP connection cap.", nil, nil)
	capGlobalDesc = prometheus.NewDesc("kandev_relay_capacity_in_use_global",
		"Connection cap slots in use by every replica sharing the cap (this process's alone without a shared database).", nil, nil)
	capReplicaDesc = prometheus.NewDesc("kandev_relay_capacity_in_use",
		"Connection cap slots in use, by replica holding any.", []string{"replica"}, nil)
	capHeldDesc = prometheus.NewDesc("kandev_relay_capacity_held",
		"Of the global slots in use, those of lost streams held for their resume.", nil, nil)
)

// capCollector reads the cap at each scrape, so the figures are the
// database's, not a cached copy. When the cap cannot be read the in-use
// samples are left out rather than failing the whole scrape.
type capCollector struct{ cap capacity.Cap }

func (c capCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- capMaxDesc
	ch <- capGlobalDesc
	ch <- capReplicaDesc
	ch <- capHeldDesc
}

func (c capCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), capUsageTimeout)
	defer cancel()
	u, err := c.cap.Usage(ctx)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(capMaxDesc, prometheus.GaugeValue, float64(u.Max))
	ch <- prometheus.MustNewConstMetric(capGlobalDesc, prometheus.GaugeValue, float64(u.Global))
	ch <- prometheus.MustNewConstMetric(capHeldDesc, prometheus.GaugeValue, float64(u.Held))
	for replica, n := range u.Replicas {
		ch <- prometheus.MustNewConstMetric(capReplicaDesc, prometheus.GaugeValue, float64(n), replica)
	}
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
