// Package protocol holds the Language Server Protocol types lsp.wasm uses.
//
// The types follow LSP 3.17
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/).
// Only the fields the client reads or writes are declared: a complete
// generated protocol package adds megabytes to lsp.wasm, and every field here
// is read and written by hand (json.go). Fields the client passes through
// without interpreting are jsonlite.Raw.
package protocol

import j "github.com/kandev/lsp/wasm/jsonlite"

// Method names.
const (
	MethodInitialize  = "initialize"
	MethodInitialized = "initialized"
	MethodShutdown    = "shutdown"
	MethodExit        = "exit"

	MethodDidOpen            = "textDocument/didOpen"
	MethodDidChange          = "textDocument/didChange"
	MethodDidClose           = "textDocument/didClose"
	MethodPublishDiagnostics = "textDocument/publishDiagnostics"

	MethodWorkspaceConfiguration = "workspace/configuration"
	MethodDidChangeConfiguration = "workspace/didChangeConfiguration"
	MethodWorkDoneProgressCreate = "window/workDoneProgress/create"
	MethodRegisterCapability     = "client/registerCapability"
	MethodUnregisterCapability   = "client/unregisterCapability"
	MethodSemanticTokensRefresh  = "workspace/semanticTokens/refresh"
	MethodProgress               = "$/progress"
)

// DocumentURI is a file:// URI as the server sees it.
type DocumentURI string

// Position is a zero-based line and UTF-16 code-unit offset.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a half-open span between two positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

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
}

// PublishDiagnosticsParams is the payload of textDocument/publishDiagnostics.
type PublishDiagnosticsParams struct {
	URI         DocumentURI  `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// WorkspaceFolder is one root the client opens.
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// ClientInfo names the client in initialize.
type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
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
}

// WorkspaceClientCapabilities is the workspace group.
type WorkspaceClientCapabilities struct {
	WorkspaceFolders bool `json:"workspaceFolders,omitempty"`
	Configuration    bool `json:"configuration,omitempty"`
	// DidChangeConfiguration: the client sends
	// workspace/didChangeConfiguration (pushed settings, no registration).
	DidChangeConfiguration *DynamicRegistration `json:"didChangeConfiguration,omitempty"`
}

// DynamicRegistration is a capability whose only option is dynamic
// registration; the client supports none, so it is sent empty.
type DynamicRegistration struct {
	DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
}

// TextDocumentClientCapabilities is the textDocument group.
type TextDocumentClientCapabilities struct {
	Synchronization    *TextDocumentSyncClientCapabilities   `json:"synchronization,omitempty"`
	PublishDiagnostics *PublishDiagnosticsClientCapabilities `json:"publishDiagnostics,omitempty"`
}

// TextDocumentSyncClientCapabilities says which sync notifications the client sends.
type TextDocumentSyncClientCapabilities struct {
	DidSave bool `json:"didSave,omitempty"`
}

// PublishDiagnosticsClientCapabilities says how the client shows diagnostics.
type PublishDiagnosticsClientCapabilities struct {
	RelatedInformation bool `json:"relatedInformation,omitempty"`
	VersionSupport     bool `json:"versionSupport,omitempty"`
}

// WindowClientCapabilities is the window group.
type WindowClientCapabilities struct {
	WorkDoneProgress bool `json:"workDoneProgress,omitempty"`
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

// TextDocumentItem is a document as didOpen transfers it.
type TextDocumentItem struct {
	URI        DocumentURI `json:"uri"`
	LanguageID string      `json:"languageId"`
	Version    int32       `json:"version"`
	Text       string      `json:"text"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI DocumentURI `json:"uri"`
}

// VersionedTextDocumentIdentifier names a document at a version.
type VersionedTextDocumentIdentifier struct {
	URI     DocumentURI `json:"uri"`
	Version int32       `json:"version"`
}

// TextDocumentContentChangeEvent is one change; without Range it replaces the
// whole text (full sync).
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// DidOpenTextDocumentParams is the payload of textDocument/didOpen.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// DidChangeTextDocumentParams is the payload of textDocument/didChange.
type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// DidCloseTextDocumentParams is the payload of textDocument/didClose.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// ConfigurationParams is the payload of workspace/configuration.
type ConfigurationParams struct {
	Items []ConfigurationItem `json:"items"`
}

// ConfigurationItem asks for one configuration section.
type ConfigurationItem struct {
	ScopeURI string `json:"scopeUri,omitempty"`
	Section  string `json:"section,omitempty"`
}

// DidChangeConfigurationParams is the payload of
// workspace/didChangeConfiguration: the language's whole configuration object.
type DidChangeConfigurationParams struct {
	Settings j.Raw `json:"settings"`
}
