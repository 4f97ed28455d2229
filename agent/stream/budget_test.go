//go:build linux

package stream

import (
	"fmt"
	"os"
	"testing"
)

// TestBridgeBudgetTable prints the bridge against the stdio floor, measured
// in the same run, as the table DESIGN.md's budgets are stated in (200 B
// round trip within 2.5× the floor, 1 MiB at ≥ 0.6× its throughput). It
// asserts nothing — timings are never test conditions — and runs only when
// asked:
//
//	KANDEV_BENCH_TABLE=1 go test -run TestBridgeBudgetTable -v ./agent/stream
func TestBridgeBudgetTable(t *testing.T) {
	if os.Getenv("KANDEV_BENCH_TABLE") != "1" {
		t.Skip("set KANDEV_BENCH_TABLE=1 to print the bridge budget table")
	}
	t.Logf("%-8s %14s %14s %10s %12s %12s %8s", "size", "bridge ns/op", "floor ns/op", "latency×", "bridge MB/s", "floor MB/s", "tput×")
	for _, size := range benchSizes {
		bridge := testing.Benchmark(func(b *testing.B) { benchBridge(b, size) })
		floor := testing.Benchmark(func(b *testing.B) { benchFloor(b, size) })
		bn, fn := float64(bridge.NsPerOp()), float64(floor.NsPerOp())
		mb := func(r testing.BenchmarkResult) float64 { return float64(size) * float64(r.N) / r.T.Seconds() / 1e6 }
		t.Logf("%-8s %14.0f %14.0f %10.2f %12.1f %12.1f %8.2f", fmt.Sprintf("%dB", size), bn, fn, bn/fn, mb(bridge), mb(floor), mb(bridge)/mb(floor))
	}
}
