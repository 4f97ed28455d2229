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
	// InstallerManual: never installed by Kandev; found on the task PATH
	// (kotlin-lsp, clangd). Entries of this kind are never Installable.
	InstallerManual InstallerKind = "manual"
)

// Reasons a language is not installable on a task host, so the UI can
// pick localized manual-install copy without parsing Guidance.
const (
	// NotInstallableManual: the server is never installed by Kandev
	// (kotlin-lsp, clangd); it must be on the task host's PATH.
	NotInstallableManual = "manual_only"
	// NotInstallableOS: this task host's operating system has no
	// installer for the server (rust-analyzer on Windows).
	NotInstallableOS = "unsupported_os"
)

// Installers is the body of GET AgentInstallersPath: the task host's own
// answer, per language and per catalog entry serving it, to "can Kandev
// install this server here, and how".
//
// Each element of Languages is the language's default server's entry, as
// it always was, with every entry that serves the language in Servers
// (the default first, then the other built-in entries, then the operator
// catalog's):
//
//	{"goos":"linux","goarch":"amd64","languages":[
//	  {"language":"go","server":"gopls","default":true,"command":"gopls","found":true,
//	   "path":"/home/u/go/bin/gopls","installable":true,"kind":"go",
//	   "installCommand":["go","install","golang.org/x/tools/gopls@v0.23.0"],
//	   "prerequisites":[{"name":"go","found":true}],
//	   "destination":"/home/u/go/bin",
//	   "servers":[{"language":"go","server":"gopls","default":true,...}]},
//	  {"language":"c","server":"clangd","default":true,"command":"clangd","found":false,
//	   "installable":false,"kind":"manual","reason":"manual_only","guidance":"...",
//	   "servers":[...]}]}
type Installers struct {
	// GOOS and GOARCH describe the task host the answer is for.
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	// Languages follow the order of Languages.
	Languages []LanguageInstallers `json:"languages"`
}

// LanguageInstallers is one language's element of Installers: its default
// server's InstallerInfo, and every server's.
type LanguageInstallers struct {
	InstallerInfo
	// Servers lists every catalog entry serving the language, the default
	// (whose fields are repeated above) first.
	Servers []InstallerInfo `json:"servers"`
}

// InstallerInfo is one catalog entry's answer for one language.
type InstallerInfo struct {
	Language Language `json:"language"`
	// Server is the entry's catalog id (the stream routes' server
	// parameter); Default reports that the language uses it when a stream
	// names none; Operator that it comes from the task host's operator
	// catalog rather than the built-in one.
	Server   string `json:"server"`
	Default  bool   `json:"default"`
	Operator bool   `json:"operator,omitempty"`
	// Command is the server executable's name.
	Command string `json:"command"`
	// Found reports whether the executable is currently discoverable in the
	// task environment; Path is where.
	Found bool   `json:"found"`
	Path  string `json:"path,omitempty"`
	// Installable reports whether this task host can install the server;
	// when false, Reason and Guidance say why and what to do instead.
	Installable bool `json:"installable"`
	// Kind is how the entry is installed (InstallerManual: it is not).
	Kind InstallerKind `json:"kind,omitempty"`
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
