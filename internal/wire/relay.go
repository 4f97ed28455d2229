package wire

// Relay HTTP routes besides the stream (RelayStreamPrefix). The browser
// client calls them on the relay's origin.
const (
	// RelaySettingsPath: GET returns the user's settings, an object with
	// the five Setting* fields, all present and normalized; PUT takes an
	// object with any of them (a partial update) and answers like GET. A
	// rejected PUT is HTTP 400 with {"error": "...", "field": "<Setting*>"}.
	RelaySettingsPath = "/api/v1/user/settings"
	// RelayRuntimePath: GET returns the boot runtime, {"languages": [...],
	// "autoInstallable": [...], "servers": [...]}: every language (id,
	// extensions, fileNames, patterns, monacoIds, experimental, its
	// built-in servers and the default among them), the languages that may
	// be saved as auto-install preferences, independent of any task host's
	// OS, and the built-in catalog's servers (id, the languages each
	// serves).
	RelayRuntimePath = "/api/v1/lsp/runtime"
	// RelayInstallersPattern: GET answers the Installers document of the
	// session's task host — the agent's own AgentInstallersPath answer,
	// passed through unchanged — after the stream's session and executor
	// checks. A refusal is a JSON error with the stream's close code:
	// {"error": "...", "code": 4002}. The session id is one path segment
	// (the browser escapes it with encodeURIComponent).
	RelayInstallersPattern = "/api/v1/sessions/{sessionId}/lsp/installers"
)
