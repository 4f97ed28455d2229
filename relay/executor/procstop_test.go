package executor

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// stopAgent asks first and kills only when asking fails or the agent
// outstays ctx: the order Windows needs, where a kill leaves the agent's
// language servers running.
func TestStopAgent(t *testing.T) {
	t.Parallel()
	type agent struct {
		done   chan struct{}
		kills  int
		asks   int
		askErr error
		// exitOnAsk: the agent exits when asked (as after its stop route).
		exitOnAsk bool
	}
	run := func(a *agent, ctx context.Context) error {
		ask := func(context.Context) error {
			a.asks++
			if a.askErr == nil && a.exitOnAsk {
				close(a.done)
			}
			return a.askErr
		}
		kill := func() {
			a.kills++
			select {
			case <-a.done:
			default:
				close(a.done)
			}
		}
		return stopAgent(ctx, ask, kill, a.done)
	}

	t.Run("asked, exits: no kill", func(t *testing.T) {
		a := &agent{done: make(chan struct{}), exitOnAsk: true}
		assert.NoError(t, run(a, context.Background()))
		assert.Equal(t, 1, a.asks)
		assert.Zero(t, a.kills)
	})
	t.Run("ask fails: killed", func(t *testing.T) {
		a := &agent{done: make(chan struct{}), askErr: errors.New("connection refused")}
		err := run(a, context.Background())
		assert.ErrorContains(t, err, "connection refused")
		assert.ErrorContains(t, err, "killed")
		assert.Equal(t, 1, a.kills)
	})
	t.Run("asked, does not exit in time: killed", func(t *testing.T) {
		a := &agent{done: make(chan struct{})}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		assert.ErrorIs(t, run(a, ctx), context.DeadlineExceeded)
		assert.Equal(t, 1, a.kills)
	})
	t.Run("already exited: neither asked nor killed", func(t *testing.T) {
		a := &agent{done: make(chan struct{})}
		close(a.done)
		assert.NoError(t, run(a, context.Background()))
		assert.Zero(t, a.asks)
		assert.Zero(t, a.kills)
	})
}
