package wire

// Features a catalog entry may be limited to, named as Helix names them
// (languages.toml's only-features), so that one server of several can be
// used for some things only: diagnostics from a linter, formatting from
// another. An entry without a list is used for everything it advertises.
const (
	FeatureCompletion         = "completion"
	FeatureHover              = "hover"
	FeatureSignatureHelp      = "signature-help"
	FeatureGotoDefinition     = "goto-definition"
	FeatureGotoDeclaration    = "goto-declaration"
	FeatureGotoTypeDefinition = "goto-type-definition"
	FeatureGotoImplementation = "goto-implementation"
	FeatureGotoReference      = "goto-reference"
	FeatureDocumentHighlight  = "document-highlight"
	FeatureDocumentSymbols    = "document-symbols"
	FeatureWorkspaceSymbols   = "workspace-symbols"
	FeatureDiagnostics        = "diagnostics"
	FeatureCodeAction         = "code-action"
	FeatureCodeLens           = "code-lens"
	FeatureRenameSymbol       = "rename-symbol"
	FeatureFormat             = "format"
	FeatureInlayHints         = "inlay-hints"
	FeatureSemanticTokens     = "semantic-tokens"
	FeatureFoldingRange       = "folding-range"
	FeatureSelectionRange     = "selection-range"
	FeatureDocumentLinks      = "document-links"
	FeatureDocumentColors     = "document-colors"
	FeatureLinkedEditing      = "linked-editing"
	FeatureCallHierarchy      = "call-hierarchy"
	FeatureTypeHierarchy      = "type-hierarchy"
	FeatureWorkspaceCommand   = "workspace-command"
)

// Features lists every Feature* value.
var Features = []string{
	FeatureCompletion, FeatureHover, FeatureSignatureHelp,
	FeatureGotoDefinition, FeatureGotoDeclaration, FeatureGotoTypeDefinition, FeatureGotoImplementation, FeatureGotoReference,
	FeatureDocumentHighlight, FeatureDocumentSymbols, FeatureWorkspaceSymbols,
	FeatureDiagnostics, FeatureCodeAction, FeatureCodeLens, FeatureRenameSymbol, FeatureFormat,
	FeatureInlayHints, FeatureSemanticTokens, FeatureFoldingRange, FeatureSelectionRange,
	FeatureDocumentLinks, FeatureDocumentColors, FeatureLinkedEditing,
	FeatureCallHierarchy, FeatureTypeHierarchy, FeatureWorkspaceCommand,
}

// IsFeature reports whether f is one of Features.
func IsFeature(f string) bool {
	for _, x := range Features {
		if x == f {
			return true
		}
	}
	return false
}
