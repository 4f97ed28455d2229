// Package catalog is the agent's one authority on what may run: entries
// that each name a catalog id, the languages served, the command, a pinned
// install recipe, default initialization options and the features the
// server is used for. The built-in entries are data (builtin.json, read
// by internal/catalogfile); an operator may add entries from a file of the
// same format the agent is told about at start (operator.go). Nothing a
// stream request or the workspace sends chooses an executable: a request
// names a catalog id (or none: the language's default), and the command is
// the entry's.
//
// It holds data and lookups only: no process is started here, so the stream
// route can reject an unknown language or server before any upgrade or
// process.
package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/catalogfile"
	"github.com/kandev/lsp/internal/wire"
)

// Errors of Resolve. Each is a request the stream route refuses with HTTP
// 400 before any upgrade.
var (
	// ErrUnknownLanguage: the language is not one wire.Languages lists.
	ErrUnknownLanguage = errors.New("catalog: unknown language")
	// ErrBadServerID: the server parameter is not shaped like an id (a
	// path, a command line, too long).
	ErrBadServerID = errors.New("catalog: malformed server id")
	// ErrUnknownServer: no entry has that id.
	ErrUnknownServer = errors.New("catalog: unknown server")
	// ErrNotServed: the entry exists but does not serve the language.
	ErrNotServed = errors.New("catalog: server does not serve the language")
)

// Kind names how an entry's server is installed. Discovery uses it too: a
// binary published by `go install` lives in a Go bin directory, not only on
// PATH.
type Kind = catalogfile.Kind

// Install kinds (catalogfile's).
const (
	InstallManual  = catalogfile.InstallManual
	InstallGo      = catalogfile.InstallGo
	InstallNPM     = catalogfile.InstallNPM
	InstallRelease = catalogfile.InstallRelease
)

// The parts of an entry, as the catalog file format has them.
type (
	// Recipe is an entry's pinned install recipe.
	Recipe = catalogfile.Recipe
	// Release pins a release download.
	Release = catalogfile.Release
	// Asset is one release file.
	Asset = catalogfile.Asset
	// Tool is one helper program of an entry (Entry.Tools).
	Tool = catalogfile.Tool
	// NPMLock is the npm project of an npm recipe.
	NPMLock = catalogfile.NPMLock
	// FieldError is a rejected catalog file, naming the entry and field.
	FieldError = catalogfile.FieldError
)

// OperatorDir is the managed cache's directory for operator entries'
// installs.
const OperatorDir = catalogfile.OperatorDir

// WireKind is the installers route's name for k.
func WireKind(k Kind) wire.InstallerKind {
	switch k {
	case InstallGo:
		return wire.InstallerGo
	case InstallNPM:
		return wire.InstallerNPM
	case InstallRelease:
		return wire.InstallerRelease
	}
	return wire.InstallerManual
}

// Entry is one server of the catalog: a server of a catalog file (its
// fields are catalogfile.Server's, documented there) and where it came
// from. The agent looks Command up in the task env, gives the ready frame
// InitializationOptions, Configuration and Features, and sets each of
// Tools' variables to the tool's absolute path found like a server's (task
// PATH, never the workspace), or to "" when there is none, so that the
// server never searches a PATH that may hold workspace directories.
type Entry struct {
	catalogfile.Server
	// Operator marks an entry from the operator's catalog file.
	Operator bool
}

// Serves reports whether the entry serves lang.
func (e Entry) Serves(lang wire.Language) bool { return slices.Contains(e.Languages, lang) }

// Catalog is a set of entries: the built-in ones and, after them, an
// operator's. The zero value is not usable; Builtin and New make one. A
// Catalog is immutable and safe for concurrent use.
type Catalog struct {
	entries []Entry
	byID    map[string]int
}

// builtin is the built-in catalog, checked once.
var builtin = func() *Catalog {
	c, err := newCatalog(builtinEntries())
	if err != nil {
		panic(err) // builtin.json is wrong: TestBuiltinFile catches it
	}
	return c
}()

// Builtin returns the built-in catalog.
func Builtin() *Catalog { return builtin }

// New returns the built-in catalog with operator entries added after it.
// The entries must come from Load or Parse (validated); an id that is
// taken already is an error.
func New(operator []Entry) (*Catalog, error) {
	all := append(builtinEntries(), operator...)
	return newCatalog(all)
}

func newCatalog(entries []Entry) (*Catalog, error) {
	c := &Catalog{entries: entries, byID: make(map[string]int, len(entries))}
	for i, e := range entries {
		if _, dup := c.byID[e.ID]; dup {
			return nil, fmt.Errorf("catalog: server %q is defined twice", e.ID)
		}
		c.byID[e.ID] = i
	}
	for _, l := range wire.Languages {
		d, ok := wire.DefaultServer(l.Language)
		if e, found := c.Lookup(d); !ok || !found || !e.Serves(l.Language) {
			return nil, fmt.Errorf("catalog: %s has no default server", l.Language)
		}
	}
	return c, nil
}

// Entries returns every entry, the built-in ones first.
func (c *Catalog) Entries() []Entry { return slices.Clone(c.entries) }

// Lookup returns the entry with id.
func (c *Catalog) Lookup(id string) (Entry, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Entry{}, false
	}
	return c.entries[i], true
}

// Default returns the entry a language uses when a stream names none: the
// first of its wire.LanguageInfo.Servers.
func (c *Catalog) Default(lang wire.Language) (Entry, bool) {
	id, ok := wire.DefaultServer(lang)
	if !ok {
		return Entry{}, false
	}
	return c.Lookup(id)
}

// ForLanguage returns every entry serving lang: the default first, then
// the other built-in ones in wire's order, then the operator's in the
// file's order.
func (c *Catalog) ForLanguage(lang wire.Language) []Entry {
	info, ok := wire.Lookup(string(lang))
	if !ok {
		return nil
	}
	var out []Entry
	for _, id := range info.Servers {
		if e, ok := c.Lookup(id); ok && e.Serves(lang) {
			out = append(out, e)
		}
	}
	for _, e := range c.entries {
		if e.Operator && e.Serves(lang) {
			out = append(out, e)
		}
	}
	return out
}

// Resolve returns the entry a stream request names: language as the
// language query parameter carries it, server as the server parameter
// does ("" for none: the language's default). Every refusal wraps one of
// ErrUnknownLanguage, ErrBadServerID, ErrUnknownServer, ErrNotServed.
func (c *Catalog) Resolve(language, server string) (Entry, error) {
	lang := wire.Language(language)
	if _, ok := wire.Lookup(language); !ok {
		return Entry{}, fmt.Errorf("%w: %q", ErrUnknownLanguage, language)
	}
	if server == "" {
		e, _ := c.Default(lang) // newCatalog checked every default
		return e, nil
	}
	if !wire.ValidServerID(server) {
		return Entry{}, fmt.Errorf("%w: %q", ErrBadServerID, server)
	}
	e, ok := c.Lookup(server)
	if !ok {
		return Entry{}, fmt.Errorf("%w: %q", ErrUnknownServer, server)
	}
	if !e.Serves(lang) {
		return Entry{}, fmt.Errorf("%w: %q does not serve %s", ErrNotServed, server, language)
	}
	return e, nil
}

// Locate returns the absolute path of the entry's executable in the task
// environment, or an error wrapping taskenv.ErrNotFound. The task PATH
// comes first, then where the entry's installer puts it (InstallDirs), so
// an installed server is found even when that directory is not on PATH.
//
// An entry whose options name its install directory (${installDir}) is
// looked for there alone: the same command found elsewhere on the PATH
// would run without what the install holds beside it (Vue's TypeScript
// plugin beside typescript-language-server).
func (e Entry) Locate(env *taskenv.Env) (string, error) {
	if e.NeedsInstallDir() {
		return env.LookIn(e.Command, e.InstallDirs(env)...)
	}
	return env.LookPath(e.Command, e.InstallDirs(env)...)
}

// InitOptions returns the entry's initializationOptions for this task,
// with catalogfile.InstallDirVar replaced by its managed directory (as a JSON string's
// content, so a Windows path keeps its backslashes).
func (e Entry) InitOptions(env *taskenv.Env) json.RawMessage {
	if !e.NeedsInstallDir() {
		return e.InitializationOptions
	}
	q, _ := json.Marshal(e.ManagedDir(env))
	return bytes.ReplaceAll(e.InitializationOptions, []byte(catalogfile.InstallDirVar), q[1:len(q)-1])
}

// ToolEnv returns the entry's Tools as KEY=VALUE entries for the server's
// environment: each tool's absolute path as discovery finds it, or "" for
// a tool the task host lacks.
func (e Entry) ToolEnv(env *taskenv.Env) []string {
	out := make([]string, 0, len(e.Tools))
	for _, t := range e.Tools {
		p, err := env.LookPath(t.Command)
		if err != nil {
			p = ""
		}
		out = append(out, t.Env+"="+p)
	}
	return out
}

// InstallDirs lists where this entry's installer publishes its executable
// for this task: the Go bin directories for `go install`; the managed
// cache's node_modules/.bin for npm (PATHEXT then finds the .cmd shim on
// Windows), or the directory of its executable inside node_modules; the
// managed cache directory itself for a release; nothing for a manual
// entry. Only absolute directories derived from the task environment
// appear: never one inside the repository.
func (e Entry) InstallDirs(env *taskenv.Env) []string {
	switch e.Install.Kind {
	case InstallGo:
		return env.GoBinDirs()
	case InstallNPM:
		if d := e.ManagedDir(env); d != "" {
			return []string{env.Join(append([]string{d, "node_modules"}, e.Install.BinDir()...)...)}
		}
	case InstallRelease:
		if d := e.ManagedDir(env); d != "" {
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

// ManagedDir is this entry's directory in the managed cache ("" without a
// task home, and for entries that have none: Go-installed servers live in
// a Go bin directory, manual ones wherever the user put them).
func (e Entry) ManagedDir(env *taskenv.Env) string {
	root := ManagedRoot(env)
	if root == "" || e.Install.Managed == "" {
		return ""
	}
	return env.Join(append([]string{root}, splitSlash(e.Install.Managed)...)...)
}

func splitSlash(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}

// AutoInstallable reports whether a task host of goos/goarch has an
// installer for the entry: never for a manual entry, for a release only
// where it has an asset (rust-analyzer has none for Windows).
func (e Entry) AutoInstallable(goos, goarch string) bool {
	switch e.Install.Kind {
	case InstallNPM:
		return e.Install.Platforms == nil || slices.Contains(e.Install.Platforms, goos+"/"+goarch)
	case InstallGo:
		return true
	case InstallRelease:
		_, ok := e.Install.Release.Asset(goos, goarch)
		return ok
	}
	return false
}

// Version is the pinned version of a built-in entry's server, for texts:
// its first package's (npm, go) or its release's tag; "" for a manual
// entry or an unknown id.
func Version(id string) string {
	e, ok := Builtin().Lookup(id)
	if !ok {
		return ""
	}
	switch {
	case e.Install.Release != nil:
		return e.Install.Release.Tag
	case len(e.Install.Packages) > 0:
		p := e.Install.Packages[0]
		return p[strings.LastIndexByte(p, '@')+1:]
	}
	return ""
}
