package framing

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReader checks that no input panics, that every body respects the limit,
// that only the package's errors or EOF variants come out, and that whatever
// the Reader accepts survives a write/read round trip unchanged.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"content-length: 0\r\n\r\n",
		"Content-Type: x\r\nContent-Length: 1\r\n\r\na",
		"Content-Length: 1\n\nb",
		"Content-Length: 999999999\r\n\r\n",
		"Content-Length: 3\r\n\r\nab",
		"Content-Length: 1\r\nContent-Length: 2\r\n\r\nab",
		"garbage\r\n\r\n",
		"",
	} {
		f.Add([]byte(s))
	}
	const limit = 1 << 10
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReaderSize(bytes.NewReader(in), limit)
		var bodies [][]byte
		for {
			body, err := r.Read()
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) &&
					!errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrBadHeader) && !errors.Is(err, ErrHeaderTooLong) {
					t.Fatalf("unexpected error %v", err)
				}
				break
			}
			if len(body) > limit {
				t.Fatalf("body of %d bytes over limit", len(body))
			}
			bodies = append(bodies, bytes.Clone(body))
		}
		var buf bytes.Buffer
		w := NewWriterSize(&buf, limit)
		for _, b := range bodies {
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		r = NewReaderSize(&buf, limit)
		for _, want := range bodies {
			got, err := r.Read()
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("round trip: got %q, %v; want %q", got, err, want)
			}
		}
		if _, err := r.Read(); err != io.EOF {
			t.Fatalf("round trip end: %v", err)
		}
	})
}
