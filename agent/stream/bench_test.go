//go:build linux

package stream

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/agent/proc"
)

var benchSizes = []int{200, 1 << 20}

// BenchmarkBridge measures round trips through the agent: a minimal
// WebSocket client (rawClient), the stream handler over loopback, and `cat`
// over stdio.
// BenchmarkStdioFloor is the same echo over a pipe pair of proc.Start
// (grown to 1 MiB), without the socket.
//
// These are one message in flight, in process: a profile target. The
// bridge budgets are stated in the table of tools/bridgebench
// (task bench:table), which runs the real binaries beside a minimal bridge.
func BenchmarkBridge(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) { benchBridge(b, size) })
	}
}

func benchBridge(b *testing.B, size int) {
	f := newFixture(b, "exec cat")
	c, err := dialRaw(f.url("go"), token)
	if err != nil {
		b.Fatal(err)
	}
	defer c.close()
	if _, err := c.read(); err != nil { // ready
		b.Fatal(err)
	}
	msg := bytes.Repeat([]byte("x"), size)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		if err := c.write(msg); err != nil {
			b.Fatal(err)
		}
		if got, err := c.read(); err != nil || len(got) != size {
			b.Fatal(err, len(got))
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
}

// BenchmarkBridgeCoderClient is BenchmarkBridge with a coder/websocket
// client, as the relay would dial: it includes that client's masking and
// 4 KiB writes, so it is slower than the agent alone.
func BenchmarkBridgeCoderClient(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			f := newFixture(b, "exec cat")
			c, _ := readReady(b, f)
			msg := bytes.Repeat([]byte("x"), size)
			ctx := context.Background()
			var in bytes.Buffer // one reused read buffer
			b.SetBytes(int64(size))
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
					b.Fatal(err)
				}
				_, r, err := c.Reader(ctx)
				if err != nil {
					b.Fatal(err)
				}
				in.Reset()
				if _, err := in.ReadFrom(r); err != nil || in.Len() != size {
					b.Fatal(err, in.Len())
				}
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
		})
	}
}

func BenchmarkStdioFloor(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) { benchFloor(b, size) })
	}
}

func benchFloor(b *testing.B, size int) {
	p, err := proc.Start(proc.Command{Path: "/bin/cat", Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop(context.Background())
	w, r := framing.NewWriter(p.Stdin()), framing.NewReader(p.Stdout())
	msg := bytes.Repeat([]byte("x"), size)
	// A writer goroutine, as in the bridge: a 1 MiB message does not fit
	// in a pipe buffer, so writing and reading must overlap.
	next := make(chan struct{})
	defer close(next)
	go func() {
		for range next {
			if err := w.Write(msg); err != nil {
				return
			}
		}
	}()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		next <- struct{}{}
		if _, err := r.Read(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
}
