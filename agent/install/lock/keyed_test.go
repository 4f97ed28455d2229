package lock

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestKeyedSerialisesOneKey(t *testing.T) {
	t.Parallel()
	var k Keyed
	ctx := context.Background()
	unlockA, err := k.Lock(ctx, "a")
	require.NoError(t, err)
	unlockB, err := k.Lock(ctx, "b")
	require.NoError(t, err, "other keys are independent")

	got := make(chan func())
	go func() {
		u, err := k.Lock(ctx, "a")
		if err == nil {
			got <- u
		}
	}()
	require.Eventually(t, func() bool { return k.Refs("a") == 2 }, 5*time.Second, time.Millisecond)
	select {
	case <-got:
		t.Fatal("second holder got the lock while the first held it")
	default:
	}
	unlockA()
	(<-got)()
	unlockB()
	require.Zero(t, k.Len(), "entries are dropped when unused")
}

func TestKeyedLockRespectsContext(t *testing.T) {
	t.Parallel()
	var k Keyed
	unlock, err := k.Lock(context.Background(), "a")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() {
		_, err := k.Lock(ctx, "a")
		errc <- err
	}()
	require.Eventually(t, func() bool { return k.Refs("a") == 2 }, 5*time.Second, time.Millisecond)
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)
	require.Equal(t, 1, k.Refs("a"))
	unlock()
	require.Zero(t, k.Len())
}
