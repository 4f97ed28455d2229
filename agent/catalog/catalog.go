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
}

// servers is the table. gopls and rust-analyzer serve stdio by default;
// the others need --stdio.
var servers = map[wire.Language]Server{
	wire.Go:         {Language: wire.Go, Command: "gopls", Installer: InstallGo},
	wire.TypeScript: {Language: wire.TypeScript, Command: "typescript-language-server", Args: []string{"--stdio"}, Installer: InstallNPM},
	wire.Python:     {Language: wire.Python, Command: "pyright-langserver", Args: []string{"--stdio"}, Installer: InstallNPM},
	wire.Rust:       {Language: wire.Rust, Command: "rust-analyzer", Installer: InstallRelease},
	wire.Kotlin:     {Language: wire.Kotlin, Command: "kotlin-lsp", Args: []string{"--stdio"}},
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
// environment, or an error wrapping taskenv.ErrNotFound. A Go-installed
// server is also looked for in the Go bin directories, so a `go install`
// result is found even when those are not on PATH.
func (s Server) Locate(env *taskenv.Env) (string, error) {
	var extra []string
	if s.Installer == InstallGo {
		extra = env.GoBinDirs()
	}
	return env.LookPath(s.Command, extra...)
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
