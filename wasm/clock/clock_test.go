package clock

import (
	"testing"
	"time"
)

// The same tests run natively (the time package) and under GOOS=js (the
// page's setTimeout, in Node).

func TestAfterFuncRunsOnceAfterTheDelay(t *testing.T) {
	start := Now()
	ran := make(chan int64, 2)
	AfterFunc(20*Millisecond, func() { ran <- Now() })
	select {
	case at := <-ran:
		if at-start < 20 {
			t.Fatalf("ran after %d ms, want at least 20", at-start)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the timer never ran")
	}
}

func TestStopPreventsTheCall(t *testing.T) {
	ran := make(chan struct{}, 1)
	stopped := AfterFunc(10*Millisecond, func() { ran <- struct{}{} })
	if !stopped.Stop() {
		t.Fatal("Stop of a pending timer reported false")
	}
	if stopped.Stop() {
		t.Fatal("a second Stop reported true")
	}
	fired := make(chan struct{})
	later := AfterFunc(50*Millisecond, func() { close(fired) })
	select {
	case <-fired:
	case <-time.After(10 * time.Second):
		t.Fatal("the later timer never ran")
	}
	select {
	case <-ran:
		t.Fatal("a stopped timer ran")
	default:
	}
	if later.Stop() {
		t.Fatal("Stop after the call reported true")
	}
}

func TestNowIsUnixMilliseconds(t *testing.T) {
	if d := Now() - time.Now().UnixMilli(); d < -1000 || d > 1000 {
		t.Fatalf("Now is %d ms off the wall clock", d)
	}
	if (1500*Millisecond).Milliseconds() != 1500 || Minute != 60*Second {
		t.Fatal("durations do not read as time's")
	}
}
