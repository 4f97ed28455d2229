package client

import "github.com/kandev/lsp/wasm/jsonlite"

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
