package client

import (
	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/features"
)

// mask is what one server is used for: the features of its catalog
// entry's list (the ready frame's features) and of the user's list for the
// server, both when both are given. A server with neither is used for
// everything it offers.
type mask struct {
	limited     bool         // some list applies
	set         features.Set // the Monaco providers allowed, when limited
	diagnostics bool         // pushed and pulled diagnostics, when limited
}

// providerFeatures are the Monaco providers behind each wire feature name.
var providerFeatures = map[string]features.Set{
	wire.FeatureCompletion:         features.Set(features.Completion) | features.Set(features.InlineCompletion),
	wire.FeatureHover:              features.Set(features.Hover),
	wire.FeatureSignatureHelp:      features.Set(features.SignatureHelp),
	wire.FeatureGotoDefinition:     features.Set(features.Definition),
	wire.FeatureGotoDeclaration:    features.Set(features.Declaration),
	wire.FeatureGotoTypeDefinition: features.Set(features.TypeDefinition),
	wire.FeatureGotoImplementation: features.Set(features.Implementation),
	wire.FeatureGotoReference:      features.Set(features.References),
	wire.FeatureDocumentHighlight:  features.Set(features.DocumentHighlight),
	wire.FeatureDocumentSymbols:    features.Set(features.DocumentSymbol),
	wire.FeatureCodeAction:         features.Set(features.CodeAction),
	wire.FeatureCodeLens:           features.Set(features.CodeLens),
	wire.FeatureRenameSymbol:       features.Set(features.Rename),
	wire.FeatureFormat:             formatting,
	wire.FeatureInlayHints:         features.Set(features.InlayHints),
	wire.FeatureSemanticTokens:     semanticTokens,
	wire.FeatureFoldingRange:       features.Set(features.FoldingRange),
	wire.FeatureSelectionRange:     features.Set(features.SelectionRange),
	wire.FeatureDocumentLinks:      features.Set(features.DocumentLink),
	wire.FeatureDocumentColors:     features.Set(features.DocumentColor),
	wire.FeatureLinkedEditing:      features.Set(features.LinkedEditingRange),
}

// formatting and semanticTokens are the providers of one wire feature each.
const (
	formatting     = features.Set(features.Formatting) | features.Set(features.RangeFormatting) | features.Set(features.OnTypeFormatting)
	semanticTokens = features.Set(features.SemanticTokens) | features.Set(features.SemanticTokensRange)
	renaming       = features.Set(features.Rename)
)

// newMask is the mask of the lists given; a nil list does not limit.
func newMask(lists ...[]string) mask {
	m := mask{set: ^features.Set(0), diagnostics: true}
	for _, list := range lists {
		if list == nil {
			continue
		}
		var set features.Set
		diags := false
		for _, f := range list {
			set |= providerFeatures[f]
			diags = diags || f == wire.FeatureDiagnostics
		}
		m.limited = true
		m.set &= set
		m.diagnostics = m.diagnostics && diags
	}
	return m
}

// allows reports whether the server may be used for provider feature f.
func (m mask) allows(f features.Feature) bool { return !m.limited || m.set.Has(f) }

// filter keeps the providers of s the mask allows.
func (m mask) filter(s features.Set) features.Set {
	if !m.limited {
		return s
	}
	return s & m.set
}

// usesDiagnostics reports whether the server's diagnostics are shown.
func (m mask) usesDiagnostics() bool { return !m.limited || m.diagnostics }
