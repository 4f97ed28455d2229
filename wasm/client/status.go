package client

import "github.com/kandev/lsp/wasm/progress"

// State is a connection's lifecycle state, as the status view shows it.
type State string

// Connection states: the spec's lifecycle (connecting, installing, starting,
// ready, stopping, unavailable, error) plus off, which only an intentional
// Stop, idle teardown, or a document whose server is not allowed to start
// produce.
const (
	// StateOff: no connection, on purpose (never started, stopped, idle).
	StateOff State = "off"
	// StateConnecting: dialing the relay, or waiting for the task host.
	StateConnecting State = "connecting"
	// StateInstalling: the task host is installing the server binary.
	StateInstalling State = "installing"
	// StateStarting: the task host is starting the server; once Launched,
	// the process runs and initialize is pending.
	StateStarting State = "starting"
	// StateReady: initialize answered; documents are synchronized.
	StateReady State = "ready"
	// StateStopping: the client is shutting the server down.
	StateStopping State = "stopping"
	// StateUnavailable: the task host or the relay refused or ended the
	// connection for a reason outside the server (4002, 4004, 4005, or a
	// normal 1000/1001 close from the far side).
	StateUnavailable State = "unavailable"
	// StateError: the server or its installation failed (4001, 4003, 4006,
	// 4007, 4008), initialize was rejected, or the connection was lost and
	// connecting again by itself did not bring it back.
	StateError State = "error"
	// StateReconnecting: a connection that was ready lost its path to the
	// task host (no close frame, 1006, 1012, 4002) and the client is
	// connecting again by itself (Status.Attempt, Status.LostAt), with no
	// action from the user; the documents and their markers stay.
	StateReconnecting State = "reconnecting"
)

// Status is the state of one (session, language, server) pair in this
// window.
type Status struct {
	_         noCompare
	SessionID string
	Language  string
	// Slot is the server's place in the language's list (0: the first);
	// Server its catalog id, "" for the language's default until its
	// task host names it.
	Slot   int
	Server string
	// Gen is the connection generation the status belongs to (0 before the
	// first connection).
	Gen   uint64
	State State
	// CloseCode is the WebSocket close code that ended the connection (one
	// of wire's 4001–4008, or 1000/1001/1006), 0 while open or when the
	// connection failed without one.
	CloseCode int
	// Message is server- or task-host-provided detail that the user should
	// see verbatim: an install_failed error before a 4003 close, or an
	// initialize error's message. Transport prose never lands here.
	Message string
	// Encoding is the position encoding a server chose that the client
	// does not speak (it counts UTF-16 code units, as Monaco does); the
	// connection was refused rather than show shifted ranges.
	Encoding string
	// Launched: the task host reported ready, so the server process runs.
	Launched bool
	// InitSince is when initialize was sent (Clock milliseconds), 0 unless
	// its answer is pending.
	InitSince int64
	// Progress is the current generation's work-done progress.
	Progress progress.Snapshot
	// Documents counts the open documents (leases) of the pair.
	Documents int
	// Attempt is the automatic reconnect attempt under way (1 the first),
	// 0 when not reconnecting; LostAt is when the path was lost (Clock
	// milliseconds), 0 likewise.
	Attempt int
	LostAt  int64
}

// noCompare, a struct's first field, makes it incomparable: Go then
// generates no equality function for it, which lsp.wasm would carry for
// every such type that reaches an interface (about 0.5 KB each).
type noCompare [0]func()
