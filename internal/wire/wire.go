// Package wire is the contract shared by the three programs of Kandev LSP: the
// browser client (lsp.wasm), the relay and the task-host agent.
//
// It holds only names and values — close codes, status frames, routes, query
// parameters, language identifiers, limits and settings field names — so that
// every tier agrees on them by construction. It performs no I/O, builds for
// js/wasm, and must never import net/http (that would add megabytes to
// lsp.wasm; see wire_test.go).
package wire

// Routes and query parameters.
const (
	// AgentStreamPath is the task-host WebSocket route that bridges one
	// language server.
	AgentStreamPath = "/api/v1/lsp/stream"
	// AgentInstallersPath lists, per language, how the task host can install
	// it: GET with the bearer token answers an Installers JSON document.
	AgentInstallersPath = "/api/v1/lsp/installers"
	// AgentTaskStopPath is task stop, for the relay: POST with the bearer
	// token closes admission, stops every language-server process tree,
	// closes every stream with 1001 and an empty reason, and answers 200
	// once all of that is done (then the agent exits, as after SIGTERM).
	// Any other method is 405.
	AgentTaskStopPath = "/api/v1/task/stop"
	// RelayStreamPrefix is the browser-facing route; the session id follows it.
	RelayStreamPrefix = "/lsp/"

	// ParamLanguage names the language (a Language value) on both stream routes.
	ParamLanguage = "language"
	// ParamServer names the server on both stream routes: the id of an
	// entry of the agent's catalog that serves the language (ValidServerID
	// gives its shape). Absent, the language's default serves. It is
	// never a command or a path: a value that is not an id, an id the
	// catalog does not hold and an entry that does not serve the language
	// are all refused (HTTP 400) before any upgrade or process, like an
	// unknown language. The relay sends the browser's value, or else the
	// user's lsp_language_servers choice for the language.
	ParamServer = "server"
	// ParamAutoInstall is "true" or "false" on the agent route. The browser
	// never sends it: the relay decides it from the user's settings.
	ParamAutoInstall = "autoInstall"

	// HeaderSession and HeaderConnection are request headers of the agent
	// route: the relay names the browser's session and its id for the
	// stream, so the agent's log lines match the relay's. They are for
	// logs only and never decide anything.
	HeaderSession    = "Kandev-Session"
	HeaderConnection = "Kandev-Connection"
)

// Limits shared by every hop.
const (
	// MaxMessageSize bounds one JSON-RPC body, on stdio and on WebSocket
	// alike. A larger frame closes the connection; it is never allocated.
	MaxMessageSize = 16 << 20
	// WriteTimeout bounds every WebSocket write, so a stalled peer cannot pin
	// a handler or the language server it owns. Durations here are untyped
	// nanoseconds: a time.Duration in the agent and relay, a clock.Duration
	// in lsp.wasm, which does not link the time package.
	WriteTimeout = 5 * second
	// StdinWriteTimeout bounds each frame written to a server's stdin.
	StdinWriteTimeout = 30 * second

	second = 1_000_000_000
)
