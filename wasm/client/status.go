package client

// State is a connection's lifecycle state, as the status view shows it.
type State string

// Connection states. The spec's "unavailable" is an error with close code
// 4002 here; the view-model decides how to word each code.
const (
	// StateConnecting: dialing the relay, or waiting for the task host.
	StateConnecting State = "connecting"
	// StateInstalling: the task host is installing the server binary.
	StateInstalling State = "installing"
	// StateStarting: the server process runs (the task host said ready) and
	// initialize has been sent but not answered.
	StateStarting State = "starting"
	// StateReady: initialize answered; documents are synchronized.
	StateReady State = "ready"
	// StateStopping: the client is shutting the server down.
	StateStopping State = "stopping"
	// StateOff: the connection ended normally (stopped, 1000 or 1001).
	StateOff State = "off"
	// StateError: the connection failed; CloseCode says why when known.
	StateError State = "error"
)

// Status is the latest state of the connection for one session and language.
type Status struct {
	SessionID string `json:"sessionId"`
	Language  string `json:"language"`
	State     State  `json:"state"`
	// CloseCode is the WebSocket close code that ended the connection (one
	// of wire's 4001–4008, or 1000/1001/1006), 0 while open or when the
	// connection failed without one.
	CloseCode int `json:"closeCode"`
	// Message is server- or task-host-provided detail that the user should
	// see verbatim: an install_failed error, or an initialize error's
	// message. Empty otherwise; transport prose never lands here.
	Message string `json:"message,omitempty"`
}
