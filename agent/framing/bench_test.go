package framing

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

var benchSizes = []int{200, 1 << 20}

func BenchmarkRead(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			var msg bytes.Buffer
			if err := NewWriter(&msg).Write(bytes.Repeat([]byte("a"), size)); err != nil {
				b.Fatal(err)
			}
			src := &repeatReader{msg: msg.Bytes()}
			r := NewReader(src)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Read(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWrite(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			body := bytes.Repeat([]byte("a"), size)
			w := NewWriter(io.Discard)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := w.Write(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// repeatReader serves the same framed message forever.
type repeatReader struct {
	msg []byte
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.msg[r.off:])
	r.off = (r.off + n) % len(r.msg)
	return n, nil
}
