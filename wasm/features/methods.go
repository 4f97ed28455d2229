package features

// The LSP 3.17 and 3.18 methods of the features wired here that package
// lsptypes does not name.
const (
	// MethodFoldingRangeRefresh (3.18) asks the client to fetch every
	// document's folding ranges again.
	MethodFoldingRangeRefresh = "workspace/foldingRange/refresh"
	// MethodRangesFormatting (3.18) formats several ranges of a document
	// in one request.
	MethodRangesFormatting = "textDocument/rangesFormatting"
	// MethodTextDocumentContent (3.18) asks the server for the text of a
	// document it provides; MethodTextDocumentContentRefresh asks the
	// client to ask again.
	MethodTextDocumentContent        = "workspace/textDocumentContent"
	MethodTextDocumentContentRefresh = "workspace/textDocumentContent/refresh"
	// MethodInlineCompletion (3.18) asks for inline completions, the
	// ghost text at the cursor.
	MethodInlineCompletion    = "textDocument/inlineCompletion"
	MethodCodeLens            = "textDocument/codeLens"
	MethodCodeLensResolve     = "codeLens/resolve"
	MethodCodeLensRefresh     = "workspace/codeLens/refresh"
	MethodDocumentLink        = "textDocument/documentLink"
	MethodDocumentLinkResolve = "documentLink/resolve"
	MethodDocumentColor       = "textDocument/documentColor"
	MethodColorPresentation   = "textDocument/colorPresentation"
	MethodLinkedEditingRange  = "textDocument/linkedEditingRange"
	MethodSelectionRange      = "textDocument/selectionRange"
	MethodSemanticTokensDelta = "textDocument/semanticTokens/full/delta"
	MethodSemanticTokensRange = "textDocument/semanticTokens/range"
)
