package clocktest

import (
	"slices"
	"testing"
	"time"

	"github.com/kandev/lsp/wasm/clock"
)

// The clock runs what is due, in order, only when told, and ends the turn
// before any timer.
func TestManual(t *testing.T) {
	var c Manual
	var ran []string
	c.AfterFunc(200*clock.Millisecond, func() { ran = append(ran, "b") })
	c.AfterFunc(100*clock.Millisecond, func() { ran = append(ran, "a") })
	stopped := c.AfterFunc(50*clock.Millisecond, func() { ran = append(ran, "stopped") })
	late := c.AfterFunc(60*clock.Minute, func() { ran = append(ran, "late") })
	c.Soon(func() { ran = append(ran, "soon") })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop reports true once, for a live timer")
	}
	if c.Armed() != 3 || len(ran) != 0 {
		t.Fatalf("before any advance: %d armed, ran %v", c.Armed(), ran)
	}
	c.Advance(250 * time.Millisecond)
	if want := []string{"soon", "a", "b"}; !slices.Equal(ran, want) {
		t.Fatalf("ran %v, want %v (the turn first, then the timers due, earliest first)", ran, want)
	}
	if got := c.Now() - Epoch.UnixMilli(); got != 250 {
		t.Fatalf("Now moved %d ms", got)
	}
	c.Fire()
	if ran[len(ran)-1] != "late" || c.Armed() != 0 || late.Stop() {
		t.Fatalf("Fire runs the rest whenever due: ran %v, %d armed", ran, c.Armed())
	}
}
