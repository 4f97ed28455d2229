package install

import (
	"regexp"
	"strings"
	"sync"
)

// Output limits.
const (
	// MaxOutput is how much installer output is kept: the last MiB. npm
	// can print megabytes of progress; only the end explains a failure.
	MaxOutput = 1 << 20
	// TailSize is how much of the kept output a failure carries to the
	// install_failed frame.
	TailSize = 16 << 10
)

// Output is a bounded capture of installer output: it keeps the last limit
// bytes written, in a ring, and never grows past them. It is safe for one
// writer and concurrent readers.
type Output struct {
	mu    sync.Mutex
	buf   []byte
	limit int
	head  int // once full, where the oldest byte is
	full  bool
}

// NewOutput returns an Output keeping the last limit bytes.
func NewOutput(limit int) *Output { return &Output{limit: limit} }

// Write keeps the newest bytes of p; it never fails.
func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := len(p)
	if len(p) >= o.limit {
		o.buf = append(o.buf[:0], p[len(p)-o.limit:]...)
		o.head, o.full = 0, true
		return n, nil
	}
	if !o.full {
		room := o.limit - len(o.buf)
		if len(p) < room {
			o.buf = append(o.grow(len(p)), p...)
			return n, nil
		}
		o.buf = append(o.grow(room), p[:room]...)
		p = p[room:]
		o.head, o.full = 0, true
	}
	// Overwrite the oldest bytes; p is shorter than the ring, so this
	// wraps at most once.
	for len(p) > 0 {
		c := copy(o.buf[o.head:], p)
		p = p[c:]
		o.head = (o.head + c) % o.limit
	}
	return n, nil
}

// grow makes room for n more bytes without letting append's doubling take
// the buffer past the limit.
func (o *Output) grow(n int) []byte {
	if len(o.buf)+n <= cap(o.buf) {
		return o.buf
	}
	c := min(o.limit, max(2*cap(o.buf), len(o.buf)+n, 4096))
	b := make([]byte, len(o.buf), c)
	copy(b, o.buf)
	return b
}

// Bytes returns a copy of the kept output, oldest first.
func (o *Output) Bytes() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]byte, 0, len(o.buf))
	if !o.full {
		return append(out, o.buf...)
	}
	out = append(out, o.buf[o.head:]...)
	return append(out, o.buf[:o.head]...)
}

// Tail returns the last n bytes of the kept output as readable text:
// terminal escape sequences removed, carriage-return redraws collapsed.
func (o *Output) Tail(n int) string {
	b := o.Bytes()
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return clean(string(b))
}

// ansi matches CSI and OSC escape sequences (colours, cursor moves,
// titles) that npm and go print to a terminal.
var ansi = regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)

// clean makes terminal output readable outside a terminal: a spinner
// redraws one line with '\r', of which only the last state matters.
func clean(s string) string {
	s = ansi.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			lines[i] = l[j+1:]
		}
	}
	return strings.Join(lines, "\n")
}
