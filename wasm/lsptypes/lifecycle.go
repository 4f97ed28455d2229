package lsptypes

import j "github.com/kandev/lsp/wasm/jsonlite"

// The connection's own messages: the initialize handshake, configuration,
// diagnostics. Fields the client passes through without interpreting are
// jsonlite.Raw; every field is read and written by hand (lifecycle_json.go).

// DiagnosticSeverity ranks a diagnostic; 0 means the server omitted it.
type DiagnosticSeverity int

// Diagnostic severities.
const (
	SeverityError       DiagnosticSeverity = 1
	SeverityWarning     DiagnosticSeverity = 2
	SeverityInformation DiagnosticSeverity = 3
	SeverityHint        DiagnosticSeverity = 4
)

// Diagnostic is one problem a server reports for a document.
type Diagnostic struct {
	Range    Range              `json:"range"`
	Severity DiagnosticSeverity `json:"severity,omitempty"`
	// Code is a number or a string; kept raw and rendered by the consumer.
	Code    j.Raw  `json:"code,omitempty"`
	Source  string `json:"source,omitempty"`
	Message string `json:"message"`
	// Tags are DiagnosticTag values (1 unnecessary, 2 deprecated).
	Tags []int `json:"tags,omitempty"`
	// Related is relatedInformation: other places that explain it.
	Related []Related `json:"relatedInformation,omitempty"`
	// Href is codeDescription.href, a link explaining the code.
	Href string `json:"-"`
	// Raw is the diagnostic as the server sent it, data included, for
	// the context of a code action request: servers recognise their own.
	Raw j.Raw `json:"-"`
}

// Related is DiagnosticRelatedInformation.
type Related struct {
	_        [0]func() // incomparable: spares lsp.wasm an equality function
	Location Location  `json:"location"`
	Message  string    `json:"message"`
}

// PublishDiagnosticsParams is the payload of textDocument/publishDiagnostics.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// WorkspaceFolder is one root the client opens.
type WorkspaceFolder struct {
	_    [0]func() // incomparable: spares lsp.wasm an equality function
	URI  string    `json:"uri"`
	Name string    `json:"name"`
}

// ClientInfo names the client in initialize.
type ClientInfo struct {
	_       [0]func() // incomparable: spares lsp.wasm an equality function
	Name    string    `json:"name"`
	Version string    `json:"version,omitempty"`
}

// InitializeParams is the payload of initialize. ProcessID is always null in
// a browser, so it is a pointer that stays nil yet is still sent.
type InitializeParams struct {
	ProcessID             *int32             `json:"processId"`
	ClientInfo            *ClientInfo        `json:"clientInfo,omitempty"`
	RootURI               string             `json:"rootUri"`
	Capabilities          ClientCapabilities `json:"capabilities"`
	WorkspaceFolders      []WorkspaceFolder  `json:"workspaceFolders"`
	WorkDoneToken         ProgressToken      `json:"workDoneToken,omitempty"`
	InitializationOptions j.Raw              `json:"initializationOptions,omitempty"`
}

// ProgressToken is a string or an integer; the client generates strings and
// keeps tokens it receives raw.
type ProgressToken = j.Raw

// ClientCapabilities lists what the client supports. Unset groups are omitted.
type ClientCapabilities struct {
	Workspace    *WorkspaceClientCapabilities `json:"workspace,omitempty"`
	TextDocument j.Raw                        `json:"textDocument,omitempty"`
	Window       *WindowClientCapabilities    `json:"window,omitempty"`
	// General is the general group (positionEncodings, …) as JSON.
	General j.Raw `json:"general,omitempty"`
}

// WorkspaceClientCapabilities is the workspace group.
type WorkspaceClientCapabilities struct {
	WorkspaceFolders bool `json:"workspaceFolders,omitempty"`
	Configuration    bool `json:"configuration,omitempty"`
	// DidChangeConfiguration: the client sends
	// workspace/didChangeConfiguration (pushed settings, no registration).
	DidChangeConfiguration *DynamicRegistration `json:"didChangeConfiguration,omitempty"`
	// More are further members, written as they are ("key":value,...):
	// the editing features' capabilities.
	More j.Raw `json:"-"`
}

// DynamicRegistration is a capability whose only option is dynamic
// registration.
type DynamicRegistration struct {
	DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
}

// WindowClientCapabilities is the window group.
type WindowClientCapabilities struct {
	WorkDoneProgress bool `json:"workDoneProgress,omitempty"`
	// ShowDocument: the client answers window/showDocument.
	ShowDocument bool `json:"-"`
}

// InitializeResult is the answer to initialize. Capabilities stay raw until a
// provider needs one of them.
type InitializeResult struct {
	Capabilities j.Raw `json:"capabilities"`
	ServerInfo   *struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	} `json:"serverInfo,omitempty"`
}

// ConfigurationParams is the payload of workspace/configuration.
type ConfigurationParams struct {
	Items []ConfigurationItem `json:"items"`
}

// ConfigurationItem asks for one configuration section.
type ConfigurationItem struct {
	_        [0]func() // incomparable: spares lsp.wasm an equality function
	ScopeURI string    `json:"scopeUri,omitempty"`
	Section  string    `json:"section,omitempty"`
}

// DidChangeConfigurationParams is the payload of
// workspace/didChangeConfiguration: the language's whole configuration object.
type DidChangeConfigurationParams struct {
	Settings j.Raw `json:"settings"`
}
