package capacity

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/relay/pgdb"
	"github.com/kandev/lsp/tools/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// takeAll asks for n slots at once and returns the releases of those
// granted and how many were refused.
func takeAll(t *testing.T, c Cap, n int) (granted []*Slot, refused int) {
	t.Helper()
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		refusal atomic.Int32
	)
	for range n {
		wg.Go(func() {
			release, _, ok, err := c.Acquire(context.Background(), Holder{Session: "s", Language: "go"})
			if !assert.NoError(t, err) {
				return
			}
			if !ok {
				refusal.Add(1)
				return
			}
			mu.Lock()
			granted = append(granted, release)
			mu.Unlock()
		})
	}
	wg.Wait()
	return granted, int(refusal.Load())
}

func TestLocal(t *testing.T) {
	t.Parallel()
	c := NewLocal(3, 0, "r")
	granted, refused := takeAll(t, c, 10)
	assert.Len(t, granted, 3)
	assert.Equal(t, 7, refused)
	u, err := c.Usage(context.Background())
	require.NoError(t, err)
	assert.Equal(t, Usage{Max: 3, Global: 3, Replicas: map[string]int{"r": 3}}, u)
	granted[0].Release()
	granted[0].Release() // idempotent
	u, _ = c.Usage(context.Background())
	assert.Equal(t, 2, u.Global)
	for _, r := range granted[1:] {
		r.Release()
	}
	u, _ = c.Usage(context.Background())
	assert.Equal(t, Usage{Max: 3, Replicas: map[string]int{}}, u)
}

// replica is one Leases on the test database, closed at the end.
func replica(t *testing.T, dsn, id string, ttl, beat time.Duration) *Leases {
	t.Helper()
	pool, err := pgdb.Open(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	l, err := NewLeases(LeasesConfig{Pool: pool, Max: 3, Replica: id, TTL: ttl, Heartbeat: beat})
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close(context.Background()) })
	return l
}

// Two replicas asking for many slots at once never hold more than the cap
// between them, and see each other's in Usage.
func TestLeasesGlobalCap(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	a := replica(t, dsn, "a", 0, 0)
	b := replica(t, dsn, "b", 0, 0)
	var (
		wg     sync.WaitGroup
		ga, gb []*Slot
		ra, rb int
	)
	wg.Go(func() { ga, ra = takeAll(t, a, 10) })
	wg.Go(func() { gb, rb = takeAll(t, b, 10) })
	wg.Wait()
	assert.Equal(t, 3, len(ga)+len(gb), "exactly the cap, across replicas")
	assert.Equal(t, 17, ra+rb)
	u, err := a.Usage(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 3, u.Global)
	assert.Equal(t, 3, u.Max)
	assert.Equal(t, len(ga), u.Replicas["a"])
	assert.Equal(t, len(gb), u.Replicas["b"])

	for _, r := range append(ga, gb...) {
		r.Release()
	}
	u, err = b.Usage(t.Context())
	require.NoError(t, err)
	assert.Zero(t, u.Global, "released slots are free at once")
	granted, _ := takeAll(t, b, 3)
	assert.Len(t, granted, 3)
}

// A live replica's heartbeat keeps its leases past the TTL; a replica
// that stops renewing (as a killed one does) has its slots back within the
// TTL; a graceful Close gives them back at once.
func TestLeasesExpireWhenTheReplicaDies(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	const ttl, beat = 1500 * time.Millisecond, 200 * time.Millisecond
	live := replica(t, dsn, "live", ttl, beat)
	dead := replica(t, dsn, "dead", ttl, beat)
	_, _, ok, err := live.Acquire(t.Context(), Holder{Session: "s1", Language: "go", Server: "gopls"})
	require.NoError(t, err)
	require.True(t, ok)
	for range 2 {
		_, _, ok, err := dead.Acquire(t.Context(), Holder{Session: "s2", Language: "rust"})
		require.NoError(t, err)
		require.True(t, ok)
	}
	_, n, ok, err := live.Acquire(t.Context(), Holder{Session: "s3", Language: "go"})
	require.NoError(t, err)
	require.False(t, ok, "the cap is reached")
	assert.Equal(t, 3, n)

	// The dead replica's heartbeat stops, as when its process is killed;
	// its rows stay.
	dead.once.Do(func() { close(dead.stop) })
	<-dead.done
	killed := time.Now()
	deadline := killed.Add(ttl + 5*time.Second)
	var free time.Duration
	for {
		u, err := live.Usage(t.Context())
		require.NoError(t, err)
		if u.Replicas["dead"] == 0 {
			free = time.Since(killed)
			assert.Equal(t, 1, u.Replicas["live"], "the live replica's lease outlived the TTL")
			break
		}
		require.True(t, time.Now().Before(deadline), "the dead replica's leases never expired")
		time.Sleep(50 * time.Millisecond) // polling a condition, with a deadline
	}
	assert.LessOrEqual(t, free, ttl+time.Second, "within the bound")
	// Past a full TTL the live lease is still counted: renewed.
	time.Sleep(ttl - free + beat) // waiting out the bound is the point here
	u, err := live.Usage(t.Context())
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"live": 1}, u.Replicas)

	granted, refused := takeAll(t, live, 3)
	assert.Len(t, granted, 2, "the dead replica's two slots are back")
	assert.Equal(t, 1, refused)

	require.NoError(t, live.Close(t.Context()))
	u, err = dead.Usage(t.Context())
	require.NoError(t, err)
	assert.Zero(t, u.Global, "a graceful stop gives every slot back at once")
}

func TestLeasesRowsSayWhoHoldsThem(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	l := replica(t, dsn, "r1", 0, 0)
	release, _, ok, err := l.Acquire(t.Context(), Holder{Session: "demo", Language: "typescript", Server: "tsgo"})
	require.NoError(t, err)
	require.True(t, ok)
	pool, err := pgxpool.New(t.Context(), dsn)
	require.NoError(t, err)
	defer pool.Close()
	var replica, session, lang, server string
	var ttl float64
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT replica, session_id, language, server,
		extract(epoch FROM expires_at - heartbeat_at) FROM kandev_lsp_slot_leases`).Scan(&replica, &session, &lang, &server, &ttl))
	assert.Equal(t, []string{"r1", "demo", "typescript", "tsgo"}, []string{replica, session, lang, server})
	assert.InDelta(t, DefaultLeaseTTL.Seconds(), ttl, 0.01)
	release.Release()
	var n int
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT count(*) FROM kandev_lsp_slot_leases`).Scan(&n))
	assert.Zero(t, n)
}

func TestLeasesConfigErrors(t *testing.T) {
	t.Parallel()
	_, err := NewLeases(LeasesConfig{Max: 1})
	assert.Error(t, err)
	_, err = NewLeases(LeasesConfig{Pool: &pgxpool.Pool{}, Max: 1, TTL: time.Second, Heartbeat: time.Second})
	assert.ErrorContains(t, err, "shorter")
}

// takeAs asks for n slots for user, one after the other.
func takeAs(t *testing.T, c Cap, user string, n int) (granted []*Slot, refused int) {
	t.Helper()
	for range n {
		release, _, ok, err := c.Acquire(t.Context(), Holder{Session: "s-" + user, Language: "go", User: user})
		require.NoError(t, err)
		if ok {
			granted = append(granted, release)
		} else {
			refused++
		}
	}
	return granted, refused
}

// shareHolds checks a cap of 4 with a share of 2: alice's many tabs take
// two slots, bob still gets his; a slot alice gives back is hers again.
func shareHolds(t *testing.T, alice, bob Cap) {
	t.Helper()
	ga, ra := takeAs(t, alice, "alice", 5)
	assert.Len(t, ga, 2, "alice holds her share")
	assert.Equal(t, 3, ra)
	gb, rb := takeAs(t, bob, "bob", 2)
	assert.Len(t, gb, 2, "bob is not locked out")
	assert.Zero(t, rb)
	_, rc := takeAs(t, bob, "carol", 1)
	assert.Equal(t, 1, rc, "the global cap still holds")
	ga[0].Release()
	ga[0].Release() // idempotent
	g, _ := takeAs(t, alice, "alice", 2)
	assert.Len(t, g, 1, "alice's released slot is hers again, and only that one")
}

func TestLocalPerUserShare(t *testing.T) {
	t.Parallel()
	c := NewLocal(4, 2, "r")
	shareHolds(t, c, c)
}

// The share is counted across replicas like the global cap: alice cannot
// get more through another replica.
func TestLeasesPerUserShare(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	open := func(id string) *Leases {
		pool, err := pgdb.Open(t.Context(), dsn)
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		l, err := NewLeases(LeasesConfig{Pool: pool, Max: 4, PerUser: 2, Replica: id})
		require.NoError(t, err)
		t.Cleanup(func() { _ = l.Close(context.Background()) })
		return l
	}
	a, b := open("a"), open("b")
	first, _ := takeAs(t, a, "alice", 1)
	require.Len(t, first, 1)
	g, r := takeAs(t, b, "alice", 3)
	assert.Len(t, g, 1, "alice's second slot through the other replica, and no third")
	assert.Equal(t, 2, r)
	for _, rel := range append(first, g...) {
		rel.Release()
	}
	shareHolds(t, a, b)
}

// A resume keeps its place: while a dead replica's leases still fill the
// cap (and the user's share), a stream resuming its held server is
// admitted, and counted; a new stream is not.
func TestResumeIsAdmittedAtTheCap(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	for name, c := range map[string]Cap{
		"local (the user's share)": NewLocal(3, 2, "r"),
		"leases (the cap)":         replica(t, dsn, "r", time.Minute, time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			held := 0
			for {
				_, _, ok, err := c.Acquire(t.Context(), Holder{Session: "s", Language: "go", User: "u"})
				require.NoError(t, err)
				if !ok {
					break // a new stream over the cap
				}
				held++
			}
			release, n, ok, err := c.Acquire(t.Context(), Holder{Session: "s", Language: "go", User: "u", Resuming: true})
			require.NoError(t, err)
			require.True(t, ok, "a resume at the cap")
			assert.Equal(t, held+1, n, "and counted")
			release.Release()
			u, err := c.Usage(t.Context())
			require.NoError(t, err)
			assert.Equal(t, held, u.Global)
		})
	}
}

// A held slot counts like a live one until its resume takes it over —
// without counting a second time — or its grace ends.
func TestHeldSlotCountsUntilItsResumeTakesItOver(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	for name, c := range map[string]Cap{
		"local":  NewLocal(3, 0, "r"),
		"leases": replica(t, dsn, "r", time.Minute, time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			lost := Holder{Session: "s", Language: "go", User: "u"}
			slot, _, ok, err := c.Acquire(t.Context(), lost)
			require.NoError(t, err)
			require.True(t, ok)
			slot.Hold(time.Minute)
			slot.Release() // the handler's deferred release: too late to matter
			others, refused := takeAll(t, c, 3)
			assert.Len(t, others, 2, "the held slot is not free")
			assert.Equal(t, 1, refused)
			u, err := c.Usage(t.Context())
			require.NoError(t, err)
			assert.Equal(t, 3, u.Global)
			assert.Equal(t, 1, u.Held)

			resumed := lost
			resumed.Resuming = true
			again, n, ok, err := c.Acquire(t.Context(), resumed)
			require.NoError(t, err)
			require.True(t, ok, "the resume takes its slot back")
			assert.Equal(t, 3, n, "counted once")
			u, _ = c.Usage(t.Context())
			assert.Equal(t, 3, u.Global)
			assert.Zero(t, u.Held)

			// Not another user's, nor another language's held slot.
			again.Hold(time.Minute)
			for _, h := range []Holder{{Session: "s", Language: "go", User: "mallory", Resuming: true}, {Session: "s", Language: "python", User: "u", Resuming: true}} {
				s, _, ok, err := c.Acquire(t.Context(), h)
				require.NoError(t, err)
				require.True(t, ok, "a resume is admitted at the cap")
				u, _ = c.Usage(t.Context())
				assert.Equal(t, 1, u.Held, "%s/%s took nothing over", h.User, h.Language)
				s.Release()
			}
			for _, s := range others {
				s.Release()
			}
			u, _ = c.Usage(t.Context())
			assert.Equal(t, Usage{Max: 3, Global: 1, Held: 1, Replicas: map[string]int{"r": 1}}, u)
		})
	}
}

// An untaken held slot comes back when its grace ends.
func TestHeldSlotComesBackAfterItsGrace(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	for name, c := range map[string]Cap{
		"local":  NewLocal(1, 1, "r"),
		"leases": replica(t, dsn, "r", time.Minute, time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			slot, _, ok, err := c.Acquire(t.Context(), Holder{Session: "s", Language: "go", User: "u"})
			require.NoError(t, err)
			require.True(t, ok)
			slot.Hold(200 * time.Millisecond)
			require.Eventually(t, func() bool {
				u, err := c.Usage(t.Context())
				return err == nil && u.Global == 0 && u.Held == 0
			}, 10*time.Second, 20*time.Millisecond)
			_, _, ok, err = c.Acquire(t.Context(), Holder{Session: "s2", Language: "go", User: "u"})
			require.NoError(t, err)
			assert.True(t, ok, "the slot is free again")
		})
	}
}

// The lease follows the stream, not the replica: a slot held by a replica
// that then stops is taken over by the resume through another, which then
// owns it — renews it, and gives it back when its stream ends.
func TestHeldLeaseFollowsItsStreamToAnotherReplica(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	a := replica(t, dsn, "a", 2*time.Second, 200*time.Millisecond)
	b := replica(t, dsn, "b", 2*time.Second, 200*time.Millisecond)
	lost := Holder{Session: "s", Language: "go", User: "u"}
	slot, _, ok, err := a.Acquire(t.Context(), lost)
	require.NoError(t, err)
	require.True(t, ok)
	live, _, ok, err := a.Acquire(t.Context(), Holder{Session: "s2", Language: "go", User: "u"})
	require.NoError(t, err)
	require.True(t, ok)
	slot.Hold(time.Minute)
	defer live.Release()
	require.NoError(t, a.Close(t.Context()), "a deploy stops replica a")
	u, err := b.Usage(t.Context())
	require.NoError(t, err)
	assert.Equal(t, Usage{Max: 3, Global: 1, Held: 1, Replicas: map[string]int{"a": 1}}, u, "a's live lease is gone, its held one stays")

	lost.Resuming = true
	var took time.Time
	require.NoError(t, b.pool.QueryRow(t.Context(), `SELECT clock_timestamp()`).Scan(&took))
	resumed, n, ok, err := b.Acquire(t.Context(), lost)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, 1, n)
	// b renews the lease past a whole TTL after it took it over.
	require.Eventually(t, func() bool {
		var beat time.Time
		err := b.pool.QueryRow(t.Context(), `SELECT heartbeat_at FROM kandev_lsp_slot_leases WHERE replica = 'b'`).Scan(&beat)
		return err == nil && beat.Sub(took) > 2*time.Second
	}, 10*time.Second, 50*time.Millisecond)
	u, _ = b.Usage(t.Context())
	assert.Equal(t, Usage{Max: 3, Global: 1, Replicas: map[string]int{"b": 1}}, u)
	resumed.Release()
	u, _ = b.Usage(t.Context())
	assert.Equal(t, Usage{Max: 3, Replicas: map[string]int{}}, u)
}
