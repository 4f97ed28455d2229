package app

import (
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/status"
)

// Surface decides where the page renders the status control for its
// active editor (see status.Decide) and returns it as JSON. modelURI is the
// URI of the Monaco model mounted in the active editor, "" when the active
// panel is no Monaco text editor (no file, a loading, binary or diff
// surface, phone file viewing, a settings page).
func (a *App) Surface(modelURI string, l status.Layout) string {
	var active *status.Pair
	if sessionID, lang, ok := a.client.PairOf(modelURI); ok {
		active = &status.Pair{SessionID: sessionID, Language: string(lang)}
	}
	return status.Decide(a.policy.StatusLocation(), l, active).JSON()
}

// Text returns a catalog text in the current locale, its placeholders
// filled from name, value pairs: the page's own texts around the status
// surfaces (see package i18n).
func (a *App) Text(key string, args ...string) string {
	a.mu.Lock()
	cat := a.cat
	a.mu.Unlock()
	return cat.T(key, args...)
}

// TextJSON is Text with the placeholders given as one JSON object
// ({"language":"Go","n":3}): string values are used as they are, numbers
// and booleans as written; anything else (or JSON that is no object) fills
// nothing.
func (a *App) TextJSON(key string, args []byte) string {
	var pairs []string
	if v, err := jsonlite.Parse(args); err == nil && v.Kind() == jsonlite.Object {
		for name, val := range v.Members() {
			switch val.Kind() {
			case jsonlite.String:
				s, _ := val.Str()
				pairs = append(pairs, name, s)
			case jsonlite.Number, jsonlite.Bool:
				pairs = append(pairs, name, string(val.Raw()))
			}
		}
	}
	return a.Text(key, pairs...)
}
