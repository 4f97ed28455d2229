package client

import (
	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// typescriptFileWatching is typescript-language-server's
// initializationOptions member that turns tsserver's own file watching
// off: with tsserver.useClientFileWatcher, tsserver watches nothing and
// the language server registers watchers with the client instead
// (client/registerCapability for workspace/didChangeWatchedFiles, the
// workspace's "**/*"), which the task host's workspace watcher serves —
// the one that runs anyway for the other servers and the open documents.
// Its own watching costs an inotify watch per source file and per
// directory below node_modules (about 900 for a small project with Vite
// and Monaco installed), out of the per-user budget
// (fs.inotify.max_user_watches) that task containers running as the same
// user share; the task host's watcher holds one per workspace directory
// outside the packages. The TypeScript server needs
// no event inside a package: it re-resolves and re-reads a package when
// its directory in node_modules (or in a scope directory) is created,
// deleted or replaced, which is what the task host reports there.
const typescriptFileWatching = `"tsserver":{"useClientFileWatcher":true}`

// typescriptShowLocations names the client command TypeScript 7's server
// (tsgo) puts on its resolved references and implementations code lenses;
// without it the lens is a title with no command. VS Code's
// editor.action.showReferences is the one lsp.wasm maps to Monaco's own
// references peek (features/codelens.go). typescript-language-server
// ignores the member.
const typescriptShowLocations = `"codeLensShowLocationsCommandName":"editor.action.showReferences"`

// typescriptOptions are the initializationOptions of the TypeScript
// servers: typescript-language-server's and tsgo's members side by side.
var typescriptOptions = jsonlite.Raw("{" + typescriptFileWatching + "," + typescriptShowLocations + "}")

// objectSections are the configuration sections, per language, that the
// language's server reads as objects and fails on when answered null: the
// VS Code CSS and HTML servers read css/scss/less (and html, javascript)
// members without a check and then report no diagnostics at all. A
// missing one is answered {}, the defaults, as VS Code answers with its
// contributed settings.
var objectSections = map[wire.Language][]string{
	"css":      {"css", "scss", "less"},
	"html":     {"html", "css", "javascript", "js/ts"},
	"json":     {"json", "http"},
	"markdown": {"markdown"},
}

// objectSection reports whether section is one of lang's objectSections.
func objectSection(lang wire.Language, section string) bool {
	for _, s := range objectSections[lang] {
		if s == section {
			return true
		}
	}
	return false
}

// layOver returns the initializationOptions object made of the catalog
// entry's defaults (from the ready frame) with the client's own members
// laid over them: both objects' members in one, the client's last, so a
// member both name is the client's (JSON readers keep a repeated key's last
// value). Either may be empty; nil when both are.
func layOver(entry, own jsonlite.Raw) jsonlite.Raw {
	inner := func(o jsonlite.Raw) jsonlite.Raw {
		v, err := o.Value()
		if err != nil || v.Kind() != jsonlite.Object {
			return nil
		}
		b := bytesTrim(o)
		return b[1 : len(b)-1]
	}
	e, c := inner(entry), inner(own)
	switch {
	case len(bytesTrim(e)) == 0 && len(bytesTrim(c)) == 0:
		if len(entry) > 0 || len(own) > 0 {
			return jsonlite.Raw("{}")
		}
		return nil
	case len(bytesTrim(e)) == 0:
		return own
	case len(bytesTrim(c)) == 0:
		return entry
	}
	out := append(jsonlite.Raw{'{'}, e...)
	out = append(append(out, ','), c...)
	return append(out, '}')
}

// bytesTrim trims JSON white space.
func bytesTrim(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
