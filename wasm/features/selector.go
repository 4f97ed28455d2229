package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// SelectorMatches reports whether a registration's documentSelector selects
// documents of languageID, by the rules every wired feature follows (see
// selectorMatches); registrations other packages keep, such as pull
// diagnostics, use it too.
func SelectorMatches(selector j.Raw, languageID string) bool {
	return selectorMatches(selector, languageID)
}
