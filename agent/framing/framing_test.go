package framing

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

func TestReader(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxHeaderLine)
	many := strings.Repeat("X-Pad: "+strings.Repeat("p", 1000)+"\r\n", 17)
	cases := []struct {
		name  string
		in    string
		want  []string
		err   error // after the wanted bodies
		limit int
	}{
		{name: "one", in: "Content-Length: 2\r\n\r\n{}", want: []string{"{}"}, err: io.EOF},
		{name: "two", in: "Content-Length: 1\r\n\r\naContent-Length: 2\r\n\r\nbc", want: []string{"a", "bc"}, err: io.EOF},
		{name: "case-insensitive", in: "content-LENGTH:3\r\n\r\nabc", want: []string{"abc"}, err: io.EOF},
		{name: "content-type ignored", in: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 1\r\n\r\na", want: []string{"a"}, err: io.EOF},
		{name: "bare LF", in: "Content-Length: 1\n\na", want: []string{"a"}, err: io.EOF},
		{name: "zero length", in: "Content-Length: 0\r\n\r\n", want: []string{""}, err: io.EOF},
		{name: "repeated same length", in: "Content-Length: 1\r\nContent-Length: 1\r\n\r\na", want: []string{"a"}, err: io.EOF},
		{name: "empty input", in: "", err: io.EOF},
		{name: "cut in header", in: "Content-Len", err: io.ErrUnexpectedEOF},
		{name: "cut after header line", in: "Content-Length: 4\r\n", err: io.ErrUnexpectedEOF},
		{name: "cut before body", in: "Content-Length: 4\r\n\r\n", err: io.ErrUnexpectedEOF},
		{name: "cut in body", in: "Content-Length: 4\r\n\r\nab", err: io.ErrUnexpectedEOF},
		{name: "cut in second", in: "Content-Length: 1\r\n\r\naC", want: []string{"a"}, err: io.ErrUnexpectedEOF},
		{name: "missing length", in: "Content-Type: x\r\n\r\n", err: ErrBadHeader},
		{name: "no colon", in: "garbage\r\n\r\n", err: ErrBadHeader},
		{name: "negative", in: "Content-Length: -1\r\n\r\n", err: ErrBadHeader},
		{name: "not a number", in: "Content-Length: 1e3\r\n\r\n", err: ErrBadHeader},
		{name: "empty value", in: "Content-Length:\r\n\r\n", err: ErrBadHeader},
		{name: "conflicting", in: "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", err: ErrBadHeader},
		{name: "too large", in: "Content-Length: 999999999\r\n\r\n", err: ErrTooLarge},
		{name: "overflow", in: "Content-Length: 99999999999999999999999\r\n\r\n", err: ErrTooLarge},
		{name: "over small limit", in: "Content-Length: 11\r\n\r\nhello world", err: ErrTooLarge, limit: 10},
		{name: "at small limit", in: "Content-Length: 10\r\n\r\nhelloworld", want: []string{"helloworld"}, err: io.EOF, limit: 10},
		{name: "long line", in: "X-" + long + "\r\n", err: ErrHeaderTooLong},
		{name: "long block", in: many + "Content-Length: 1\r\n\r\na", err: ErrHeaderTooLong},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			limit := c.limit
			if limit == 0 {
				limit = 16 << 20
			}
			// OneByteReader exercises every partial read path.
			for _, src := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in))} {
				r := NewReaderSize(src, limit)
				for _, want := range c.want {
					got, err := r.Read()
					require.NoError(t, err)
					require.Equal(t, want, string(got))
				}
				_, err := r.Read()
				require.ErrorIs(t, err, c.err)
			}
		})
	}
}

func TestTooLargeDoesNotAllocate(t *testing.T) {
	in := "Content-Length: 999999999\r\n\r\n"
	before := totalAlloc()
	allocs := testing.AllocsPerRun(10, func() {
		_, err := NewReader(strings.NewReader(in)).Read()
		require.ErrorIs(t, err, ErrTooLarge)
	})
	// bufio's 4 KiB buffer, the Reader and the wrapped error: a handful of
	// small allocations, never the announced body.
	require.Less(t, allocs, 10.0)
	require.Less(t, totalAlloc()-before, uint64(1<<20), "announced body must not be allocated")
}

func TestWriter(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 1, 200, coalesceLimit, coalesceLimit + 1, 1 << 20} {
		var out countingWriter
		w := NewWriter(&out)
		body := bytes.Repeat([]byte("a"), size)
		require.NoError(t, w.Write(body))
		r := NewReader(bytes.NewReader(out.Bytes()))
		got, err := r.Read()
		require.NoError(t, err)
		require.Equal(t, string(body), string(got))
		if size <= coalesceLimit {
			require.Equal(t, 1, out.writes, "small message must leave in one Write")
		}
	}
}

func TestWriterRejectsTooLarge(t *testing.T) {
	t.Parallel()
	var out countingWriter
	w := NewWriterSize(&out, 10)
	require.ErrorIs(t, w.Write(make([]byte, 11)), ErrTooLarge)
	require.Zero(t, out.Len(), "nothing written for a rejected body")
	require.NoError(t, w.Write(make([]byte, 10)))
}

func TestWriterError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	w := NewWriter(errWriter{boom})
	require.ErrorIs(t, w.Write([]byte("x")), boom)
	require.ErrorIs(t, w.Write(make([]byte, coalesceLimit+1)), boom)
}

type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }
