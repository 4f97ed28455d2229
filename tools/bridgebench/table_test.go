//go:build linux

package bridgebench

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
)

// sizes are the message sizes of the table: a small notification, a
// typical completion answer, a large semantic-token or didOpen message,
// a very large one.
var sizes = []int{200, 8 << 10, 256 << 10, 1 << 20}

// rounds and cell: each figure is the median of rounds runs of cell
// length, the paths interleaved so a slow moment of the machine hits all;
// setups stream set-ups are timed per path, interleaved too.
// KANDEV_BENCH_ROUNDS and KANDEV_BENCH_SETUPS change the counts (0 rounds
// leaves out the transfer table).
var (
	rounds = envInt("KANDEV_BENCH_ROUNDS", 5)
	setups = envInt("KANDEV_BENCH_SETUPS", 30)
)

const cell = 200 * time.Millisecond

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n >= 0 {
		return n
	}
	return def
}

// A path is how a client reaches the echo server.
type path struct {
	name string
	open func() (conn, error)
	// after runs once a stream is closed, before the next opens.
	after func()
}

func (p *paths) list(t testing.TB) []path {
	agentURL := wsURL(p.agent.url, wire.AgentStreamPath+"?"+wire.ParamLanguage+"=go")
	relayURL := wsURL(p.relay.url, wire.RelayStreamPrefix+"bench?"+wire.ParamLanguage+"=go")
	return []path{
		{"bare pipe", func() (conn, error) { return startPipe(p.echo) }, func() {}},
		{"minimal bridge", func() (conn, error) { return dialWS(wsURL(p.minbridge.url, "/"), "") }, func() { p.minbridge.idle(t, false) }},
		{"agent", func() (conn, error) { return dialWS(agentURL, p.token) }, func() { p.agent.idle(t, true) }},
		{"relay + agent", func() (conn, error) { return dialWS(relayURL, "") }, func() { p.agent.idle(t, true) }},
	}
}

// TestBridgeTable prints the bridge budget table: the agent
// and the relay in front of it against a bare stdio pipe and a minimal Go
// bridge (minbridge), all to the same echo server, measured in the same
// run. It asserts nothing — timings are never test conditions — and runs
// only when asked (task bench:table):
//
//	KANDEV_BENCH_TABLE=1 go test -count=1 -run TestBridgeTable -v ./tools/bridgebench
//
// KANDEV_BENCH_AGENT=/path/to/kandev-agent runs another build of the agent
// in its place, to compare before and after a change.
//
// Two figures per size, because they answer different questions:
//
//   - round trip: one message in flight, written and read back before the
//     next. Every bridge stores a message whole before forwarding it, so a
//     large message costs each hop's copy in series here, while a bare
//     pipe's cat streams it: a bridge cannot reach the pipe's figure.
//   - throughput: a writer and a reader at once, messages back to back.
//     The hops overlap as in a session with traffic both ways; this is the
//     figure the throughput budget is about.
//
// Budgets (against the minimal bridge, same run): the agent's 200 B round
// trip ≤ 1.0×, its 1 MiB throughput ≥ 1.2×, stream setup ≤ 1.5×; relay +
// agent ≤ 2× the agent alone.
func TestBridgeTable(t *testing.T) {
	if os.Getenv("KANDEV_BENCH_TABLE") != "1" {
		t.Skip("set KANDEV_BENCH_TABLE=1 to print the bridge budget table")
	}
	ps := startPaths(t, build(t)).list(t)

	type figures struct{ rt, tput []float64 }
	results := make([][]figures, len(sizes)) // [size][path]
	for i := range sizes {
		results[i] = make([]figures, len(ps))
		for j := range ps {
			results[i][j] = figures{rt: make([]float64, rounds), tput: make([]float64, rounds)}
		}
	}
	for r := range rounds {
		for i, size := range sizes {
			msg := bytes.Repeat([]byte("x"), size)
			for j, p := range ps {
				c, err := p.open()
				if err != nil {
					t.Fatalf("%s: %v", p.name, err)
				}
				results[i][j].rt[r] = roundTrip(t, c, msg)
				results[i][j].tput[r] = throughput(t, c, msg)
				c.close()
				p.after()
			}
		}
	}

	setup := make([][]float64, len(ps))
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///workspace","capabilities":{}}}`)
	for range setups {
		for j, p := range ps {
			setup[j] = append(setup[j], connectInitialize(t, p, init))
			p.after()
		}
	}

	out := os.Stdout
	const base, ag, rl = 1, 2, 3 // the minimal bridge's, the agent's and the relay's index in ps
	var budgets []string
	if rounds > 0 {
		fmt.Fprintf(out, "\nbridge budget table (%d rounds, medians; × is against the minimal bridge in this run)\n\n", rounds)
		fmt.Fprintf(out, "| size | path | round trip µs | × | throughput MB/s | × |\n|---|---|---:|---:|---:|---:|\n")
		for i, size := range sizes {
			baseRT, baseTP := median(results[i][base].rt), median(results[i][base].tput)
			for j, p := range ps {
				rt, tp := median(results[i][j].rt), median(results[i][j].tput)
				fmt.Fprintf(out, "| %s | %s | %.1f | %.2f | %.1f | %.2f |\n", sizeName(size), p.name, rt, rt/baseRT, tp, tp/baseTP)
			}
		}
		rt := func(i, j int) float64 { return median(results[i][j].rt) }
		tp := func(i, j int) float64 { return median(results[i][j].tput) }
		last := len(sizes) - 1
		budgets = append(budgets,
			fmt.Sprintf("agent 200 B round trip %.2f× minimal (≤ 1.0)", rt(0, ag)/rt(0, base)),
			fmt.Sprintf("agent 1 MiB throughput %.2f× minimal (≥ 1.2)", tp(last, ag)/tp(last, base)),
			fmt.Sprintf("relay + agent 200 B round trip %.2f× agent (≤ 2)", rt(0, rl)/rt(0, ag)),
			fmt.Sprintf("relay + agent 1 MiB round trip %.2f× agent (≤ 2)", rt(last, rl)/rt(last, ag)))
	}
	if setups > 0 {
		fmt.Fprintf(out, "\nstream setup: connect, ready frame, initialize and its answer (%d each)\n\n", setups)
		fmt.Fprintf(out, "| path | median ms | p90 ms | × |\n|---|---:|---:|---:|\n")
		baseSetup := median(setup[base])
		for j, p := range ps {
			fmt.Fprintf(out, "| %s | %.2f | %.2f | %.2f |\n", p.name, median(setup[j]), pct(setup[j], 0.9), median(setup[j])/baseSetup)
		}
		budgets = append(budgets,
			fmt.Sprintf("agent setup %.2f× minimal (≤ 1.5)", median(setup[ag])/baseSetup),
			fmt.Sprintf("relay + agent setup %.2f× agent (≤ 2)", median(setup[rl])/median(setup[ag])))
	}
	fmt.Fprintf(out, "\nbudgets: %s\n", strings.Join(budgets, "; "))
}

// roundTrip returns the mean µs of one message written and read back,
// one in flight. The writes run on their own goroutine in every path: a
// bare pipe needs it (a message larger than the pipe buffer only fits
// while it is read back), and the others then pay the same hand-off.
func roundTrip(t testing.TB, c conn, msg []byte) float64 {
	next := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		for range next {
			if err := c.send(msg); err != nil {
				errs <- err
				return
			}
		}
	}()
	defer close(next)
	once := func() {
		next <- struct{}{}
		n, err := c.recv()
		if err != nil || n != len(msg) {
			select {
			case werr := <-errs:
				err = werr
			default:
			}
			t.Fatalf("round trip of %d bytes: got %d, %v", len(msg), n, err)
		}
	}
	for range 3 { // warm-up: buffers grown, pools filled
		once()
	}
	n, start := 0, time.Now()
	for time.Since(start) < cell {
		once()
		n++
	}
	return float64(time.Since(start).Microseconds()) / float64(n)
}

// throughput returns MB/s through the path with a writer sending a
// fixed number of messages back to back while a reader takes the echoes.
func throughput(t testing.TB, c conn, msg []byte) float64 {
	// 64 MiB a cell, at least 64 messages and at most 50 000.
	count := max(64, min(50_000, (64<<20)/len(msg)))
	wrote := make(chan error, 1)
	start := time.Now()
	go func() {
		for range count {
			if err := c.send(msg); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	for range count {
		n, err := c.recv()
		if err != nil || n != len(msg) {
			t.Fatalf("throughput of %d-byte messages: got %d, %v", len(msg), n, err)
		}
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	return float64(count) * float64(len(msg)) / time.Since(start).Seconds() / 1e6
}

// connectInitialize returns the ms from dialling (or starting the process,
// for the pipe) to the initialize request's answer.
func connectInitialize(t testing.TB, p path, init []byte) float64 {
	start := time.Now()
	c, err := p.open()
	if err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	if err := c.send(init); err != nil {
		t.Fatal(err)
	}
	if _, err := c.recv(); err != nil {
		t.Fatal(err)
	}
	d := time.Since(start)
	c.close()
	return float64(d.Microseconds()) / 1e3
}

func median(xs []float64) float64 { return pct(xs, 0.5) }

// pct is the p-quantile of xs, nearest rank.
func pct(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

func sizeName(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
