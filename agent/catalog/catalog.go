// Package catalog maps each supported language to the language-server
// command the agent runs for it, and knows where that command may be found.
//
// It holds data and lookups only: no process is started here, so the stream
// route can reject an unknown language before any upgrade or process.
package catalog

import (
	"errors"
	"fmt"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// ErrUnknownLanguage: the language is not one wire.Languages lists.
var ErrUnknownLanguage = errors.New("catalog: unknown language")

// Installer names how a server is installed. Discovery uses it too: a binary
// published by `go install` lives in a Go bin directory, not only on PATH.
type Installer string

// Installers.
const (
	// InstallNone: the user installs the server by hand (Kotlin).
	InstallNone Installer = ""
	// InstallGo: `go install`; the result lands in a Go bin directory.
	InstallGo Installer = "go"
	// InstallNPM: an npm package in the task's cache.
	InstallNPM Installer = "npm"
	// InstallRelease: a downloaded release archive.
	InstallRelease Installer = "release"
)

// Server describes how to run the language server of one language.
type Server struct {
	Language wire.Language
	// Command is the executable's base name, looked up in the task env.
	Command string
	// Args are passed as they are; every server here speaks stdio.
	Args []string
	// Installer is how the agent could install a missing Command.
	Installer Installer
	// Packages are the pinned npm packages (InstallNPM) or the one Go
	// package path with its version (InstallGo) that provide Command.
	Packages []string
	// Release is the pinned release tag (InstallRelease).
	Release string
	// Managed is the server's directory name in the managed cache
	// (InstallNPM, InstallRelease): the one agent/install publishes into,
	// so discovery on later starts finds what an install left there.
	Managed string
}

// servers is the table. gopls and rust-analyzer serve stdio by default;
// the others need --stdio.
// Versions are pinned (DESIGN.md): an install gives every task host the
// server the product was tested with. typescript-language-server 6 needs
// Node 22 and typescript 7 has no tsserver.js, hence 5.3.0 with 6.0.3.
var servers = map[wire.Language]Server{
	wire.Go: {Language: wire.Go, Command: "gopls", Installer: InstallGo,
		Packages: []string{"golang.org/x/tools/gopls@v0.23.0"}},
	wire.TypeScript: {Language: wire.TypeScript, Command: "typescript-language-server", Args: []string{"--stdio"}, Installer: InstallNPM,
		Packages: []string{"typescript-language-server@5.3.0", "typescript@6.0.3"}, Managed: "typescript-language-server"},
	wire.Python: {Language: wire.Python, Command: "pyright-langserver", Args: []string{"--stdio"}, Installer: InstallNPM,
		Packages: []string{"pyright@1.1.414"}, Managed: "pyright"},
	// The tag is agent/install's RustAnalyzerTag (a test there keeps the
	// two equal); its checksums are pinned there.
	wire.Rust: {Language: wire.Rust, Command: "rust-analyzer", Installer: InstallRelease, Release: "2026-07-13",
		Managed: "rust-analyzer"},
	wire.Kotlin: {Language: wire.Kotlin, Command: "kotlin-lsp", Args: []string{"--stdio"}},
}

// Lookup returns the server for a language name as the query parameter
// carries it, or ErrUnknownLanguage.
func Lookup(language string) (Server, error) {
	s, ok := servers[wire.Language(language)]
	if !ok {
		return Server{}, fmt.Errorf("%w: %q", ErrUnknownLanguage, language)
	}
	return s, nil
}

// Locate returns the absolute path of the server's executable in the task
// environment, or an error wrapping taskenv.ErrNotFound. The task PATH comes
// first, then where the server's installer puts it (InstallDirs), so an
// installed server is found even when that directory is not on PATH.
func (s Server) Locate(env *taskenv.Env) (string, error) {
	return env.LookPath(s.Command, s.InstallDirs(env)...)
}

// InstallDirs lists where this server's installer publishes its executable
// for this task: the Go bin directories for `go install`; the managed
// cache's node_modules/.bin for npm (PATHEXT then finds the .cmd shim on
// Windows); the managed cache directory itself for a release. Only absolute
// directories derived from the task environment appear: never one inside
// the repository.
func (s Server) InstallDirs(env *taskenv.Env) []string {
	switch s.Installer {
	case InstallGo:
		return env.GoBinDirs()
	case InstallNPM:
		if d := s.ManagedDir(env); d != "" {
			return []string{env.Join(d, "node_modules", ".bin")}
		}
	case InstallRelease:
		if d := s.ManagedDir(env); d != "" {
			return []string{d}
		}
	}
	return nil
}

// ManagedRoot is the managed server cache of the task host,
// HOME/.kandev/lsp-servers from the task environment's home, or "" when
// the task has no absolute home.
func ManagedRoot(env *taskenv.Env) string {
	home := env.Home()
	if home == "" {
		return ""
	}
	return env.Join(home, ".kandev", "lsp-servers")
}

// ManagedDir is this server's directory in the managed cache ("" without
// a task home). Go-installed servers have none: they live in a Go bin
// directory.
func (s Server) ManagedDir(env *taskenv.Env) string {
	root := ManagedRoot(env)
	if root == "" || s.Managed == "" {
		return ""
	}
	return env.Join(root, s.Managed)
}

// AutoInstallable reports whether this task host could install the server:
// the language must be auto-installable in wire (task-host independent) and
// have an installer for goos. rust-analyzer releases are not installed on
// Windows hosts (the spec's "Unsupported Rust installer").
func (s Server) AutoInstallable(goos string) bool {
	info, ok := wire.Lookup(string(s.Language))
	if !ok || !info.AutoInstallable || s.Installer == InstallNone {
		return false
	}
	return !(s.Installer == InstallRelease && goos == "windows")
}
