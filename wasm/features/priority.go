package features

// Some calls are what a user waits on while typing: the suggest widget
// and parameter hints. Monaco makes others on its own schedule after an
// edit or a cursor move: folding, inlay hints, code lenses, semantic
// tokens, symbols, links, colours, occurrence highlights and the light
// bulb's code actions. A server given both at once answers the first one
// later (gopls, given a 5,000-name completion together with the light
// bulb's code actions and the folding ranges of that file, took about
// twice as long to answer the completion), so the client holds the
// background calls of a connection back while one of its typing calls
// is out (client.typingGate).

// Typing reports whether a call of f is one a user waits on as they type.
func Typing(f Feature) bool { return f == Completion || f == SignatureHelp }

// Background reports whether the call of f for r is one Monaco makes on
// its own after an edit or a cursor move, which may wait for a typing
// call to be answered. Code actions are background only when automatic
// (the light bulb), not when the user asked for them.
func Background(f Feature, r *Request) bool {
	switch f {
	case FoldingRange, InlayHints, CodeLens, SemanticTokens, SemanticTokensRange,
		DocumentSymbol, DocumentLink, DocumentColor, DocumentHighlight:
		return true
	case CodeAction:
		t, _ := r.v.Get("trigger").Uint()
		return t == 2
	}
	return false
}
