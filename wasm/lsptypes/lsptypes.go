// Package lsptypes holds the Language Server Protocol types of lsp.wasm:
// the connection's own messages (initialize, configuration, diagnostics)
// and those of the editor features (features, docsync, navigate, monaco).
//
// The types follow LSP 3.17
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/).
// Only the fields the client reads or writes are declared, and each is
// read and written by hand with package jsonlite: a complete generated
// protocol package adds megabytes to lsp.wasm, and encoding/json's
// reflection a quarter of its size budget. AppendJSON writes exactly what
// encoding/json would for the struct tags; the Parse functions fail where
// encoding/json would fail to decode. Values passed through without
// interpretation stay jsonlite.Raw.
package lsptypes

// Method names.
const (
	MethodInitialize  = "initialize"
	MethodInitialized = "initialized"
	MethodShutdown    = "shutdown"
	MethodExit        = "exit"

	MethodCompletion            = "textDocument/completion"
	MethodCompletionResolve     = "completionItem/resolve"
	MethodHover                 = "textDocument/hover"
	MethodDefinition            = "textDocument/definition"
	MethodReferences            = "textDocument/references"
	MethodSignatureHelp         = "textDocument/signatureHelp"
	MethodSemanticTokensFull    = "textDocument/semanticTokens/full"
	MethodSemanticTokens        = "textDocument/semanticTokens" // the dynamic-registration method
	MethodSemanticTokensRefresh = "workspace/semanticTokens/refresh"
	MethodPublishDiagnostics    = "textDocument/publishDiagnostics"

	MethodDidOpen   = "textDocument/didOpen"
	MethodDidChange = "textDocument/didChange"
	MethodDidSave   = "textDocument/didSave"
	MethodDidClose  = "textDocument/didClose"

	MethodRegisterCapability     = "client/registerCapability"
	MethodUnregisterCapability   = "client/unregisterCapability"
	MethodWorkspaceConfiguration = "workspace/configuration"
	MethodWorkspaceFolders       = "workspace/workspaceFolders"
	MethodDidChangeConfiguration = "workspace/didChangeConfiguration"
	MethodDidChangeWatchedFiles  = "workspace/didChangeWatchedFiles"
	MethodWorkDoneProgressCreate = "window/workDoneProgress/create"
	MethodProgress               = "$/progress"
	MethodShowMessage            = "window/showMessage"
	MethodShowMessageRequest     = "window/showMessageRequest"
	MethodLogMessage             = "window/logMessage"
)

// Position is a zero-based line and UTF-16 code-unit offset in that line.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a half-open span between two positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	_     [0]func() // incomparable: spares lsp.wasm an equality function
	URI   string    `json:"uri"`
	Range Range     `json:"range"`
}

// LocationLink is a Location with the origin and the target's selection.
type LocationLink struct {
	OriginSelectionRange *Range `json:"originSelectionRange,omitempty"`
	TargetURI            string `json:"targetUri"`
	TargetRange          Range  `json:"targetRange"`
	TargetSelectionRange Range  `json:"targetSelectionRange"`
}

// TextEdit replaces a range with new text.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// MarkupContent is text in a markup kind ("plaintext" or "markdown").
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// VersionedTextDocumentIdentifier names a document at a version.
type VersionedTextDocumentIdentifier struct {
	_       [0]func() // incomparable: spares lsp.wasm an equality function
	URI     string    `json:"uri"`
	Version int32     `json:"version"`
}

// TextDocumentItem is a document as didOpen transfers it.
type TextDocumentItem struct {
	_          [0]func() // incomparable: spares lsp.wasm an equality function
	URI        string    `json:"uri"`
	LanguageID string    `json:"languageId"`
	Version    int32     `json:"version"`
	Text       string    `json:"text"`
}

// TextDocumentPositionParams names a position in a document; hover and
// definition send exactly this.
type TextDocumentPositionParams struct {
	_            [0]func()              // incomparable: spares lsp.wasm an equality function
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// TextDocumentContentChangeEvent is one change. Without Range it replaces
// the whole text (full sync); with it, the changes of one didChange apply
// in order, each to the text the previous one produced.
type TextDocumentContentChangeEvent struct {
	_     [0]func() // incomparable: spares lsp.wasm an equality function
	Range *Range    `json:"range,omitempty"`
	Text  string    `json:"text"`
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

// DidSaveTextDocumentParams is the payload of textDocument/didSave. Text is
// sent only to servers that asked for includeText.
type DidSaveTextDocumentParams struct {
	_            [0]func()              // incomparable: spares lsp.wasm an equality function
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

// DidCloseTextDocumentParams is the payload of textDocument/didClose.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// TextDocumentSyncKind is how a server wants document changes.
type TextDocumentSyncKind int

// Sync kinds.
const (
	SyncNone        TextDocumentSyncKind = 0
	SyncFull        TextDocumentSyncKind = 1
	SyncIncremental TextDocumentSyncKind = 2
)

// SyncOptions is a server's resolved textDocumentSync capability.
type SyncOptions struct {
	// OpenClose: the server wants didOpen and didClose.
	OpenClose bool
	// Change is how didChange carries edits; SyncNone sends none.
	Change TextDocumentSyncKind
	// Save: the server wants didSave.
	Save bool
	// IncludeText: didSave should carry the saved text.
	IncludeText bool
}

// The editing features beyond the first version's: requests the client
// sends and the server requests it answers.
const (
	MethodCodeAction        = "textDocument/codeAction"
	MethodCodeActionResolve = "codeAction/resolve"
	MethodExecuteCommand    = "workspace/executeCommand"
	MethodApplyEdit         = "workspace/applyEdit"
	MethodRename            = "textDocument/rename"
	MethodPrepareRename     = "textDocument/prepareRename"
	MethodFormatting        = "textDocument/formatting"
	MethodRangeFormatting   = "textDocument/rangeFormatting"
	MethodOnTypeFormatting  = "textDocument/onTypeFormatting"
	MethodDocumentSymbol    = "textDocument/documentSymbol"
	MethodFoldingRange      = "textDocument/foldingRange"
	MethodDocumentHighlight = "textDocument/documentHighlight"
	MethodInlayHint         = "textDocument/inlayHint"
	MethodInlayHintResolve  = "inlayHint/resolve"
	MethodInlayHintRefresh  = "workspace/inlayHint/refresh"
	MethodTypeDefinition    = "textDocument/typeDefinition"
	MethodImplementation    = "textDocument/implementation"
	MethodDeclaration       = "textDocument/declaration"
	MethodCancelRequest     = "$/cancelRequest"
)
