package wire

// InstallerKind names how a task host installs a language server.
type InstallerKind string

// Installer kinds.
const (
	// InstallerNPM: pinned npm packages in the managed cache directory.
	InstallerNPM InstallerKind = "npm"
	// InstallerGo: `go install` of a pinned module into a Go bin directory.
	InstallerGo InstallerKind = "go"
	// InstallerRelease: a pinned release download into the managed cache.
	InstallerRelease InstallerKind = "release"
)

// Reasons a language is not installable on a task host, so the UI can
// pick localized manual-install copy without parsing Guidance.
const (
	// NotInstallableManual: the server is never installed by Kandev
	// (Kotlin); it must be on the task host's PATH.
	NotInstallableManual = "manual_only"
	// NotInstallableOS: this task host's operating system has no
	// installer for the server (rust-analyzer on Windows).
	NotInstallableOS = "unsupported_os"
)

// Installers is the body of GET AgentInstallersPath: the task host's own
// answer, per language, to "can Kandev install this server here, and how".
//
//	{"goos":"linux","goarch":"amd64","languages":[
//	  {"language":"go","command":"gopls","found":true,"path":"/home/u/go/bin/gopls",
//	   "installable":true,"kind":"go",
//	   "installCommand":["go","install","golang.org/x/tools/gopls@v0.23.0"],
//	   "prerequisites":[{"name":"go","found":true}],
//	   "destination":"/home/u/go/bin"},
//	  {"language":"kotlin","command":"kotlin-lsp","found":false,"installable":false,
//	   "reason":"manual_only","guidance":"..."}]}
type Installers struct {
	// GOOS and GOARCH describe the task host the answer is for.
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	// Languages follow the order of Languages.
	Languages []InstallerInfo `json:"languages"`
}

// InstallerInfo is one language's entry in Installers.
type InstallerInfo struct {
	Language Language `json:"language"`
	// Command is the server executable's name.
	Command string `json:"command"`
	// Found reports whether the executable is currently discoverable in the
	// task environment; Path is where.
	Found bool   `json:"found"`
	Path  string `json:"path,omitempty"`
	// Installable reports whether this task host can install the server;
	// when false, Reason and Guidance say why and what to do instead.
	Installable bool          `json:"installable"`
	Kind        InstallerKind `json:"kind,omitempty"`
	// InstallCommand is the argv an npm or Go install runs (run in WorkDir
	// for npm, which has a package.json there rather than --prefix).
	InstallCommand []string `json:"installCommand,omitempty"`
	WorkDir        string   `json:"workDir,omitempty"`
	// Download is the release URL fetched by a release install.
	Download string `json:"download,omitempty"`
	// Prerequisites are the tools the install needs on the task host.
	Prerequisites []Prerequisite `json:"prerequisites,omitempty"`
	// Destination is the directory the executable is published in.
	Destination string `json:"destination,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Guidance    string `json:"guidance,omitempty"`
}

// Prerequisite is a tool an install needs and whether the task host has it.
type Prerequisite struct {
	Name  string `json:"name"`
	Found bool   `json:"found"`
}
