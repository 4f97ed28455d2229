package wire

import "strconv"

// A heartbeat frame is the browser's own check that the whole path to the
// task host still carries messages: browsers cannot send WebSocket pings,
// and a relay that froze (or a path that silently stopped) keeps the
// browser's socket open while nothing moves. lsp.wasm sends
//
//	{"heartbeat":N}
//
// on a stream whose ready frame said Heartbeat, and the agent answers with
// the same frame at once, never passing it to the language server. A
// heartbeat not answered within HeartbeatTimeout means the path is lost.
const (
	// HeartbeatInterval is how often lsp.wasm sends a heartbeat.
	HeartbeatInterval = 10_000_000_000 // 10 s in nanoseconds (no time import in lsp.wasm)
	// HeartbeatTimeout is how long an unanswered heartbeat may wait: with
	// the interval, a stall is noticed within 30 s.
	HeartbeatTimeout = 20_000_000_000
)

// IsHeartbeatFrame reports whether a text frame is a heartbeat, without a
// full parse (no JSON-RPC message has a "heartbeat" member first).
func IsHeartbeatFrame(frame []byte) bool {
	return hasObjectPrefix(frame, `{"heartbeat"`)
}

// AppendHeartbeat appends the heartbeat frame numbered n.
func AppendHeartbeat(b []byte, n uint64) []byte {
	b = append(b, `{"heartbeat":`...)
	b = strconv.AppendUint(b, n, 10)
	return append(b, '}')
}

// HeartbeatNumber returns the number of a heartbeat frame, and false for
// anything else.
func HeartbeatNumber(frame []byte) (uint64, bool) { return numberFrame(frame, `{"heartbeat":`) }

// numberFrame reads {"name":N} after prefix (`{"name":`), optional white
// space first.
func numberFrame(frame []byte, prefix string) (uint64, bool) {
	i := 0
	for i < len(frame) && (frame[i] == ' ' || frame[i] == '\n' || frame[i] == '\r' || frame[i] == '\t') {
		i++
	}
	if len(frame)-i < len(prefix) || string(frame[i:i+len(prefix)]) != prefix {
		return 0, false
	}
	// Digits by hand: strconv.ParseUint's error type quotes its input,
	// which links Unicode's tables into lsp.wasm (30 KB).
	rest := frame[i+len(prefix):]
	var n uint64
	j := 0
	for ; j < len(rest) && rest[j] >= '0' && rest[j] <= '9'; j++ {
		d := uint64(rest[j] - '0')
		if n > (1<<64-1-d)/10 {
			return 0, false // overflow
		}
		n = n*10 + d
	}
	if j == 0 || j >= len(rest) || rest[j] != '}' {
		return 0, false
	}
	return n, true
}
