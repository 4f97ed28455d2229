package wire

import "strconv"

// Resuming a stream. A socket can be lost while its language server is
// fine: a relay restarts or is deployed, a replica dies, a network path
// stalls. The agent then holds the server for a grace (its -resume-grace)
// instead of stopping it, and the browser connects again presenting the
// ready frame's resume token: the same server carries on, with no second
// initialize and nothing indexed again.
//
// Nothing in flight is lost or doubled. After ready each side numbers the
// data frames it sends, from 1, without writing the number: the agent its
// server's messages and files frames, lsp.wasm its JSON-RPC messages
// (heartbeats, acks and status frames are not data). Each side keeps what
// it sent until the other acknowledges it with
//
//	{"ack":N}
//
// (N: data frames received so far), sent after every AckEvery data frames
// and with each heartbeat and its answer. A resume request carries
// ParamResume and ParamReceived (data frames lsp.wasm received); the agent
// answers with a resumed status frame whose Received is what it received
// and whose Resume is the next token, then sends again every data frame
// after the browser's count; lsp.wasm sends again every one after the
// agent's. A token is good for one resume: two tabs cannot both take one
// held server.
//
// When the gap cannot be filled — the grace ended, a replay buffer
// overflowed (MaxReplayBytes, MaxReplayFrames), the agent restarted, the
// token is foreign — the agent closes the resume request with
// CloseResumeRefused before anything starts, and lsp.wasm connects afresh:
// a new server, every open document opened again from the editor's text.
const (
	// ParamResume carries the resume token on both stream routes.
	ParamResume = "resume"
	// ParamReceived carries, with ParamResume, how many data frames the
	// browser received from the agent.
	ParamReceived = "received"
	// ParamReconnect, "1", marks a stream request lsp.wasm made by itself
	// after it lost a stream and could not resume it: a fresh server for
	// the same editor. The relay counts such reconnects; the agent never
	// sees the parameter.
	ParamReconnect = "reconnect"

	// StatusResumed answers a resume request that re-attached to a held
	// server; its Received and Resume fields are set.
	StatusResumed = "resumed"

	// CloseResumeRefused closes a resume request the agent cannot honour
	// (unknown, used or foreign token, a gap it cannot fill). Nothing was
	// started: the browser connects afresh at once.
	CloseResumeRefused CloseCode = 4009
	// ClosePathLost is what the relay closes the agent's socket with when
	// the browser's socket was lost (no close frame) rather than closed:
	// the agent holds the server for a resume, as it does for a relay
	// that vanished or restarts (1012).
	ClosePathLost CloseCode = 4010

	// AckEvery is how many data frames a side receives before it
	// acknowledges them unasked.
	AckEvery = 64
	// MaxReplayBytes and MaxReplayFrames bound what each side keeps for a
	// replay. A side that would keep more gives the resume up: its stream
	// ends like before resume existed, when its socket is next lost.
	MaxReplayBytes  = 32 << 20
	MaxReplayFrames = 8192
)

// HoldsOnClose reports whether a stream whose socket ended with code (0
// for no close frame at all) is held for a resume rather than ended: the
// socket was lost, or the relay restarts. Any other close — the browser
// closing, Stop, task stop — ends the stream at once.
func HoldsOnClose(code int) bool {
	switch code {
	case 0, 1006, int(CloseServiceRestart), int(ClosePathLost):
		return true
	}
	return false
}

// IsAckFrame reports whether a text frame is an acknowledgement.
func IsAckFrame(frame []byte) bool { return hasObjectPrefix(frame, `{"ack"`) }

// AppendAck appends the acknowledgement of n data frames.
func AppendAck(b []byte, n uint64) []byte {
	b = append(b, `{"ack":`...)
	b = strconv.AppendUint(b, n, 10)
	return append(b, '}')
}

// AckNumber returns the count of an acknowledgement, and false for
// anything else.
func AckNumber(frame []byte) (uint64, bool) { return numberFrame(frame, `{"ack":`) }
