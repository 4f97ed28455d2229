package features

import (
	"slices"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// spec is one wired editor feature. Everything that depends on which
// features exist — names, request methods, request params and answer
// mappings, server capabilities, dynamic registration methods, options and
// their Monaco form — reads this one table, so wiring a feature is one row
// here plus its request and result mapping in a file of its own.
type spec struct {
	// call is the provider call: name (Feature.String: the feature's name
	// in the binding's shim, in OptionsJSON and in suppress' snapshot),
	// method, params and result mapping.
	call
	// capability is the member of the server's initialize capabilities.
	capability string
	// register lists the client/registerCapability methods that register
	// it dynamically.
	register []string
	// add merges one static or dynamic registration's options into p and
	// reports whether they enable the feature (nil: any advertisement
	// does, with no options).
	add func(p *Providers, o options) bool
	// same reports whether two providers have the same options for the
	// feature (nil: it has none), so that an unchanged feature's Monaco
	// provider is left alone.
	same func(a, b Providers) bool
	// json appends the options object the binding registers the Monaco
	// provider with (nil: {}).
	json func(b []byte, p Providers) []byte
	// resolves: the server may resolve the feature's items
	// (resolveProvider, kept in Providers.Resolves); the options are
	// {"resolve":bool}.
	resolves bool
}

// row is a feature without options whose provider sends method with params
// and maps the answer with result; its capability and dynamic
// registration method follow LSP's naming.
func row(f Feature, name, method, capability string, params func(*Request, *Env) (j.Appender, error), result func([]byte, *Request, *Env) (string, error)) spec {
	return spec{call: call{name: name, f: f, method: method, params: params, result: result}, capability: capability, register: []string{method}}
}

// table lists the wired features in a stable order.
var table = []spec{
	{
		call:       call{name: "completion", f: Completion, method: lsptypes.MethodCompletion, params: completionParams, result: completionResult},
		capability: "completionProvider", register: []string{lsptypes.MethodCompletion},
		add: func(p *Providers, o options) bool {
			p.CompletionTriggerCharacters = union(p.CompletionTriggerCharacters, o.TriggerCharacters)
			p.CompletionResolve = p.CompletionResolve || o.ResolveProvider
			return true
		},
		same: func(a, b Providers) bool {
			return equal(a.CompletionTriggerCharacters, b.CompletionTriggerCharacters) && a.CompletionResolve == b.CompletionResolve
		},
		json: func(b []byte, p Providers) []byte {
			b = append(b, `{"triggerCharacters":`...)
			b = appendStrings(b, nonNil(p.CompletionTriggerCharacters))
			b = append(b, `,"resolve":`...)
			b = appendBool(b, p.CompletionResolve)
			return append(b, '}')
		},
	},
	row(Hover, "hover", lsptypes.MethodHover, "hoverProvider", posParams, func(raw []byte, _ *Request, _ *Env) (string, error) { return HoverResult(raw) }),
	row(Definition, "definition", lsptypes.MethodDefinition, "definitionProvider", posParams, locationsResult),
	row(References, "references", lsptypes.MethodReferences, "referencesProvider", referenceParams, locationsResult),
	{
		call:       call{name: "signatureHelp", f: SignatureHelp, method: lsptypes.MethodSignatureHelp, params: signatureParams, result: func(raw []byte, _ *Request, _ *Env) (string, error) { return SignatureHelpResult(raw) }},
		capability: "signatureHelpProvider", register: []string{lsptypes.MethodSignatureHelp},
		add: func(p *Providers, o options) bool {
			p.SignatureTriggerCharacters = union(p.SignatureTriggerCharacters, o.TriggerCharacters)
			p.SignatureRetriggerCharacters = union(p.SignatureRetriggerCharacters, o.RetriggerCharacters)
			return true
		},
		same: func(a, b Providers) bool {
			return equal(a.SignatureTriggerCharacters, b.SignatureTriggerCharacters) && equal(a.SignatureRetriggerCharacters, b.SignatureRetriggerCharacters)
		},
		json: func(b []byte, p Providers) []byte {
			b = append(b, `{"triggerCharacters":`...)
			b = appendStrings(b, nonNil(p.SignatureTriggerCharacters))
			b = append(b, `,"retriggerCharacters":`...)
			b = appendStrings(b, nonNil(p.SignatureRetriggerCharacters))
			return append(b, '}')
		},
	},
	{
		call:       call{name: "semanticTokens", f: SemanticTokens, method: lsptypes.MethodSemanticTokensFull, run: semanticTokens},
		capability: "semanticTokensProvider", register: []string{lsptypes.MethodSemanticTokens, lsptypes.MethodSemanticTokensFull},
		// Only with "full" and a legend: Monaco cannot decode tokens
		// without one. The first legend wins.
		add: func(p *Providers, o options) bool {
			if !addLegend(p, o.Full, o) {
				return false
			}
			if d, err := o.Full.Value(); err == nil {
				delta, _ := d.Get("delta").Bool()
				p.SemanticTokensDelta = p.SemanticTokensDelta || delta
			}
			return true
		},
		same: sameLegend,
		json: legendOption,
	},
	{
		call:       call{name: "codeAction", f: CodeAction, method: lsptypes.MethodCodeAction, params: codeActionParams, result: codeActionResult},
		capability: "codeActionProvider", register: []string{lsptypes.MethodCodeAction},
		add: func(p *Providers, o options) bool {
			p.CodeActionKinds = union(p.CodeActionKinds, o.CodeActionKinds)
			p.CodeActionResolve = p.CodeActionResolve || o.ResolveProvider
			p.CodeActionDocs = unionDocs(p.CodeActionDocs, o.CodeActionDocs)
			return true
		},
		same: func(a, b Providers) bool {
			return equal(a.CodeActionKinds, b.CodeActionKinds) && a.CodeActionResolve == b.CodeActionResolve && slices.EqualFunc(a.CodeActionDocs, b.CodeActionDocs, sameDoc)
		},
		json: codeActionOptions,
	},
	{
		call:       call{name: "rename", f: Rename, method: lsptypes.MethodRename, run: rename},
		capability: "renameProvider", register: []string{lsptypes.MethodRename},
		add: func(p *Providers, o options) bool {
			p.RenamePrepare = p.RenamePrepare || o.PrepareProvider
			return true
		},
		same: func(a, b Providers) bool { return a.RenamePrepare == b.RenamePrepare },
	},
	row(Formatting, "formatting", lsptypes.MethodFormatting, "documentFormattingProvider", formattingParams, editsResult),
	{
		call:       call{name: "rangeFormatting", f: RangeFormatting, method: lsptypes.MethodRangeFormatting, params: rangeFormattingParams, result: editsResult},
		capability: "documentRangeFormattingProvider", register: []string{lsptypes.MethodRangeFormatting},
		add: func(p *Providers, o options) bool {
			p.RangesFormatting = p.RangesFormatting || o.RangesSupport
			return true
		},
		same: func(a, b Providers) bool { return a.RangesFormatting == b.RangesFormatting },
		json: func(b []byte, p Providers) []byte {
			return append(appendBool(append(b, `{"ranges":`...), p.RangesFormatting), '}')
		},
	},
	{
		call:       call{name: "onTypeFormatting", f: OnTypeFormatting, method: lsptypes.MethodOnTypeFormatting, params: onTypeFormattingParams, result: editsResult},
		capability: "documentOnTypeFormattingProvider", register: []string{lsptypes.MethodOnTypeFormatting},
		// Monaco needs at least one trigger character.
		add: func(p *Providers, o options) bool {
			p.OnTypeTriggers = union(p.OnTypeTriggers, o.OnTypeTriggers)
			return len(p.OnTypeTriggers) > 0
		},
		same: func(a, b Providers) bool { return equal(a.OnTypeTriggers, b.OnTypeTriggers) },
		json: func(b []byte, p Providers) []byte {
			return append(appendStrings(append(b, `{"triggerCharacters":`...), nonNil(p.OnTypeTriggers)), '}')
		},
	},
	row(DocumentSymbol, "documentSymbol", lsptypes.MethodDocumentSymbol, "documentSymbolProvider", nil, symbolsResult),
	row(FoldingRange, "foldingRange", lsptypes.MethodFoldingRange, "foldingRangeProvider", nil, foldingResult),
	row(DocumentHighlight, "documentHighlight", lsptypes.MethodDocumentHighlight, "documentHighlightProvider", posParams, highlightResult),
	{
		call:       call{name: "inlayHints", f: InlayHints, method: lsptypes.MethodInlayHint, params: rangeParams, result: inlayResult},
		capability: "inlayHintProvider", register: []string{lsptypes.MethodInlayHint}, resolves: true,
	},
	row(TypeDefinition, "typeDefinition", lsptypes.MethodTypeDefinition, "typeDefinitionProvider", posParams, locationsResult),
	row(Implementation, "implementation", lsptypes.MethodImplementation, "implementationProvider", posParams, locationsResult),
	row(Declaration, "declaration", lsptypes.MethodDeclaration, "declarationProvider", posParams, locationsResult),
	{
		call:       call{name: "codeLens", f: CodeLens, method: MethodCodeLens, result: codeLensResult},
		capability: "codeLensProvider", register: []string{MethodCodeLens}, resolves: true,
	},
	{
		call:       call{name: "documentLink", f: DocumentLink, method: MethodDocumentLink, result: linksResult},
		capability: "documentLinkProvider", register: []string{MethodDocumentLink}, resolves: true,
	},
	row(DocumentColor, "documentColor", MethodDocumentColor, "colorProvider", nil, colorsResult),
	row(InlineCompletion, "inlineCompletion", MethodInlineCompletion, "inlineCompletionProvider", inlineParams, inlineResult),
	row(LinkedEditingRange, "linkedEditingRange", MethodLinkedEditingRange, "linkedEditingRangeProvider", posParams, linkedResult),
	row(SelectionRange, "selectionRange", MethodSelectionRange, "selectionRangeProvider", lspParams, selectionResult),
	{
		call:       call{name: "semanticTokensRange", f: SemanticTokensRange, method: MethodSemanticTokensRange, params: rangeParams, result: func(raw []byte, _ *Request, _ *Env) (string, error) { return SemanticTokensResult(raw) }},
		capability: "semanticTokensProvider", register: []string{lsptypes.MethodSemanticTokens},
		add:  func(p *Providers, o options) bool { return addLegend(p, o.Range, o) },
		same: sameLegend,
		json: legendOption,
	},
}

// steps are the calls that follow a provider's answer, each guarded by its
// feature's capability.
var steps = []call{
	{name: "completionResolve", f: Completion, run: func(r *Request, e *Env) (string, error) {
		if !e.Providers.CompletionResolve {
			return "null", nil
		}
		return resolveCompletion(r, e)
	}},
	{name: "codeActionApply", f: CodeAction, run: applyCodeAction},
	{name: "prepareRename", f: Rename, run: prepareRename},
	{name: "formatOnSave", f: Formatting, run: formatOnSave},
	{name: "rangesFormatting", f: RangeFormatting, run: func(r *Request, e *Env) (string, error) {
		if !e.Providers.RangesFormatting {
			return "null", nil
		}
		return rangesFormatting(r, e)
	}},
	resolveStep("inlayHintResolve", InlayHints, lsptypes.MethodInlayHintResolve, appendHint),
	resolveStep("codeLensResolve", CodeLens, MethodCodeLensResolve, appendLens),
	{name: "codeLensRun", f: CodeLens, run: runServerCommand},
	{name: "inlineCompletionRun", f: InlineCompletion, run: runServerCommand},
	resolveStep("documentLinkResolve", DocumentLink, MethodDocumentLinkResolve, appendLink),
	{name: "colorPresentation", f: DocumentColor, method: MethodColorPresentation, params: lspParams, result: presentationsResult},
}

// The providers whose params and answers other files define.

func completionParams(r *Request, e *Env) (j.Appender, error) {
	c, err := completionRequest(r)
	return c.Params(e.DocURI), err
}

func completionRequest(r *Request) (CompletionRequest, error) {
	return ParseCompletionRequest(string(r.v.Raw()))
}

func completionResult(raw []byte, r *Request, e *Env) (string, error) {
	c, err := completionRequest(r)
	if err != nil {
		return "", err
	}
	key := -1
	if e.Providers.CompletionResolve && e.Keep != nil && !nullish(raw) {
		key = e.Keep(raw)
	}
	b, err := appendCompletion(nil, raw, c, key)
	return string(b), err
}

func referenceParams(r *Request, e *Env) (j.Appender, error) {
	b, err := r.appendPosParams(nil, e)
	return j.Raw(append(b, `,"context":{"includeDeclaration":true}}`...)), err
}

func signatureParams(r *Request, e *Env) (j.Appender, error) {
	s, err := ParseSignatureHelpRequest(string(r.v.Raw()))
	return s.Params(e.DocURI), err
}

func locationsResult(raw []byte, _ *Request, e *Env) (string, error) {
	return LocationsResult(raw, e.MapURI)
}

// rangeParams is {"textDocument":…,"range":…} for the request's Monaco
// "range".
func rangeParams(r *Request, e *Env) (j.Appender, error) {
	rng, ok := r.monacoRange("range")
	if !ok {
		return nil, errRequest
	}
	return j.Raw(append(rng.AppendJSON(append(appendDoc(nil, e.DocURI), `,"range":`...)), '}')), nil
}

// addLegend enables a semantic-token provider when its request (full or
// range) is advertised with a legend; the first legend wins.
func addLegend(p *Providers, req j.Raw, o options) bool {
	if !fullAdvertised(req) || o.Legend == nil {
		return false
	}
	if !p.Set.Has(SemanticTokens) && !p.Set.Has(SemanticTokensRange) {
		p.Legend = Legend{TokenTypes: nonNil(o.Legend.TokenTypes), TokenModifiers: nonNil(o.Legend.TokenModifiers)}
	}
	return true
}

func sameLegend(a, b Providers) bool {
	return equal(a.Legend.TokenTypes, b.Legend.TokenTypes) && equal(a.Legend.TokenModifiers, b.Legend.TokenModifiers)
}

func legendOption(b []byte, p Providers) []byte {
	b = append(b, `{"legend":`...)
	b = append(b, LegendJSON(p.Legend)...)
	return append(b, '}')
}

// specOf returns f's row, or nil for a value that is not one feature.
func specOf(f Feature) *spec {
	for i := range table {
		if table[i].f == f {
			return &table[i]
		}
	}
	return nil
}

// ByName returns the feature named as Feature.String names it.
func ByName(name string) (Feature, bool) {
	for i := range table {
		if table[i].name == name {
			return table[i].f, true
		}
	}
	return 0, false
}

// OptionsJSON is the options object the binding registers f's Monaco
// provider with, for the providers p:
//
//	completion       {"triggerCharacters":[...],"resolve":bool}
//	signatureHelp    {"triggerCharacters":[...],"retriggerCharacters":[...]}
//	semanticTokens   {"legend":{"tokenTypes":[...],"tokenModifiers":[...]}}
//	semanticTokensRange (the same)
//	codeAction       {"kinds":[...]}  (the server's codeActionKinds), with
//	                 "docs":[{"kind","title","lsp"}] when it documents kinds
//	onTypeFormatting {"triggerCharacters":[first, more...]}
//	inlayHints, codeLens, documentLink {"resolve":bool}
//	others           {}
func OptionsJSON(p Providers, f Feature) string {
	s := specOf(f)
	if s != nil && s.resolves {
		return string(appendBool([]byte(`{"resolve":`), p.Resolves.Has(f))) + "}"
	}
	if s == nil || s.json == nil {
		return "{}"
	}
	return string(s.json(nil, p))
}
