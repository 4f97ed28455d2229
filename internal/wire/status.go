package wire

// Status values a task host may send, as JSON text frames, before JSON-RPC
// traffic begins.
const (
	StatusInstalling    = "installing"
	StatusInstalled     = "installed"
	StatusReady         = "ready"
	StatusInstallFailed = "install_failed"
)

// Status is a task-host status frame. Which fields are set depends on Status:
// installing/installed carry Language; ready carries the workspace fields;
// install_failed carries Language and Error. Every frame of a stream names
// its Server, the catalog id the stream runs, and ready also says how that
// server is to be initialized and used.
type Status struct {
	Status   string `json:"status"`
	Language string `json:"language,omitempty"`
	// Server is the catalog id of the stream's server (the one the
	// request named, or the language's default).
	Server string `json:"server,omitempty"`
	Error  string `json:"error,omitempty"`
	// WorkspacePath is the absolute workspace directory on the task host.
	WorkspacePath string `json:"workspacePath,omitempty"`
	// WorkspaceURI is WorkspacePath as a percent-encoded file:// URI; the
	// client uses it verbatim as the LSP rootUri.
	WorkspaceURI string `json:"workspaceUri,omitempty"`
	// RepoSubpaths are the repository roots inside the workspace, relative
	// and slash-separated ("" or "." is the workspace itself).
	RepoSubpaths []string `json:"repoSubpaths,omitempty"`
	// InitializationOptions, on ready, are the catalog entry's default
	// initializationOptions (a JSON object): a client sends them in its
	// initialize request, its own members laid over them. Absent: none.
	InitializationOptions RawJSON `json:"initializationOptions,omitempty"`
	// Configuration, on ready, is the catalog entry's default settings
	// object (a JSON object), what the server's VS Code extension would
	// contribute: the client answers the server's workspace/configuration
	// requests from the user's configuration for that server laid over
	// it. Some servers read every member without a check (ESLint asks for
	// the whole object, section "", and fails on a missing one). Absent:
	// none.
	Configuration RawJSON `json:"configuration,omitempty"`
	// PushConfiguration, on ready, asks the client to send that
	// configuration in workspace/didChangeConfiguration right after
	// initialized, as VS Code's client does for a server that reads its
	// settings only so (the Markdown server). Servers that ask
	// workspace/configuration are not sent it: a partial settings object
	// pushed to them (the VS Code JSON server's) turns off what it leaves
	// out.
	PushConfiguration bool `json:"pushConfiguration,omitempty"`
	// Features, on ready, limits what the server is used for (Feature*
	// values, Helix's only-features); absent, everything it advertises.
	Features []string `json:"features,omitempty"`
	// Heartbeat, on ready, says the task host answers heartbeat frames
	// (heartbeat.go), so the client may check the path with them.
	Heartbeat bool `json:"heartbeat,omitempty"`
	// Resume, on ready and resumed, is the token a lost stream presents
	// to re-attach to this server (resume.go); absent, the task host does
	// not hold servers and a lost stream starts afresh.
	Resume string `json:"resume,omitempty"`
	// Received, on resumed, is how many data frames the task host
	// received from the browser: lsp.wasm sends again every one after it.
	Received uint64 `json:"received,omitempty"`
}

// RawJSON is a JSON value carried as it is, like encoding/json's
// RawMessage; written here because this package must not pull
// encoding/json (and with it reflect) into lsp.wasm.
type RawJSON []byte

// MarshalJSON returns the value itself, or null when it is empty.
func (r RawJSON) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps a copy of the value.
func (r *RawJSON) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// IsStatusFrame reports whether a text frame is a task-host status frame
// rather than a JSON-RPC message, without a full parse: JSON-RPC messages
// always carry "jsonrpc", status frames never do.
func IsStatusFrame(frame []byte) bool {
	// Status frames are small; JSON-RPC frames can be megabytes. A status
	// frame starts with {"status": after optional white space.
	return hasObjectPrefix(frame, `{"status"`)
}

// hasObjectPrefix reports whether frame starts with prefix after optional
// JSON white space, looking at no more bytes than that.
func hasObjectPrefix(frame []byte, prefix string) bool {
	i := 0
	for i < len(frame) && (frame[i] == ' ' || frame[i] == '\n' || frame[i] == '\r' || frame[i] == '\t') {
		i++
	}
	return len(frame)-i >= len(prefix) && string(frame[i:i+len(prefix)]) == prefix
}
