package features

import "github.com/kandev/lsp/wasm/lsptypes"

// spec is one wired editor feature. Everything that depends on which
// features exist — names, request methods, server capabilities, dynamic
// registration methods, options and their Monaco form — reads this one
// table, so wiring a feature is one row here plus its request and result
// mapping.
type spec struct {
	f Feature
	// name is Feature.String: the feature's name in the binding's shim, in
	// OptionsJSON and in suppress' snapshot.
	name string
	// method is the request a provider call sends.
	method string
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
}

// table lists the wired features in a stable order.
var table = []spec{
	{
		f: Completion, name: "completion", method: lsptypes.MethodCompletion,
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
	{f: Hover, name: "hover", method: lsptypes.MethodHover, capability: "hoverProvider", register: []string{lsptypes.MethodHover}},
	{f: Definition, name: "definition", method: lsptypes.MethodDefinition, capability: "definitionProvider", register: []string{lsptypes.MethodDefinition}},
	{f: References, name: "references", method: lsptypes.MethodReferences, capability: "referencesProvider", register: []string{lsptypes.MethodReferences}},
	{
		f: SignatureHelp, name: "signatureHelp", method: lsptypes.MethodSignatureHelp,
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
		f: SemanticTokens, name: "semanticTokens", method: lsptypes.MethodSemanticTokensFull,
		capability: "semanticTokensProvider", register: []string{lsptypes.MethodSemanticTokens, lsptypes.MethodSemanticTokensFull},
		// Only with "full" and a legend: Monaco cannot decode tokens
		// without one, and range-only is not wired. The first legend wins.
		add: func(p *Providers, o options) bool {
			if !fullAdvertised(o.Full) || o.Legend == nil {
				return false
			}
			if !p.Set.Has(SemanticTokens) {
				p.Legend = Legend{TokenTypes: nonNil(o.Legend.TokenTypes), TokenModifiers: nonNil(o.Legend.TokenModifiers)}
			}
			return true
		},
		same: func(a, b Providers) bool {
			return equal(a.Legend.TokenTypes, b.Legend.TokenTypes) && equal(a.Legend.TokenModifiers, b.Legend.TokenModifiers)
		},
		json: func(b []byte, p Providers) []byte {
			b = append(b, `{"legend":`...)
			b = append(b, LegendJSON(p.Legend)...)
			return append(b, '}')
		},
	},
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

// featureOf maps a client/registerCapability method to its feature (0 for
// document synchronization and anything unwired).
func featureOf(method string) Feature {
	for i := range table {
		for _, m := range table[i].register {
			if m == method {
				return table[i].f
			}
		}
	}
	return 0
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
//	completion      {"triggerCharacters":[...],"resolve":bool}
//	signatureHelp   {"triggerCharacters":[...],"retriggerCharacters":[...]}
//	semanticTokens  {"legend":{"tokenTypes":[...],"tokenModifiers":[...]}}
//	others          {}
func OptionsJSON(p Providers, f Feature) string {
	s := specOf(f)
	if s == nil || s.json == nil {
		return "{}"
	}
	return string(s.json(nil, p))
}
