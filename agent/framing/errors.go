package framing

import "errors"

// Errors returned by Reader.Read and Writer.Write. Each is a package value so
// callers can map it with errors.Is; the wrapped detail is for logs only.
var (
	// ErrTooLarge: the announced or given body exceeds the size limit. The
	// stream cannot be resynchronised, so the caller should drop it.
	ErrTooLarge = errors.New("framing: message too large")
	// ErrHeaderTooLong: a header line or the header block exceeds its bound.
	ErrHeaderTooLong = errors.New("framing: header too long")
	// ErrBadHeader: a header line is malformed, or Content-Length is missing,
	// duplicated with another value, or not a non-negative decimal.
	ErrBadHeader = errors.New("framing: malformed header")
)
