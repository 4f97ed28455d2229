//go:build linux

package soak

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/tools/pgtest"
)

// Config is one soak round.
type Config struct {
	// Streams is how many browser streams the client opens in all.
	Streams int
	// Duration spreads their starts over this long.
	Duration time.Duration
	// Replicas is the number of relays on the one database (the kill
	// needs at least two).
	Replicas int
	// Cap is the global connection cap (KANDEV_LSP_MAX_CONNECTIONS of
	// every relay).
	Cap int
	// Clients is how many streams the client keeps going at once; above
	// Cap, so that the cap is reached and 4005s happen.
	Clients int
	// LeaseTTL and Heartbeat are the relays' -lease-ttl and
	// -lease-heartbeat.
	LeaseTTL, Heartbeat time.Duration
	// ResumeGrace is the agents' and the relays' -resume-grace: how long
	// a vanished browser's server and its slot are held for a resume that
	// never comes here. Real deployments hold for a minute; a round of a
	// few minutes with a fifth of its browsers vanishing would then spend
	// its cap on held slots and measure little else.
	ResumeGrace time.Duration
	// BinDir receives the built programs.
	BinDir string
	// Log receives progress lines; nil discards them.
	Log io.Writer
}

// kinds of client job, and their share of the streams.
const (
	kindEcho   = "echo"   // open, exchange messages, close normally
	kindCrash  = "crash"  // the server exits after didOpen: expect 4006
	kindStall  = "stall"  // the server never reads: hold, then close
	kindVanish = "vanish" // open, exchange, drop the TCP connection without a close
)

var kindWeights = []struct {
	kind   string
	weight int
}{{kindEcho, 50}, {kindCrash, 15}, {kindStall, 15}, {kindVanish, 20}}

// saveEvery: one settings save, beside the streams, per this many streams.
const saveEvery = 10

// marker is the environment variable every process of a round carries.
const marker = "KANDEV_SOAK_RUN"

// agentToken is the agents' bearer token (loopback, one round's life).
const agentToken = "soak-agent-token"

// Report is what a round saw.
type Report struct {
	Config Config
	// Started is the number of stream jobs the client ran.
	Started, Opened, Refused4005, Unavailable int
	// Crashes is the crash jobs that opened; Crashes4006 of them ended
	// with 4006.
	Crashes, Crashes4006 int
	Stalls, Vanished     int
	// CutByKill is streams of the killed replica that ended without a
	// close code or failed to open while it died.
	CutByKill int
	// OtherErrors are unexpected outcomes, with one example each.
	OtherErrors map[string]int
	// Saves and SaveErrors count settings saves; SettingsAgree is that
	// every surviving replica answers the same, whole settings after.
	Saves, SaveErrors int
	SettingsAgree     bool
	// Samples and MaxLeases: the lease table sampled during the round.
	Samples, MaxLeases int
	// ProvenMax is the most streams the client proved live at once
	// (count.go); AgentMax the largest sum of the agents' active-streams
	// gauges over AgentSamples readings, and AgentWorst the reading
	// closest to (or furthest over) its bound.
	ProvenMax, AgentMax, AgentSamples int
	AgentWorst                        agentSample
	// HeldMax is the largest sum of the agents' held-servers gauges:
	// servers kept for a resume after their browser or relay vanished.
	HeldMax int
	// Unavailable4002Live are 4002s from relays that were alive: nothing
	// in the round explains them. Unavailable4002Killed are 4002s of
	// streams on the killed replica, which with CutByKill must not
	// outnumber KilledStreams, the streams on it when it was killed.
	Unavailable4002Live, Unavailable4002Killed int
	KilledStreams                              int
	// Killed names the replica killed, KilledSlots the slots it held,
	// and Freed how long until the last of them was free (-1: never).
	Killed      string
	KilledSlots int
	Freed       time.Duration
	// Procs are the surviving relays and the agents, start and end.
	Procs []ProcReport
	// Orphans are language servers still running once every stream had
	// ended, and LeftAfterStop processes of the round alive after
	// everything was stopped.
	Orphans, LeftAfterStop []string
	// Stacks are the goroutine stacks of each process that ended with more
	// goroutines than it started with, by name.
	Stacks  map[string]string
	Elapsed time.Duration
	// Failures says what an operator would call broken; empty is a pass.
	Failures []string
}

// ProcReport is one process's resources at the start and the end.
type ProcReport struct {
	Name           string
	FDs0, FDs1     int
	Goroutines0    int
	Goroutines1    int
	RSSKB0, RSSKB1 int
}

// round is the state of one run.
type round struct {
	cfg    Config
	log    io.Writer
	runID  string
	bins   Binaries
	pool   *pgxpool.Pool
	relays []*Proc
	agents map[string]*Proc // by kind
	alive  []atomic.Bool    // by relay index
	live   liveCount
	// track guards inflight, the jobs running on each relay, and the
	// kill's reading of them: a job is either counted before the kill
	// reads the counts or sees its relay dead and picks another.
	track    sync.Mutex
	inflight []int
	freed    chan struct{} // closed when watchFreed is done
	rep      Report
	mu       sync.Mutex // guards rep's counters during the round
}

// Run runs one round: it builds the programs, starts PostgreSQL, the
// agents and the relays, drives the streams, kills one relay half way,
// waits for everything to settle, stops it all and reports.
func Run(ctx context.Context, cfg Config) (rep Report, err error) {
	t0 := time.Now()
	r := &round{cfg: cfg, log: cfg.Log, runID: randomID(), agents: map[string]*Proc{}, freed: make(chan struct{})}
	if r.log == nil {
		r.log = io.Discard
	}
	r.rep.Config = cfg
	r.rep.OtherErrors = map[string]int{}
	r.rep.Freed = -1
	if cfg.Replicas < 2 {
		return r.rep, errors.New("soak: at least two replicas (one is killed)")
	}
	r.logf("building the relay, the agent and the fake server")
	if r.bins, err = Build(ctx, cfg.BinDir); err != nil {
		return r.rep, err
	}
	r.logf("starting PostgreSQL")
	pg, err := pgtest.Start(ctx)
	if err != nil {
		return r.rep, err
	}
	defer func() {
		if serr := pg.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	dsn, err := pg.CreateDatabase(ctx)
	if err != nil {
		return r.rep, err
	}
	work, err := os.MkdirTemp("", "kandev-soak-")
	if err != nil {
		return r.rep, err
	}
	defer os.RemoveAll(work)
	defer r.stopAll()
	if err := r.startAgents(work); err != nil {
		return r.rep, err
	}
	// Each relay's pool is fixed in size, so its descriptors are the
	// same at the start and the end of the round.
	relayDSN := dsn + "&pool_min_conns=4&pool_max_conns=4"
	if err := r.startRelays(work, relayDSN); err != nil {
		return r.rep, err
	}
	if r.pool, err = pgxpool.New(ctx, dsn); err != nil {
		return r.rep, err
	}
	defer r.pool.Close()

	// Warm up: a few streams through every relay to every agent, so
	// lazily made things (pools, caches, the agent's next reaper shim)
	// exist before the baseline. The crash agent's warm stream sends no
	// didOpen, so its server does not exit.
	r.logf("warming up")
	for i := range r.relays {
		for _, kind := range []string{kindEcho, kindCrash, kindStall} {
			if err := r.warm(ctx, i, kind); err != nil {
				return r.rep, fmt.Errorf("warm-up: %w", err)
			}
		}
	}
	if err := r.waitIdle(ctx, 30*time.Second); err != nil {
		return r.rep, fmt.Errorf("warm-up: %w", err)
	}
	base, err := r.baseline(ctx)
	if err != nil {
		return r.rep, err
	}

	sampleCtx, stopSampling := context.WithCancel(ctx)
	sampled := make(chan struct{})
	var samplers sync.WaitGroup
	samplers.Go(func() { r.sample(sampleCtx) })
	samplers.Go(func() { r.sampleAgents(sampleCtx, agentStopBudget) })
	go func() { samplers.Wait(); close(sampled) }()

	r.logf("%d streams over %v through %d relays, cap %d, %d at once", cfg.Streams, cfg.Duration, cfg.Replicas, cfg.Cap, cfg.Clients)
	r.drive(ctx)
	r.logf("all streams done; waiting for the killed replica's slots and for the rest to settle")
	r.waitFreed()
	stopSampling()
	<-sampled
	r.rep.ProvenMax = r.live.maxProven()
	r.live.mu.Lock()
	r.rep.AgentMax, r.rep.AgentSamples, r.rep.AgentWorst = r.live.agentMax, r.live.agentSamples, r.live.agentWorst
	r.rep.HeldMax = r.live.heldMax
	r.live.mu.Unlock()
	if err := r.waitIdle(ctx, 60*time.Second); err != nil {
		r.fail("%v", err)
	}
	r.checkSettings(ctx)
	r.rep.Orphans = r.orphans()
	end := r.settle(ctx, base)
	for _, name := range r.procNames() {
		b, e := base[name], end[name]
		r.rep.Procs = append(r.rep.Procs, ProcReport{Name: name, FDs0: b.FDs, FDs1: e.FDs,
			Goroutines0: b.goroutines, Goroutines1: e.goroutines, RSSKB0: b.RSSKB, RSSKB1: e.RSSKB})
	}
	// A process that did not come back shows why: its goroutines' stacks
	// (SIGQUIT ends it; stopAll then skips it).
	for _, p := range r.rep.Procs {
		if p.Goroutines1 > p.Goroutines0 {
			if r.rep.Stacks == nil {
				r.rep.Stacks = map[string]string{}
			}
			r.rep.Stacks[p.Name] = r.proc(p.Name).Stacks(10 * time.Second)
		}
	}
	r.stopAll()
	r.rep.LeftAfterStop = r.leftAfterStop()
	r.rep.Elapsed = time.Since(t0)
	r.judge()
	return r.rep, nil
}

func (r *round) logf(format string, args ...any) {
	fmt.Fprintf(r.log, "soak: "+format+"\n", args...)
}

func (r *round) fail(format string, args ...any) {
	r.rep.Failures = append(r.rep.Failures, fmt.Sprintf(format, args...))
}

// env is the environment of every process of the round: the soak's, its
// marker, and the fake server first on PATH as rust-analyzer.
func (r *round) env(servers string, extra ...string) []string {
	return Env([]string{"PATH", marker, "KANDEV_LSP_MAX_CONNECTIONS", "KANDEV_RELAY_BROWSER_TOKEN", "KANDEV_AGENT_TOKEN"},
		append([]string{"PATH=" + servers + string(os.PathListSeparator) + os.Getenv("PATH"), marker + "=" + r.runID}, extra...)...)
}

// startAgents starts one agent per scripted behaviour, each on its own
// workspace whose .fakelsp.json scripts the fake server.
func (r *round) startAgents(work string) error {
	servers := filepath.Join(work, "servers")
	if err := os.MkdirAll(servers, 0o755); err != nil {
		return err
	}
	if err := os.Symlink(r.bins.Fake, filepath.Join(servers, "rust-analyzer")); err != nil {
		return err
	}
	scripts := map[string]string{
		kindEcho:  `{"echo": true}`,
		kindCrash: `{"exitOnDidOpen": 3}`,
		kindStall: `{"stopReadingStdin": true}`,
	}
	for _, kind := range []string{kindEcho, kindCrash, kindStall} {
		ws := filepath.Join(work, "ws-"+kind)
		if err := os.MkdirAll(ws, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(ws, ".fakelsp.json"), []byte(scripts[kind]), 0o644); err != nil {
			return err
		}
		// Every client is on loopback: the per-client bound is not what
		// the soak measures. The marker reaches the servers by -pass-env
		// (they get the task environment's allowlist only), so the orphan
		// check finds them.
		p, err := Start("agent "+kind, r.bins.Agent, []string{"-addr", "127.0.0.1:0", "-workspace", ws, "-max-connections", "10000",
			"-max-client-connections", "100000", "-pass-env", marker, "-resume-grace", r.cfg.ResumeGrace.String()},
			r.env(servers, "KANDEV_AGENT_TOKEN="+agentToken))
		if err != nil {
			return err
		}
		r.agents[kind] = p
	}
	return nil
}

func (r *round) startRelays(work, dsn string) error {
	var sessions []relay.Session
	for _, kind := range []string{kindEcho, kindCrash, kindStall} {
		sessions = append(sessions, relay.Session{ID: kind, Executor: relay.ExecutorLocalPC, Workspace: filepath.Join(work, "ws-"+kind),
			Agent: relay.AgentRef{URL: r.agents[kind].URL, Token: agentToken}})
	}
	b, err := json.Marshal(map[string]any{"sessions": sessions})
	if err != nil {
		return err
	}
	file := filepath.Join(work, "sessions.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		return err
	}
	servers := filepath.Join(work, "servers")
	r.alive = make([]atomic.Bool, r.cfg.Replicas)
	r.inflight = make([]int, r.cfg.Replicas)
	for i := range r.cfg.Replicas {
		name := fmt.Sprintf("r%d", i+1)
		p, err := Start("relay "+name, r.bins.Relay, []string{"-addr", "127.0.0.1:0", "-sessions", file, "-db", dsn,
			"-insecure-no-browser-auth", "-replica-id", name,
			"-lease-ttl", r.cfg.LeaseTTL.String(), "-lease-heartbeat", r.cfg.Heartbeat.String(),
			"-agent-binary", r.bins.Agent, "-max-client-connections", "100000", "-resume-grace", r.cfg.ResumeGrace.String()},
			r.env(servers, fmt.Sprintf("KANDEV_LSP_MAX_CONNECTIONS=%d", r.cfg.Cap)))
		if err != nil {
			return err
		}
		r.relays = append(r.relays, p)
		r.alive[i].Store(true)
	}
	return nil
}

// warm runs one short stream of kind through relay i; a 4005 is retried.
func (r *round) warm(ctx context.Context, i int, kind string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		c, code, err := Open(ctx, r.relays[i].URL, kind, wire.Rust)
		switch {
		case err != nil:
			return err
		case code == wire.CloseCapacity:
			time.Sleep(50 * time.Millisecond) // the cap frees as warm streams end
			continue
		case code != 0:
			return fmt.Errorf("%s through %s: closed %d", kind, r.relays[i].Name, code)
		}
		if kind == kindEcho {
			if err := echoOnce(ctx, c, 1); err != nil {
				return err
			}
		}
		return closeNormally(ctx, c)
	}
}

// sample reads the lease table every 20 ms until ctx ends: the live
// leases of every replica must never exceed the cap.
func (r *round) sample(ctx context.Context) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var n int
		if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM kandev_lsp_slot_leases WHERE expires_at > clock_timestamp()`).Scan(&n); err != nil {
			continue
		}
		r.mu.Lock()
		r.rep.Samples++
		r.rep.MaxLeases = max(r.rep.MaxLeases, n)
		r.mu.Unlock()
	}
}

// drive runs every job: Clients workers take them as the pacer releases
// them, and the job at the half way mark kills a replica first.
func (r *round) drive(ctx context.Context) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range r.cfg.Clients {
		wg.Go(func() {
			for n := range jobs {
				r.job(ctx, n)
			}
		})
	}
	gap := r.cfg.Duration / time.Duration(max(r.cfg.Streams, 1))
	next := time.Now()
	for n := range r.cfg.Streams {
		if n == r.cfg.Streams/2 {
			r.kill()
		}
		time.Sleep(time.Until(next)) // pacing the arrivals, not waiting on a condition
		next = next.Add(gap)
		if n%saveEvery == saveEvery/2 {
			// A save through another replica than the stream's, at
			// the same time as the streams.
			wg.Go(func() { r.save(ctx, r.relays[r.relayFor(n+1)].URL, n) })
		}
		select {
		case jobs <- n:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		if n%100 == 99 {
			r.logf("%d streams started", n+1)
		}
	}
	close(jobs)
	wg.Wait()
}

// kill SIGKILLs the relay holding the most slots.
func (r *round) kill() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	held := map[string]int{}
	rows, err := r.pool.Query(ctx, `SELECT replica, count(*) FROM kandev_lsp_slot_leases WHERE NOT held AND expires_at > clock_timestamp() GROUP BY replica`)
	if err == nil {
		for rows.Next() {
			var name string
			var n int
			if rows.Scan(&name, &n) == nil {
				held[name] = n
			}
		}
		rows.Close()
	}
	victim := 0
	for i := range r.relays {
		if held[r.name(i)] > held[r.name(victim)] {
			victim = i
		}
	}
	r.track.Lock()
	r.alive[victim].Store(false)
	r.rep.KilledStreams = r.inflight[victim]
	r.track.Unlock()
	r.relays[victim].Kill()
	killAt := time.Now()
	// Every stream on the victim ends here for the agents' bound, also
	// those whose clients notice only later (a stall holding silently).
	for range r.rep.KilledStreams {
		r.live.end(killAt)
	}
	r.rep.Killed = r.name(victim)
	r.rep.KilledSlots = held[r.name(victim)]
	go r.watchFreed(killAt)
	r.logf("SIGKILL %s holding %d slots", r.name(victim), r.rep.KilledSlots)
}

// name is relay i's replica id.
func (r *round) name(i int) string { return strings.TrimPrefix(r.relays[i].Name, "relay ") }

// watchFreed polls, from the kill on, until the killed replica holds no
// live lease (up to the lease bound and then some), and records how long
// that took; freed is closed when it is done.
func (r *round) watchFreed(killAt time.Time) {
	defer close(r.freed)
	ctx, cancel := context.WithDeadline(context.Background(), killAt.Add(r.cfg.LeaseTTL+10*time.Second))
	defer cancel()
	for ctx.Err() == nil {
		var n int
		// Held leases (browsers that vanished before the kill) end with
		// their resume grace, not the TTL: only the live ones are bounded
		// by the TTL.
		err := r.pool.QueryRow(ctx, `SELECT count(*) FROM kandev_lsp_slot_leases WHERE replica = $1 AND NOT held AND expires_at > clock_timestamp()`, r.rep.Killed).Scan(&n)
		if err == nil && n == 0 {
			r.count(func(rep *Report) { rep.Freed = time.Since(killAt) })
			return
		}
		time.Sleep(20 * time.Millisecond) // polling the lease table, with a deadline
	}
}

// waitFreed waits for watchFreed, if a replica was killed.
func (r *round) waitFreed() {
	if r.rep.Killed != "" {
		<-r.freed
	}
}

// start picks a live relay for job n and counts the job on it.
func (r *round) start(n int) int {
	r.track.Lock()
	defer r.track.Unlock()
	i := r.relayFor(n)
	r.inflight[i]++
	return i
}

// job runs one client job against a live relay, round robin.
func (r *round) job(ctx context.Context, n int) {
	kind := pick(n)
	i := r.start(n)
	defer func() {
		r.track.Lock()
		r.inflight[i]--
		r.track.Unlock()
	}()
	base := r.relays[i].URL
	r.count(func(rep *Report) { rep.Started++ })
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	session := kind
	if kind == kindVanish {
		session = kindEcho
	}
	c, code, err := Open(ctx, base, session, wire.Rust)
	switch {
	case err != nil || code == 0 && c == nil:
		r.outcome(i, "open: "+short(err), err)
		return
	case code == wire.CloseCapacity:
		r.count(func(rep *Report) { rep.Refused4005++ })
		return
	case code == wire.CloseUnavailable:
		// 4002 says the backend is unavailable. Only the kill explains
		// one, and only on the killed replica.
		r.count(func(rep *Report) {
			rep.Unavailable++
			if r.alive[i].Load() {
				rep.Unavailable4002Live++
			} else {
				rep.Unavailable4002Killed++
			}
		})
		return
	case code != 0:
		r.outcome(i, fmt.Sprintf("open: closed %d", code), nil)
		return
	}
	// The ready frame came through the relay, which took the slot before
	// it dialled the agent: the stream is live from here (count.go).
	ready := time.Now()
	r.count(func(rep *Report) { rep.Opened++ })
	defer func() {
		// Over for the client, however it ended; the kill recorded the
		// ends of its replica's streams itself.
		r.track.Lock()
		if r.alive[i].Load() {
			r.live.end(time.Now())
		}
		r.track.Unlock()
	}()
	hold := time.Duration(500+randN(2500)) * time.Millisecond
	switch kind {
	case kindEcho, kindVanish:
		for k := range 3 {
			if err := echoOnce(ctx, c, k); err != nil {
				r.outcome(i, "echo: "+short(err), err)
				_ = c.CloseNow()
				return
			}
		}
		time.Sleep(hold) // holding the stream open is the load itself
		// One more echo after the hold: its answer came through the
		// relay, so the stream held its slot until this was sent.
		sent := time.Now()
		if err := echoOnce(ctx, c, 3); err != nil {
			r.outcome(i, "echo: "+short(err), err)
			_ = c.CloseNow()
			return
		}
		r.live.prove(ready, sent)
		if kind == kindVanish {
			// The browser tab is gone: no close frame, the socket just
			// closes. The relay must notice and free the slot.
			_ = c.CloseNow()
			r.count(func(rep *Report) { rep.Vanished++ })
			return
		}
		if err := closeNormally(ctx, c); err != nil {
			r.outcome(i, "close: "+short(err), err)
		}
	case kindCrash:
		r.count(func(rep *Report) { rep.Crashes++ })
		msg := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///soak.rs","languageId":"rust","version":1,"text":"fn main() {}"}}}`
		sent := time.Now()
		if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			r.outcome(i, "didOpen: "+short(err), err)
			_ = c.CloseNow()
			return
		}
		got := CloseCode(ctx, c)
		_ = c.CloseNow()
		if got == wire.CloseServerExited {
			// The relay passed the server's exit on, so it still
			// bridged the stream after the didOpen went out.
			r.live.prove(ready, sent)
			r.count(func(rep *Report) { rep.Crashes4006++ })
		} else {
			r.outcome(i, fmt.Sprintf("crash: closed %d", got), nil)
		}
	case kindStall:
		r.count(func(rep *Report) { rep.Stalls++ })
		msg := `{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}`
		if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			r.outcome(i, "stall write: "+short(err), err)
			_ = c.CloseNow()
			return
		}
		time.Sleep(hold) // an unanswered request, as the user waits
		if err := closeNormally(ctx, c); err != nil {
			r.outcome(i, "close: "+short(err), err)
		}
	}
}

// outcome files an unexpected outcome on relay i: if that relay was
// killed, it was cut by the kill; otherwise it is an error.
func (r *round) outcome(i int, what string, _ error) {
	if !r.alive[i].Load() {
		r.count(func(rep *Report) { rep.CutByKill++ })
		return
	}
	r.count(func(rep *Report) { rep.OtherErrors[what]++ })
}

func (r *round) count(f func(*Report)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.rep)
}

// relayFor spreads jobs over the live relays.
func (r *round) relayFor(n int) int {
	for k := range len(r.relays) {
		i := (n + k) % len(r.relays)
		if r.alive[i].Load() {
			return i
		}
	}
	return 0
}

// pick chooses job n's kind by kindWeights, deterministically.
func pick(n int) string {
	total := 0
	for _, w := range kindWeights {
		total += w.weight
	}
	// A stride coprime with 100 spreads kinds evenly over time.
	x := (n * 37) % total
	for _, w := range kindWeights {
		if x < w.weight {
			return w.kind
		}
		x -= w.weight
	}
	return kindEcho
}

// save PUTs a whole generation of settings (every field) through base.
func (r *round) save(ctx context.Context, base string, n int) {
	body := settingsGen(n)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, base+wire.RelaySettingsPath, strings.NewReader(body))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	r.count(func(rep *Report) {
		if err == nil && resp.StatusCode == http.StatusOK {
			rep.Saves++
		} else {
			rep.SaveErrors++
		}
	})
}

// settingsGen is generation n of the user's settings: every field carries
// n, so a mix of two saves shows.
func settingsGen(n int) string {
	langs := []string{"go", "python", "typescript", "rust"}
	loc := wire.StatusLocationToolbar
	if n%2 == 1 {
		loc = wire.StatusLocationStatusBar
	}
	return fmt.Sprintf(`{"lsp_auto_start_languages":[%q],"lsp_status_location":%q,"lsp_server_configs":{"go":{"gen":%d}}}`,
		langs[n%len(langs)], loc, n)
}

// checkSettings reads the settings through every survivor: all must
// answer the same, and it must be one save's generation whole.
func (r *round) checkSettings(ctx context.Context) {
	var first string
	r.rep.SettingsAgree = true
	for i := range r.relays {
		if !r.alive[i].Load() {
			continue
		}
		resp, err := httpClient.Get(r.relays[i].URL + wire.RelaySettingsPath)
		if err != nil {
			r.rep.SettingsAgree = false
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var s struct {
			Start   []string                   `json:"lsp_auto_start_languages"`
			Loc     string                     `json:"lsp_status_location"`
			Configs map[string]json.RawMessage `json:"lsp_server_configs"`
		}
		if json.Unmarshal(b, &s) != nil {
			r.rep.SettingsAgree = false
			continue
		}
		var g struct{ Gen int }
		_ = json.Unmarshal(s.Configs["go"], &g)
		want := settingsGen(g.Gen)
		got := fmt.Sprintf(`{"lsp_auto_start_languages":[%q],"lsp_status_location":%q,"lsp_server_configs":{"go":{"gen":%d}}}`,
			first1(s.Start), s.Loc, g.Gen)
		if got != want {
			r.rep.SettingsAgree = false
			r.fail("settings through %s mix saves: %s", r.name(i), b)
		}
		if first == "" {
			first = string(b)
		} else if first != string(b) {
			r.rep.SettingsAgree = false
		}
	}
	_ = ctx
}

func first1(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return l[0]
}

// procNames lists the surviving relays and the agents, in table order.
func (r *round) procNames() []string {
	var out []string
	for i, p := range r.relays {
		if r.alive[i].Load() {
			out = append(out, p.Name)
		}
	}
	for _, kind := range []string{kindEcho, kindCrash, kindStall} {
		out = append(out, r.agents[kind].Name)
	}
	return out
}

func (r *round) proc(name string) *Proc {
	for _, p := range r.relays {
		if p.Name == name {
			return p
		}
	}
	for _, p := range r.agents {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// usage is one process's figures.
type usage struct {
	Stat
	goroutines int
}

func (r *round) snapshot(ctx context.Context) (map[string]usage, error) {
	out := map[string]usage{}
	for _, name := range r.procNames() {
		p := r.proc(name)
		st, err := ReadStat(p.Pid())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		token := ""
		if strings.HasPrefix(name, "agent") {
			token = agentToken
		}
		m, err := Metrics(ctx, p.URL, "/metrics", token)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = usage{Stat: st, goroutines: int(m["go_goroutines"])}
	}
	return out, nil
}

// waitIdle waits until no live lease is left and every agent has no
// stream: the moment "after the streams end".
func (r *round) waitIdle(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var n int
		err := r.pool.QueryRow(ctx, `SELECT count(*) FROM kandev_lsp_slot_leases WHERE expires_at > clock_timestamp()`).Scan(&n)
		busy := err != nil || n > 0
		for _, a := range r.agents {
			m, err := Metrics(ctx, a.URL, "/metrics", agentToken)
			if err != nil {
				busy = true
				continue
			}
			for k, v := range m {
				if (strings.HasPrefix(k, "kandev_agent_streams_active") || strings.HasPrefix(k, "kandev_agent_servers_running")) && v > 0 {
					busy = true
				}
			}
		}
		if !busy {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("streams still active %v after the last ended (leases %d)", limit, n)
		}
		time.Sleep(100 * time.Millisecond) // polling for idle, with a deadline
	}
}

// baseline is each process's figures at the start: the most of a few
// readings. A reading counts the goroutines of the /metrics scrape that
// takes it (the collector's workers, up to one per collector, vary from
// one scrape to the next), so one reading can sit below the process's
// usual figure and make every later one look like a leak.
func (r *round) baseline(ctx context.Context) (map[string]usage, error) {
	base := map[string]usage{}
	for i := range 5 {
		now, err := r.snapshot(ctx)
		if err != nil {
			return nil, err
		}
		fold(base, now, true)
		if i < 4 {
			time.Sleep(100 * time.Millisecond) // readings apart in time, not a wait for a condition
		}
	}
	return base, nil
}

// fold merges a reading into into, process by process: the most
// descriptors and goroutines (most), else the least; the memory of the
// first reading.
func fold(into, now map[string]usage, most bool) {
	pick := func(a, b int) int { return min(a, b) }
	if most {
		pick = func(a, b int) int { return max(a, b) }
	}
	for name, u := range now {
		if b, seen := into[name]; seen {
			b.FDs = pick(b.FDs, u.FDs)
			b.goroutines = pick(b.goroutines, u.goroutines)
			u = b
		}
		into[name] = u
	}
}

// settle waits (up to 20 s) for every process's descriptors and
// goroutines to come back to their start, and returns for each process
// its lowest figures over the wait: a leak never comes back, while a
// reading taken during a busier scrape can sit one or two above.
func (r *round) settle(ctx context.Context, base map[string]usage) map[string]usage {
	deadline := time.Now().Add(20 * time.Second)
	low := map[string]usage{}
	for {
		if now, err := r.snapshot(ctx); err == nil {
			fold(low, now, false)
		}
		// The processes alive now: the base also has the killed replica.
		back := true
		for _, name := range r.procNames() {
			b := base[name]
			if l, ok := low[name]; !ok || l.FDs > b.FDs || l.goroutines > b.goroutines {
				back = false
			}
		}
		if back || time.Now().After(deadline) {
			return low
		}
		time.Sleep(200 * time.Millisecond) // polling for the figures, with a deadline
	}
}

// orphans lists processes of the round other than the relays and agents
// — language servers — still running when no stream is.
func (r *round) orphans() []string {
	ours := map[int]bool{}
	for _, p := range r.relays {
		ours[p.Pid()] = true
	}
	for _, p := range r.agents {
		ours[p.Pid()] = true
	}
	var out []string
	for _, pid := range Marked(marker, r.runID) {
		if !ours[pid] {
			out = append(out, fmt.Sprintf("%d %s", pid, Cmdline(pid)))
		}
	}
	return out
}

func (r *round) leftAfterStop() []string {
	deadline := time.Now().Add(15 * time.Second)
	for {
		var out []string
		for _, pid := range Marked(marker, r.runID) {
			out = append(out, fmt.Sprintf("%d %s", pid, Cmdline(pid)))
		}
		if len(out) == 0 || time.Now().After(deadline) {
			return out
		}
		time.Sleep(100 * time.Millisecond) // polling process exit, with a deadline
	}
}

// stopAll stops the relays, then the agents (task stop reaps servers).
func (r *round) stopAll() {
	var wg sync.WaitGroup
	for i, p := range r.relays {
		if !p.Exited() {
			wg.Go(func() {
				if err := p.Stop(20 * time.Second); err != nil && r.alive[i].Load() {
					r.logf("%v", err)
				}
			})
		}
	}
	wg.Wait()
	for _, p := range r.agents {
		if !p.Exited() {
			wg.Go(func() { _ = p.Stop(20 * time.Second) })
		}
	}
	wg.Wait()
}

// judge turns the figures into failures an operator would care about.
func (r *round) judge() {
	rep := &r.rep
	if rep.MaxLeases > rep.Config.Cap {
		r.fail("the global cap was exceeded: %d live leases sampled, cap %d", rep.MaxLeases, rep.Config.Cap)
	}
	if rep.Samples == 0 {
		r.fail("the lease table was never sampled")
	}
	if rep.ProvenMax > rep.Config.Cap {
		r.fail("the global cap was exceeded: the client proved %d streams live at once, cap %d", rep.ProvenMax, rep.Config.Cap)
	}
	if rep.ProvenMax == 0 {
		r.fail("no stream was proven live: the independent count saw nothing")
	}
	// With a few more clients than the cap, most streams get a slot once
	// one frees; a round where most were refused spent its cap on
	// something that never let go (slots held past their grace, leases
	// not given back) and measured little of what it is for.
	if rep.Opened*3 < rep.Started {
		r.fail("only %d of %d streams opened: the cap was held by slots that did not come back", rep.Opened, rep.Started)
	}
	if w := rep.AgentWorst; rep.AgentSamples == 0 {
		r.fail("the agents' streams were never sampled")
	} else if w.active-w.held > w.bound {
		r.fail("the agents ran %d streams at once (%d more held for a resume): more than the cap %d and the %d streams that could still be stopping",
			w.active-w.held, w.held, rep.Config.Cap, w.stopping)
	}
	if lost := rep.Vanished + rep.KilledStreams; rep.HeldMax > lost {
		r.fail("the agents held %d servers for a resume at once, but only %d browsers vanished or were cut by the killed relay", rep.HeldMax, lost)
	}
	if rep.Unavailable4002Live > 0 {
		r.fail("%d streams closed 4002 by relays that were alive: nothing in the round explains them", rep.Unavailable4002Live)
	}
	if cut := rep.Unavailable4002Killed + rep.CutByKill; cut > rep.KilledStreams {
		r.fail("%d streams cut or closed 4002 by the killed replica, which carried only %d when it was killed", cut, rep.KilledStreams)
	}
	if rep.Opened == 0 || rep.Refused4005 == 0 {
		r.fail("the round did not reach the cap (opened %d, refused %d)", rep.Opened, rep.Refused4005)
	}
	if rep.Crashes4006 != rep.Crashes {
		r.fail("%d of %d crashed servers were not reported as 4006", rep.Crashes-rep.Crashes4006, rep.Crashes)
	}
	if rep.Freed < 0 || rep.Freed > rep.Config.LeaseTTL+2*rep.Config.Heartbeat {
		r.fail("the killed replica's slots were not free within the lease bound %v (took %v)", rep.Config.LeaseTTL, rep.Freed)
	}
	if !rep.SettingsAgree || rep.SaveErrors > 0 {
		r.fail("settings: %d saves failed, replicas agree: %v", rep.SaveErrors, rep.SettingsAgree)
	}
	for what, n := range rep.OtherErrors {
		r.fail("%d streams: %s", n, what)
	}
	for _, p := range rep.Procs {
		if p.FDs1 > p.FDs0 || p.Goroutines1 > p.Goroutines0 {
			r.fail("%s did not come back to its start: fds %d→%d, goroutines %d→%d", p.Name, p.FDs0, p.FDs1, p.Goroutines0, p.Goroutines1)
		}
	}
	if len(rep.Orphans) > 0 {
		r.fail("orphan processes: %v", rep.Orphans)
	}
	if len(rep.LeftAfterStop) > 0 {
		r.fail("processes left after stop: %v", rep.LeftAfterStop)
	}
}

// Print writes the report as a table.
func (rep Report) Print(w io.Writer) {
	c := rep.Config
	fmt.Fprintf(w, "kandev soak: %d relays on one PostgreSQL (global cap %d, lease TTL %v, heartbeat %v, resume grace %v), 3 agents with the fake server, %d clients at once, %v\n\n",
		c.Replicas, c.Cap, c.LeaseTTL, c.Heartbeat, c.ResumeGrace, c.Clients, rep.Elapsed.Round(time.Second))
	row := func(k string, v any) { fmt.Fprintf(w, "  %-38s %v\n", k, v) }
	row("streams started", rep.Started)
	row("streams opened", rep.Opened)
	row("refused with 4005", rep.Refused4005)
	row("global cap: max live leases sampled", fmt.Sprintf("%d of %d (%d samples)", rep.MaxLeases, c.Cap, rep.Samples))
	row("global cap: max streams proven live", fmt.Sprintf("%d of %d (by the client, at once)", rep.ProvenMax, c.Cap))
	aw := rep.AgentWorst
	row("agents: max streams active", fmt.Sprintf("%d (%d samples); worst %d (+ %d held) against cap %d + %d stopping",
		rep.AgentMax, rep.AgentSamples, aw.active-aw.held, aw.held, c.Cap, aw.stopping))
	row("agents: max servers held", rep.HeldMax)
	row("server crashes seen as 4006", fmt.Sprintf("%d of %d", rep.Crashes4006, rep.Crashes))
	row("stalled servers, closed by client", rep.Stalls)
	row("clients vanished without a close", rep.Vanished)
	row("closed 4002 (unavailable)", fmt.Sprintf("%d: %d by live relays, %d by the killed one", rep.Unavailable, rep.Unavailable4002Live, rep.Unavailable4002Killed))
	row("cut by the SIGKILL", fmt.Sprintf("%d (+ %d 4002) of %d streams on it", rep.CutByKill, rep.Unavailable4002Killed, rep.KilledStreams))
	freed := "never"
	if rep.Freed >= 0 {
		freed = rep.Freed.Round(10 * time.Millisecond).String()
	}
	row("SIGKILL", fmt.Sprintf("%s holding %d slots; free after %s (bound %v)", rep.Killed, rep.KilledSlots, freed, c.LeaseTTL))
	row("settings saves", fmt.Sprintf("%d ok, %d failed; replicas agree on one whole save: %v", rep.Saves, rep.SaveErrors, rep.SettingsAgree))
	for what, n := range rep.OtherErrors {
		row("unexpected: "+what, n)
	}
	fmt.Fprintf(w, "\n  %-14s %14s %16s %18s\n", "process", "fds start→end", "goroutines", "RSS MiB")
	for _, p := range rep.Procs {
		fmt.Fprintf(w, "  %-14s %6d → %-6d %7d → %-6d %8.1f → %-6.1f\n", p.Name, p.FDs0, p.FDs1,
			p.Goroutines0, p.Goroutines1, float64(p.RSSKB0)/1024, float64(p.RSSKB1)/1024)
	}
	fmt.Fprintf(w, "\n  orphan processes once streams ended: %d\n", len(rep.Orphans))
	fmt.Fprintf(w, "  processes left after stop:          %d\n", len(rep.LeftAfterStop))
	if len(rep.Failures) == 0 {
		fmt.Fprintf(w, "\nPASS\n")
		return
	}
	for _, name := range slices.Sorted(maps.Keys(rep.Stacks)) {
		fmt.Fprintf(w, "\n  goroutines of %s at the end (SIGQUIT):\n%s\n", name, rep.Stacks[name])
	}
	fmt.Fprintf(w, "\nFAIL\n")
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "  - %s\n", f)
	}
}

func echoOnce(ctx context.Context, c *websocket.Conn, id int) error {
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"soak/ping"}`, id)
	if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		return err
	}
	_, got, err := c.Read(ctx)
	if err != nil {
		return err
	}
	if string(got) != msg {
		return fmt.Errorf("echo: got %q", got)
	}
	return nil
}

// closeNormally closes with 1000 and waits for the relay's answer.
func closeNormally(_ context.Context, c *websocket.Conn) error {
	err := c.Close(websocket.StatusNormalClosure, "")
	if err != nil && websocket.CloseStatus(err) == -1 && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

func short(err error) string {
	if err == nil {
		return "no error"
	}
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

func randN(n int) int {
	v, _ := rand.Int(rand.Reader, big.NewInt(int64(n)))
	return int(v.Int64())
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
