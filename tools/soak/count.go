//go:build linux

package soak

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kandev/lsp/agent/proc"
)

// The cap is judged on streams the soak counts itself, not on the relays'
// lease table: a relay that let a stream run without a lease, or released
// one early, keeps a table within the cap while more streams run. Two
// counts, from the two ends of a stream:
//
//   - proven: the client's own. A stream is proven live from the moment
//     its ready frame arrived (the relay took the slot before dialling the
//     agent) until the client sent the last message whose answer came back
//     through the relay (the relay was still bridging, so still held the
//     slot, when it passed the answer on). Every proven interval lies
//     inside its stream's slot, so more of them at once than the cap is
//     the cap broken, with no timing allowance.
//   - at the agents: their kandev_agent_streams_active gauges, summed. An
//     agent counts a stream until its server is stopped, which for a
//     server that stopped reading takes the stop grace after the relay
//     has freed the slot; so this count may pass the cap by the streams
//     still stopping (at most one per stream ended within the agents' stop
//     budget), and is judged against that bound.

// noticeLag is how long after the relay passes a close on the client may
// record the stream's end (the far end of a loopback read).
const noticeLag = 100 * time.Millisecond

// interval is one stream proven live from start to end.
type interval struct{ start, end time.Time }

// liveCount collects the proven intervals and the agents' samples.
type liveCount struct {
	mu     sync.Mutex
	proven []interval
	ended  []time.Time // when each opened stream was over for the client
	// agent samples: the summed gauge and when it was read (the end of
	// the slowest scrape of the sample).
	agentMax, agentSamples int
	heldMax                int
	agentWorst             agentSample
}

// agentSample is one reading of the agents' gauges.
type agentSample struct {
	at, from time.Time // scrapes started at from and all answered by at
	active   int       // streams the agents count, held ones included
	held     int       // servers held for a resume: their browsers are gone
	stopping int       // streams ended within the stop budget before at
	bound    int       // cap + stopping
}

// prove records a stream proven live from start to end.
func (l *liveCount) prove(start, end time.Time) {
	if !end.After(start) {
		return
	}
	l.mu.Lock()
	l.proven = append(l.proven, interval{start, end})
	l.mu.Unlock()
}

// end records that an opened stream was over for the client (closed,
// dropped, or cut) at t: from then the relay may free its slot while the
// agent still stops its server.
func (l *liveCount) end(t time.Time) {
	l.mu.Lock()
	l.ended = append(l.ended, t)
	l.mu.Unlock()
}

// maxProven is the most streams proven live at one instant.
func (l *liveCount) maxProven() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	type edge struct {
		at    time.Time
		delta int
	}
	edges := make([]edge, 0, 2*len(l.proven))
	for _, iv := range l.proven {
		edges = append(edges, edge{iv.start, +1}, edge{iv.end, -1})
	}
	// At the same instant an end goes first: touching intervals do not
	// overlap.
	slices.SortFunc(edges, func(a, b edge) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return a.delta - b.delta
	})
	n, most := 0, 0
	for _, e := range edges {
		n += e.delta
		most = max(most, n)
	}
	return most
}

// sampleAgents reads every agent's streams gauge every 20 ms until ctx
// ends, recording the largest sum and the worst sample against its bound.
func (r *round) sampleAgents(ctx context.Context, budget time.Duration) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		from := time.Now()
		active, held, ok := 0, 0, true
		for _, a := range r.agents {
			m, err := Metrics(ctx, a.URL, "/metrics", agentToken)
			if err != nil {
				ok = false
				break
			}
			for k, v := range m {
				switch {
				case strings.HasPrefix(k, "kandev_agent_streams_active"):
					active += int(v)
				case strings.HasPrefix(k, "kandev_agent_servers_held"):
					held += int(v)
				}
			}
		}
		if !ok {
			continue
		}
		at := time.Now()
		l := &r.live
		l.mu.Lock()
		// A stream the client ended up to budget before the scrapes may
		// still be stopping on its agent. So may one whose end the client
		// saw up to noticeLag after them: the relay frees the slot as it
		// passes a close on, a moment before the client reads it.
		stopping := 0
		for _, e := range l.ended {
			if e.After(from.Add(-budget)) && e.Before(at.Add(noticeLag)) {
				stopping++
			}
		}
		// A server held for a resume has no browser and no relay lease
		// (its browser vanished, or its relay was killed): it is bounded
		// by the agent's grace and caps, not by the global cap, so the
		// cap is checked against the streams that have a browser.
		s := agentSample{at: at, from: from, active: active, held: held, stopping: stopping, bound: r.cfg.Cap + stopping}
		l.agentSamples++
		l.agentMax = max(l.agentMax, active)
		l.heldMax = max(l.heldMax, held)
		if s.active-s.held-s.bound > l.agentWorst.active-l.agentWorst.held-l.agentWorst.bound || l.agentSamples == 1 {
			l.agentWorst = s
		}
		l.mu.Unlock()
	}
}

// agentStopBudget bounds how long an agent may still count a stream after
// the relay freed its slot: its teardown waits up to 100 ms for the
// server's stdin, then stops the server within the stop grace, the kill
// grace and 2 s more (agent/stream's stop budget, default graces: the
// soak's agents run with them).
const agentStopBudget = 100*time.Millisecond + proc.DefaultGrace + proc.DefaultKillGrace + 2*time.Second
