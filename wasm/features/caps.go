package features

import (
	"errors"
	"slices"
	"sync"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// errNotObject reports capabilities or registration params of the wrong shape.
var errNotObject = errors.New("features: malformed capabilities or registration params")

// Feature is one editor feature a server may provide. Features are bits so
// a Set is one integer; the table (table.go) describes each.
type Feature uint32

// The wired editor features. Diagnostics are not here: they are pushed by
// the server (publishDiagnostics) and need no capability.
const (
	Completion Feature = 1 << iota
	Hover
	Definition
	References
	SignatureHelp
	SemanticTokens
	CodeAction
	Rename
	Formatting
	RangeFormatting
	OnTypeFormatting
	DocumentSymbol
	FoldingRange
	DocumentHighlight
	InlayHints
	TypeDefinition
	Implementation
	Declaration
	CodeLens
	DocumentLink
	DocumentColor
	LinkedEditingRange
	SelectionRange
	SemanticTokensRange
	InlineCompletion
)

// All lists every feature in a stable order.
var All = func() []Feature {
	out := make([]Feature, len(table))
	for i, s := range table {
		out[i] = s.f
	}
	return out
}()

// String is the feature's name in every JSON this package and suppress
// produce: completion, hover, definition, references, signatureHelp,
// semanticTokens, codeAction, rename, formatting, rangeFormatting,
// onTypeFormatting, documentSymbol, foldingRange, documentHighlight,
// inlayHints, typeDefinition, implementation, declaration, codeLens,
// documentLink, documentColor, linkedEditingRange, selectionRange,
// semanticTokensRange, inlineCompletion.
func (f Feature) String() string {
	if s := specOf(f); s != nil {
		return s.name
	}
	return ""
}

// Method is the LSP request a feature sends.
func (f Feature) Method() string {
	if s := specOf(f); s != nil {
		return s.method
	}
	return ""
}

// Set is a set of features.
type Set uint32

// Has reports whether f is in the set.
func (s Set) Has(f Feature) bool { return s&Set(f) != 0 }

// With returns the set plus f.
func (s Set) With(f Feature) Set { return s | Set(f) }

// Legend is the semantic-token legend, Monaco's SemanticTokensLegend.
type Legend struct {
	TokenTypes     []string `json:"tokenTypes"`
	TokenModifiers []string `json:"tokenModifiers"`
}

// CodeActionDoc is one CodeActionKindDocumentation: the command that
// shows the documentation of a kind of code action, its LSP Command kept
// raw for workspace/executeCommand.
type CodeActionDoc struct {
	Kind    string
	Title   string
	Command j.Raw
}

// Providers is what a server provides for one language: the features to
// register with Monaco and their options. A feature outside Set is never
// registered and its method is never sent.
type Providers struct {
	Set Set
	// CompletionTriggerCharacters start completion automatically.
	CompletionTriggerCharacters []string
	// CompletionResolve: the server answers completionItem/resolve.
	CompletionResolve bool
	// SignatureTriggerCharacters and SignatureRetriggerCharacters are the
	// signature-help provider's characters.
	SignatureTriggerCharacters   []string
	SignatureRetriggerCharacters []string
	// Legend is the semantic-token legend (with SemanticTokens or
	// SemanticTokensRange); SemanticTokensDelta: the server answers
	// textDocument/semanticTokens/full/delta.
	Legend              Legend
	SemanticTokensDelta bool
	// CodeActionKinds are the kinds the server's code actions may have;
	// CodeActionResolve: it answers codeAction/resolve.
	CodeActionKinds   []string
	CodeActionResolve bool
	// CodeActionDocs are the server's documentation for kinds of code
	// actions (LSP 3.18 CodeActionOptions.documentation), one command each.
	CodeActionDocs []CodeActionDoc
	// RenamePrepare: the server answers textDocument/prepareRename.
	RenamePrepare bool
	// RangesFormatting: the server formats several ranges in one request
	// (textDocument/rangesFormatting, LSP 3.18).
	RangesFormatting bool
	// OnTypeTriggers are on-type formatting's characters, first first.
	OnTypeTriggers []string
	// Resolves are the features whose items the server resolves:
	// inlayHint/resolve, codeLens/resolve, documentLink/resolve.
	Resolves Set
	// Commands are the commands the server runs for workspace/executeCommand
	// (executeCommandProvider, static or registered): a code lens runs on
	// the server only with one of them.
	Commands []string
	// Sync is how documents are synchronized.
	Sync lsptypes.SyncOptions
	// ContentSchemes are the URI schemes whose documents the server
	// provides itself (LSP 3.18 workspace/textDocumentContent), static or
	// registered: locations in them open read-only with the server's text.
	ContentSchemes []string
}

// Allows reports whether a request for f may be sent. The binding checks it
// before every request, so even a stale Monaco provider sends nothing for
// a capability the server withdrew.
func (p Providers) Allows(f Feature) bool { return p.Set.Has(f) }

// options is the union of the option objects the features read, static
// or dynamic registration alike.
type options struct {
	TriggerCharacters   []string        `json:"triggerCharacters"`
	RetriggerCharacters []string        `json:"retriggerCharacters"`
	ResolveProvider     bool            `json:"resolveProvider"`
	PrepareProvider     bool            `json:"prepareProvider"`
	RangesSupport       bool            `json:"rangesSupport"`
	CodeActionKinds     []string        `json:"codeActionKinds"`
	CodeActionDocs      []CodeActionDoc `json:"-"` // documentation
	OnTypeTriggers      []string        `json:"-"` // firstTriggerCharacter, then moreTriggerCharacter
	Legend              *Legend         `json:"legend"`
	Full                j.Raw           `json:"full"`
	Range               j.Raw           `json:"range"`
	Commands            []string        `json:"commands"`
	Schemes             []string        `json:"schemes"`
	IncludeText         bool            `json:"includeText"`
	SyncKind            *int            `json:"syncKind"`
	DocumentSelector    j.Raw           `json:"documentSelector"`
}

// decodeStrings reads a []string field: null or absent is nil, and an
// element that is null stays "", as encoding/json decodes them.
func decodeStrings(v j.Value) ([]string, bool) {
	if !v.DecodeArray() {
		return nil, false
	}
	if v.Kind() != j.Array {
		return nil, true
	}
	out := []string{}
	for _, e := range v.Elems() {
		s, ok := e.DecodeString()
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// parseOptions reads an options object; ok is false where encoding/json
// would fail to decode it.
func parseOptions(v j.Value) (o options, ok bool) {
	if !v.DecodeObject() {
		return options{}, false
	}
	var ok1, ok2, ok3, ok4 bool
	o.TriggerCharacters, ok1 = decodeStrings(v.Get("triggerCharacters"))
	o.RetriggerCharacters, ok2 = decodeStrings(v.Get("retriggerCharacters"))
	o.ResolveProvider, ok3 = v.Get("resolveProvider").DecodeBool()
	o.IncludeText, ok4 = v.Get("includeText").DecodeBool()
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return options{}, false
	}
	// The options of the later features: one of the wrong shape counts as
	// absent rather than failing the whole capability object.
	o.PrepareProvider, _ = v.Get("prepareProvider").Bool()
	o.RangesSupport, _ = v.Get("rangesSupport").Bool()
	o.CodeActionKinds, _ = decodeStrings(v.Get("codeActionKinds"))
	o.CodeActionDocs = parseCodeActionDocs(v.Get("documentation"))
	if first, ok := v.Get("firstTriggerCharacter").DecodeString(); ok && first != "" {
		more, _ := decodeStrings(v.Get("moreTriggerCharacter"))
		o.OnTypeTriggers = append([]string{first}, more...)
	}
	if l := v.Get("legend"); l.Exists() && !l.IsNull() {
		if l.Kind() != j.Object {
			return options{}, false
		}
		var leg Legend
		leg.TokenTypes, ok1 = decodeStrings(l.Get("tokenTypes"))
		leg.TokenModifiers, ok2 = decodeStrings(l.Get("tokenModifiers"))
		if !ok1 || !ok2 {
			return options{}, false
		}
		o.Legend = &leg
	}
	if k := v.Get("syncKind"); k.Exists() && !k.IsNull() {
		n, ok := k.DecodeInt(64)
		if !ok {
			return options{}, false
		}
		kind := int(n)
		o.SyncKind = &kind
	}
	o.Commands, _ = decodeStrings(v.Get("commands"))
	o.Schemes, _ = decodeStrings(v.Get("schemes"))
	o.Full = v.Get("full").Raw()
	o.Range = v.Get("range").Raw()
	o.DocumentSelector = v.Get("documentSelector").Raw()
	return o, true
}

// parseCodeActionDocs reads CodeActionOptions.documentation; an entry
// without a kind, a title or a command name is left out.
func parseCodeActionDocs(v j.Value) []CodeActionDoc {
	var out []CodeActionDoc
	for _, e := range v.Elems() {
		kind, _ := e.Get("kind").DecodeString()
		c := e.Get("command")
		title, _ := c.Get("title").DecodeString()
		name, _ := c.Get("command").DecodeString()
		if kind == "" || title == "" || name == "" || c.Kind() != j.Object {
			continue
		}
		out = append(out, CodeActionDoc{Kind: kind, Title: title, Command: j.Raw(c.Raw())})
	}
	return out
}

// advertised reports whether a provider capability is advertised: true or
// an options object; false, null, absent or anything else is not.
func advertised(v j.Value) (options, bool) {
	switch v.Kind() {
	case j.Bool:
		b, _ := v.Bool()
		return options{}, b
	case j.Object:
		return parseOptions(v)
	}
	return options{}, false
}

// fullAdvertised reports whether semantic tokens "full" (or "range") is
// on: true or an object ({delta}); absent or false is off.
func fullAdvertised(raw j.Raw) bool {
	return len(raw) > 0 && (string(raw) == "true" || raw[0] == '{')
}

// ParseCapabilities resolves the server's initialize capabilities (the
// "capabilities" member of InitializeResult).
func ParseCapabilities(raw []byte) (Providers, error) {
	c, err := j.Raw(raw).Value()
	if err != nil {
		return Providers{}, err
	}
	if !c.DecodeObject() {
		return Providers{}, errNotObject
	}
	var p Providers
	p.Sync = lsptypes.ParseSync(c.Get("textDocumentSync").Raw())
	for i := range table {
		if o, ok := advertised(c.Get(table[i].capability)); ok {
			p.add(table[i].f, o)
		}
	}
	if o, ok := advertised(c.Get("executeCommandProvider")); ok {
		p.Commands = o.Commands
	}
	if o, ok := advertised(c.Get("workspace").Get("textDocumentContent")); ok {
		p.ContentSchemes = o.Schemes
	}
	return p, nil
}

// add merges one feature's options into p (see spec.add).
func (p *Providers) add(f Feature, o options) {
	s := specOf(f)
	if s == nil || s.add != nil && !s.add(p, o) {
		return
	}
	p.Set = p.Set.With(f)
	if s.resolves && o.ResolveProvider {
		p.Resolves = p.Resolves.With(f)
	}
}

// union appends the members of b missing from a, keeping order.
func union(a, b []string) []string {
	for _, s := range b {
		found := false
		for _, t := range a {
			if s == t {
				found = true
				break
			}
		}
		if !found {
			a = append(a, s)
		}
	}
	return a
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// registration is one client/registerCapability entry still in force.
type registration struct {
	method string
	opts   options
	raw    j.Raw // registerOptions, for the save options
}

// Registry is one connection's capabilities: the static ones from
// initialize plus the dynamic registrations the server made since. It is
// safe for concurrent use.
type Registry struct {
	mu     sync.Mutex
	static Providers
	dyn    map[string]registration // by registration id
	order  []string                // ids in registration order
}

// NewRegistry starts from the initialize capabilities.
func NewRegistry(capabilities []byte) (*Registry, error) {
	p, err := ParseCapabilities(capabilities)
	if err != nil {
		return nil, err
	}
	return &Registry{static: p, dyn: make(map[string]registration)}, nil
}

// Register applies the params of a client/registerCapability request.
// Methods the client does not wire are kept and ignored.
func (r *Registry) Register(params []byte) error {
	p, err := j.Parse(params)
	if err != nil {
		return err
	}
	regs := p.Get("registrations")
	if !p.DecodeObject() || !regs.DecodeArray() {
		return errNotObject
	}
	var parsed []registration
	var ids []string
	for _, e := range regs.Elems() {
		if !e.DecodeObject() {
			return errNotObject
		}
		id, ok1 := e.Get("id").DecodeString()
		method, ok2 := e.Get("method").DecodeString()
		if !ok1 || !ok2 {
			return errNotObject
		}
		ro := e.Get("registerOptions")
		var o options
		if ro.Kind() == j.Object {
			var ok bool
			if o, ok = parseOptions(ro); !ok {
				return errNotObject
			}
		}
		ids = append(ids, id)
		parsed = append(parsed, registration{method: method, opts: o, raw: ro.Raw()})
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, reg := range parsed {
		if _, ok := r.dyn[ids[i]]; !ok {
			r.order = append(r.order, ids[i])
		}
		r.dyn[ids[i]] = reg
	}
	return nil
}

// Unregister applies the params of client/unregisterCapability (whose
// array is famously misspelled "unregisterations" in LSP 3.17).
func (r *Registry) Unregister(params []byte) error {
	p, err := j.Parse(params)
	if err != nil {
		return err
	}
	if !p.DecodeObject() {
		return errNotObject
	}
	var ids []string
	for _, key := range []string{"unregisterations", "unregistrations"} {
		list := p.Get(key)
		if !list.DecodeArray() {
			return errNotObject
		}
		for _, e := range list.Elems() {
			id, ok := e.Get("id").DecodeString()
			if !e.DecodeObject() || !ok {
				return errNotObject
			}
			ids = append(ids, id)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range ids {
		delete(r.dyn, id)
	}
	kept := r.order[:0]
	for _, id := range r.order {
		if _, ok := r.dyn[id]; ok {
			kept = append(kept, id)
		}
	}
	r.order = kept
	return nil
}

// For returns the providers in force for documents of one LSP language id
// (the languageId of didOpen): the static capabilities plus every dynamic
// registration whose documentSelector matches that language.
func (r *Registry) For(languageID string) Providers {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.static
	// Copy the slices so the caller owns its value.
	p.CompletionTriggerCharacters = append([]string(nil), p.CompletionTriggerCharacters...)
	p.SignatureTriggerCharacters = append([]string(nil), p.SignatureTriggerCharacters...)
	p.SignatureRetriggerCharacters = append([]string(nil), p.SignatureRetriggerCharacters...)
	p.CodeActionKinds = append([]string(nil), p.CodeActionKinds...)
	p.CodeActionDocs = append([]CodeActionDoc(nil), p.CodeActionDocs...)
	p.OnTypeTriggers = append([]string(nil), p.OnTypeTriggers...)
	p.Commands = append([]string(nil), p.Commands...)
	p.ContentSchemes = append([]string(nil), p.ContentSchemes...)
	for _, id := range r.order {
		reg := r.dyn[id]
		if !selectorMatches(reg.opts.DocumentSelector, languageID) {
			continue
		}
		switch reg.method {
		case lsptypes.MethodDidOpen, lsptypes.MethodDidClose:
			p.Sync.OpenClose = true
		case lsptypes.MethodDidChange:
			if reg.opts.SyncKind != nil {
				switch k := lsptypes.TextDocumentSyncKind(*reg.opts.SyncKind); k {
				case lsptypes.SyncFull, lsptypes.SyncIncremental:
					p.Sync.Change = k
				default:
					p.Sync.Change = lsptypes.SyncNone
				}
			}
		case lsptypes.MethodDidSave:
			p.Sync.Save = true
			p.Sync.IncludeText = p.Sync.IncludeText || reg.opts.IncludeText
		case lsptypes.MethodExecuteCommand:
			p.Commands = union(p.Commands, reg.opts.Commands)
		case MethodTextDocumentContent:
			p.ContentSchemes = union(p.ContentSchemes, reg.opts.Schemes)
		default:
			// One method may register several features
			// (textDocument/semanticTokens: full and range).
			for i := range table {
				if slices.Contains(table[i].register, reg.method) {
					p.add(table[i].f, reg.opts)
				}
			}
		}
	}
	return p
}

// selectorMatches reports whether a documentSelector selects documents of
// languageID. null or absent selects every document; a filter matches when
// its language is absent or equal and its scheme is absent or "file" (the
// server sees only file:// URIs). Glob patterns are not evaluated: a filter
// with only a pattern matches, erring towards registering the provider.
func selectorMatches(sel j.Raw, languageID string) bool {
	if len(sel) == 0 || string(sel) == "null" {
		return true
	}
	filters, err := j.Parse(sel)
	if err != nil || filters.Kind() != j.Array {
		return false
	}
	for _, f := range filters.Elems() {
		if lang, ok := f.DecodeString(); ok { // pre-3.17 plain language string
			if lang == languageID {
				return true
			}
			continue
		}
		if f.Kind() != j.Object {
			continue
		}
		lang, ok1 := f.Get("language").DecodeString()
		scheme, ok2 := f.Get("scheme").DecodeString()
		if !ok1 || !ok2 {
			continue
		}
		if (lang == "" || lang == languageID) && (scheme == "" || scheme == "file") {
			return true
		}
	}
	return false
}

// Changed lists the features whose Monaco registration must be redone
// (disposed if registered, then registered again if still in next) when the
// providers go from prev to next: added, removed, or with other options.
// A feature whose options did not change is not listed, so its Monaco
// provider keeps its place and its state.
func Changed(prev, next Providers) []Feature {
	var out []Feature
	for i := range table {
		s := &table[i]
		a, b := prev.Set.Has(s.f), next.Set.Has(s.f)
		if a != b || a && (s.same != nil && !s.same(prev, next) || prev.Resolves.Has(s.f) != next.Resolves.Has(s.f)) {
			out = append(out, s.f)
		}
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
