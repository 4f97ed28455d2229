package framing

import (
	"fmt"
	"io"
	"strconv"

	"github.com/kandev/lsp/internal/wire"
)

// coalesceLimit is the largest body copied next to its header so that the
// message leaves in one Write (one syscall on a pipe, which matters for the
// round-trip latency of small messages). Larger bodies are written as header
// then body: a second syscall costs less than copying megabytes.
const coalesceLimit = 64 << 10

// Writer writes Content-Length framed messages. It is not safe for concurrent
// use; one goroutine owns one server's stdin.
type Writer struct {
	w     io.Writer
	limit int
	buf   []byte // header scratch, and header+body for small bodies
}

// NewWriter returns a Writer over w that refuses bodies over
// wire.MaxMessageSize.
func NewWriter(w io.Writer) *Writer {
	return NewWriterSize(w, wire.MaxMessageSize)
}

// NewWriterSize is NewWriter with an explicit body limit.
func NewWriterSize(w io.Writer, limit int) *Writer {
	return &Writer{w: w, limit: limit}
}

// Write frames body and writes it. A body over the limit returns ErrTooLarge
// and writes nothing, so the stream stays in sync.
func (w *Writer) Write(body []byte) error {
	if len(body) > w.limit {
		return fmt.Errorf("%w: %d bytes over %d", ErrTooLarge, len(body), w.limit)
	}
	b := append(w.buf[:0], "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	b = append(b, "\r\n\r\n"...)
	if len(body) <= coalesceLimit {
		b = append(b, body...)
		w.buf = b
		_, err := w.w.Write(b)
		return err
	}
	w.buf = b
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	_, err := w.w.Write(body)
	return err
}
