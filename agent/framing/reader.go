package framing

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/kandev/lsp/internal/wire"
)

const (
	// MaxHeaderLine bounds one header line, CRLF included. Real headers are
	// "Content-Length: N" and an optional Content-Type: a few dozen bytes.
	MaxHeaderLine = 4 << 10
	// MaxHeaderBlock bounds all header lines of one message together, so a
	// peer cannot stream endless small headers.
	MaxHeaderBlock = 16 << 10
	// retainLimit is the largest body buffer a Reader keeps between
	// messages. Bigger bodies get a buffer of their own that is dropped
	// afterwards, so an idle connection never pins a multi-megabyte buffer:
	// the limit is a cap, not an allocation.
	retainLimit = 4 << 20
)

// Reader reads Content-Length framed messages. It is not safe for concurrent
// use; one goroutine owns one Reader, as one goroutine owns a server's stdout.
type Reader struct {
	br    *bufio.Reader
	limit int
	buf   []byte
}

// NewReader returns a Reader over r whose bodies are at most
// wire.MaxMessageSize bytes.
func NewReader(r io.Reader) *Reader {
	return NewReaderSize(r, wire.MaxMessageSize)
}

// NewReaderSize is NewReader with an explicit body limit, for tests and
// benchmarks; production code shares wire.MaxMessageSize with every hop.
func NewReaderSize(r io.Reader, limit int) *Reader {
	// The bufio size is the line bound: ReadSlice fails with ErrBufferFull
	// on a longer line, so no line ever grows a buffer.
	return &Reader{br: bufio.NewReaderSize(r, MaxHeaderLine), limit: limit}
}

// Read returns the body of the next message. The slice is only valid until
// the next call to Read: the buffer is reused, so forwarding a message costs
// no allocation in the steady state.
//
// Read returns io.EOF only when the input ends cleanly before the first byte
// of a message, and io.ErrUnexpectedEOF when it ends inside one.
func (r *Reader) Read() ([]byte, error) {
	n, err := r.readHeader()
	if err != nil {
		return nil, err
	}
	body := r.buf
	if n > cap(body) {
		body = make([]byte, n)
		if n <= retainLimit {
			r.buf = body
		}
	}
	body = body[:n]
	if _, err := io.ReadFull(r.br, body); err != nil {
		if err == io.EOF { // header read, body missing entirely
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

var contentLength = []byte("content-length")

// readHeader consumes the header block and returns the body length.
func (r *Reader) readHeader() (int, error) {
	total := 0
	length := -1
	for first := true; ; first = false {
		line, err := r.br.ReadSlice('\n')
		total += len(line)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return 0, fmt.Errorf("%w: line over %d bytes", ErrHeaderTooLong, MaxHeaderLine)
		case err == io.EOF && first && len(line) == 0:
			return 0, io.EOF
		case err == io.EOF:
			return 0, io.ErrUnexpectedEOF
		case err != nil:
			return 0, err
		}
		if total > MaxHeaderBlock {
			return 0, fmt.Errorf("%w: header block over %d bytes", ErrHeaderTooLong, MaxHeaderBlock)
		}
		// Servers send CRLF; a bare LF is accepted too, as other clients do.
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) == 0 {
			if length < 0 {
				return 0, fmt.Errorf("%w: no Content-Length", ErrBadHeader)
			}
			return length, nil
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, fmt.Errorf("%w: line without colon", ErrBadHeader)
		}
		// Header names are case-insensitive (the LSP base protocol follows
		// HTTP here); any header but Content-Length, e.g. Content-Type, is
		// ignored because bodies are always UTF-8 JSON.
		if !bytes.EqualFold(bytes.TrimSpace(name), contentLength) {
			continue
		}
		n, err := r.parseLength(bytes.TrimSpace(value))
		if err != nil {
			return 0, err
		}
		if length >= 0 && length != n {
			return 0, fmt.Errorf("%w: conflicting Content-Length", ErrBadHeader)
		}
		length = n
	}
}

// parseLength parses a decimal length and checks it against the limit before
// anything is allocated for it.
func (r *Reader) parseLength(v []byte) (int, error) {
	if len(v) == 0 {
		return 0, fmt.Errorf("%w: empty Content-Length", ErrBadHeader)
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: Content-Length %q", ErrBadHeader, v)
		}
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || n > int64(r.limit) {
		// An overflowing decimal is a too-large length too.
		return 0, fmt.Errorf("%w: Content-Length %s over %d", ErrTooLarge, v, r.limit)
	}
	return int(n), nil
}
