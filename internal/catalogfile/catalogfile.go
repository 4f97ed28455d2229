// Package catalogfile reads the catalog format: one JSON file that lists
// languages and the language servers that serve them, with every install
// pinned. The built-in catalog is such a file, embedded in the agent
// (agent/catalog/builtin.json); an operator's catalog is a second file of
// the same format that adds servers (never languages). The agent runs
// what the two hold; the relay reads an operator file to know which ids
// users may choose; the languages of the built-in file are generated into
// internal/wire (languages.go), which lsp.wasm and the relay read.
//
// The format, in the manner of Helix's languages.toml, is data only: a
// "languages" table (built-in file only) and a "servers" table. Lines may
// carry // comments, which is where the reason for a pin or an option is
// written down.
//
//	{"languages": [
//	  {"id": "toml", "name": "TOML", "extensions": [".toml"], "monacoIds": ["toml"],
//	   "servers": ["taplo"]}],
//	 "servers": [
//	  {"id": "ruff", "languages": ["python"], "command": "ruff", "args": ["server"],
//	   "install": {"kind": "manual", "guidance": "pipx install ruff==0.12.0"},
//	   "features": ["diagnostics", "format", "code-action"],
//	   "configuration": {"lineLength": 100}},
//	  {"id": "taplo", "languages": ["toml"], "command": "taplo", "args": ["lsp", "stdio"],
//	   "install": {"kind": "release", "tag": "0.10.0",
//	     "baseUrl": "https://github.com/tamasfe/taplo/releases/download/0.10.0",
//	     "assets": {"linux/amd64": {"file": "taplo-linux-x86_64.gz", "sha256": "…64 hex…"}}}},
//	  {"id": "my-yaml", "languages": ["yaml"], "command": "yaml-language-server", "args": ["--stdio"],
//	   "install": {"kind": "npm", "packages": ["yaml-language-server@1.19.0"],
//	     "lockfile": "my-yaml.package-lock.json"}},
//	  {"id": "my-gopls", "languages": ["go"], "command": "gopls",
//	   "install": {"kind": "go", "package": "golang.org/x/tools/gopls@v0.22.0"},
//	   "initializationOptions": {"semanticTokens": true},
//	   "tools": {"MY_LINTER": "golangci-lint"}}]}
//
// Fields of a language: id (lower case), name (its English display name;
// the page's locale catalogs hold the others under "language.ID"),
// extensions (".ext", lower case), fileNames (whole base names), patterns
// (path.Match patterns on the base name), monacoIds (the Monaco language
// ids its servers serve, the first the LSP languageId of its files),
// languageIds (an extension, file name or pattern to the LSP languageId of
// its files where that is not the first Monaco id), servers (the ids of
// the file's servers that serve it, the default first: a server listed
// after others, such as a linter, is one a file has beside them),
// besideDefault (servers of that list that a file gets beside the default
// when the user chose none: one the default server needs, as Vue's needs
// a TypeScript server with its plugin) and experimental.
//
// Fields of a server: id (a catalog id no other entry has), languages
// (language ids), command (an executable's base name, found on the task
// PATH or where its installer puts it, never in the workspace), args,
// install (kind manual, npm, go or release), initializationOptions (a JSON
// object; the string ${installDir} in it stands for an npm or release
// install's directory, and such a server runs from there alone),
// configuration (a JSON object: the server's default settings,
// from which the client answers its workspace/configuration requests, the
// user's laid over them; a section the server reads as an object is
// listed here as {}), pushConfiguration (true: the client sends the
// configuration in didChangeConfiguration at start, for a server that
// reads its settings only so), features (wire.Feature* names: what the server is
// used for; absent, everything it offers), tools (variable name to the
// base name of a helper program). Install, by kind: manual takes guidance;
// npm takes packages (exact name@version pins) and lockfile (the
// package-lock.json of exactly those, as an object or as a file path
// relative to the catalog file; in the built-in file, the lockfile of a
// folder that holds its package.json too and names the install's
// directory), and executable (the command's file inside node_modules,
// for a package that ships a native binary without an npm bin); go takes
// package (module path@vX.Y.Z, an exact version);
// release takes baseUrl (https), assets ("goos/goarch" to the file name of
// a gzip-compressed executable and its sha256) and tag.
package catalogfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/kandev/lsp/internal/wire"
)

// Kind names how a server is installed.
type Kind string

// Install kinds.
const (
	// InstallManual: the user installs the server by hand (kotlin-lsp,
	// clangd); it is only ever found on the task PATH.
	InstallManual Kind = "manual"
	// InstallGo: `go install` of a module at an exact version; the result
	// lands in a Go bin directory.
	InstallGo Kind = "go"
	// InstallNPM: `npm ci --ignore-scripts` of a lockfile into the task's
	// managed cache.
	InstallNPM Kind = "npm"
	// InstallRelease: a downloaded release archive checked against its
	// pinned SHA-256.
	InstallRelease Kind = "release"
)

// OperatorDir is the managed cache's directory for operator servers'
// installs, one directory per id below it, apart from the built-in ones.
const OperatorDir = "operator"

// Server is one server of a catalog file.
type Server struct {
	// ID is the catalog id (wire.ValidServerID).
	ID string
	// Languages are the languages the server serves.
	Languages []wire.Language
	// Command is the executable's base name.
	Command string
	// Args are passed as they are; every server speaks stdio.
	Args []string
	// Install is how a missing Command is installed.
	Install Recipe
	// InitializationOptions are the default initializationOptions (a JSON
	// object, compacted), nil for none.
	InitializationOptions json.RawMessage
	// Configuration is the server's default settings (a JSON object,
	// compacted), nil for none: what its VS Code extension contributes.
	// The client answers workspace/configuration from the user's settings
	// laid over it, so a server that reads members without checking them
	// (ESLint, the VS Code servers' sections) finds every one.
	Configuration json.RawMessage
	// PushConfiguration: the client sends the configuration in
	// workspace/didChangeConfiguration right after initialized, for a
	// server that reads its settings only so (wire.Status).
	PushConfiguration bool
	// Features limits what the server is used for; nil: everything.
	Features []string
	// Tools are helper programs by the variable that tells the server
	// their path, sorted by variable.
	Tools []Tool
}

// Tool is one helper program of a server (Server.Tools).
type Tool struct {
	// Env is the variable the server reads the tool's path from.
	Env string
	// Command is the tool's executable base name.
	Command string
}

// Recipe is a server's pinned install recipe. Which fields are set
// depends on Kind.
type Recipe struct {
	Kind Kind
	// Packages are the exact pins: for npm, the package@version specs the
	// lockfile's root depends on (for the installers route's manual
	// command; the lockfile is what an install uses); for go, the one
	// module path@version `go install` is given.
	Packages []string
	// Managed is the server's directory in the managed cache (npm,
	// release), relative and slash-separated. Servers installed by one npm
	// package share it (the VS Code servers), so one install serves all.
	Managed string
	// Lock is the npm project an install hands to `npm ci` (npm).
	Lock *NPMLock
	// Executable is the server's file inside node_modules, slash-separated
	// ("@scope/pkg/bin/name"), for a package that ships a native binary
	// without an npm bin (npm); "" for the command's node_modules/.bin
	// launcher. Its base name is the command's.
	Executable string
	// Platforms are the "goos/goarch" task hosts an npm install runs on
	// (npm), from the lockfile's os and cpu of the executable's package;
	// nil: every one.
	Platforms []string
	// Release pins the downloads (release).
	Release *Release
	// Guidance says how to install the server by hand (manual), in
	// English; the UI localizes by the installers route's reason code.
	Guidance string
}

// Release pins a release download: per task platform, one gzip-compressed
// executable and its SHA-256.
type Release struct {
	// Tag names the pinned release, for people.
	Tag string
	// BaseURL is the directory of the assets: an asset's URL is
	// BaseURL + "/" + its File.
	BaseURL string
	// Assets by "goos/goarch". A platform without one has no installer
	// (close 4007); an asset without a SHA-256 is never installed.
	Assets map[string]Asset
}

// Asset is one release file.
type Asset struct {
	// File is the asset's name under the base URL: a gzip of the
	// executable.
	File string
	// SHA256 is the hex SHA-256 of the gzip file.
	SHA256 string
}

// Asset returns the release asset for a task platform.
func (r *Release) Asset(goos, goarch string) (Asset, bool) {
	if r == nil {
		return Asset{}, false
	}
	a, ok := r.Assets[goos+"/"+goarch]
	return a, ok
}

// InstallDirVar in a server's initializationOptions stands for its install
// directory in the managed cache, put in by the agent on each start.
const InstallDirVar = "${installDir}"

// NeedsInstallDir reports whether the server's initializationOptions name
// its install directory (InstallDirVar).
func (s Server) NeedsInstallDir() bool {
	return bytes.Contains(s.InitializationOptions, []byte(InstallDirVar))
}

// BinDir is the directory of an npm recipe's executable inside
// node_modules, as path elements: its own package's directory for an
// Executable, else npm's .bin of launchers.
func (r Recipe) BinDir() []string {
	if r.Executable == "" {
		return []string{".bin"}
	}
	parts := strings.Split(r.Executable, "/")
	return parts[:len(parts)-1]
}

// File is a parsed catalog file.
type File struct {
	// Languages is the languages table (the built-in file's only), in the
	// file's order, with AutoInstallable derived from the servers.
	Languages []wire.LanguageInfo
	// Servers in the file's order.
	Servers []Server
}

// Options say which of the two files is parsed.
type Options struct {
	// Builtin: the built-in catalog, which defines the languages its
	// servers serve (an operator file may not) and whose npm lockfiles
	// are folders of FS.
	Builtin bool
	// FS holds the built-in file's lockfile folders. An operator file's
	// lockfile paths are read from the OS, relative to Dir.
	FS fs.FS
	// Dir is where an operator file's relative lockfile paths start.
	Dir string
	// Taken reports an id some other catalog has (an operator file's ids
	// must not be built-in ones). nil: none.
	Taken func(id string) bool
	// GoCommands maps the command of each go-installed server outside the
	// file to its id: go install writes every binary into the one Go bin
	// directory, so two go servers of one command would replace each
	// other's install.
	GoCommands map[string]string
}

// FieldError is a rejected catalog file: which entry (its id, or its
// index when it has none yet) of which table, and which field.
type FieldError struct {
	// Builtin: the built-in catalog, else an operator's.
	Builtin bool
	// File is the catalog file's path ("" when parsed from memory).
	File string
	// Table is "servers" or "languages".
	Table string
	// Index is the entry's position in its table; -1 for the file itself.
	Index int
	// ID is the entry's id, if it has a usable one.
	ID string
	// Field is the field's name, dotted below install ("install.lockfile").
	Field   string
	Message string
}

func (e *FieldError) Error() string {
	var b strings.Builder
	if e.Builtin {
		b.WriteString("built-in catalog")
	} else {
		b.WriteString("operator catalog")
	}
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	what := "server"
	if e.Table == "languages" {
		what = "language"
	}
	switch {
	case e.Index >= 0 && e.ID != "":
		fmt.Fprintf(&b, ": %s %q (%s[%d])", what, e.ID, e.Table, e.Index)
	case e.Index >= 0:
		fmt.Fprintf(&b, ": %s[%d]", e.Table, e.Index)
	}
	if e.Field != "" {
		b.WriteString(": field " + e.Field)
	}
	return b.String() + ": " + e.Message
}

// Load reads and checks an operator catalog file; lockfile paths in it
// are relative to its directory.
func Load(file string, opts Options) (*File, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("operator catalog: %w", err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("operator catalog: %w", err)
	}
	opts.Dir = filepath.Dir(abs)
	f, err := Parse(b, opts)
	if fe, ok := err.(*FieldError); ok {
		fe.File = file
	}
	return f, err
}

// Parse checks a catalog file. The error is a *FieldError.
func Parse(data []byte, opts Options) (*File, error) {
	fileErr := func(field, msg string) error {
		return &FieldError{Builtin: opts.Builtin, Index: -1, Field: field, Message: msg}
	}
	top, err := object(stripComments(data))
	if err != nil {
		return nil, fileErr("", "not a JSON object: "+err.Error())
	}
	for k := range top {
		switch {
		case k == "servers":
		case k == "languages" && opts.Builtin:
		case k == "languages":
			return nil, fileErr(k, "only the built-in catalog defines languages")
		default:
			return nil, fileErr(k, "unknown field (the file holds \"servers\")")
		}
	}
	var out File
	known := func(l string) bool { _, ok := wire.Lookup(l); return ok }
	if opts.Builtin {
		var rawLangs []json.RawMessage
		if err := json.Unmarshal(top["languages"], &rawLangs); err != nil || len(rawLangs) == 0 {
			return nil, fileErr("languages", "must be an array of languages")
		}
		for i, raw := range rawLangs {
			l, ferr := parseLanguage(raw, out.Languages)
			if ferr != nil {
				ferr.Builtin, ferr.Table, ferr.Index = true, "languages", i
				return nil, ferr
			}
			out.Languages = append(out.Languages, l)
		}
		known = func(l string) bool {
			return slices.ContainsFunc(out.Languages, func(i wire.LanguageInfo) bool { return string(i.Language) == l })
		}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(top["servers"], &raws); err != nil || raws == nil {
		return nil, fileErr("servers", "must be an array of servers")
	}
	seen := map[string]bool{}
	goCommands := maps.Clone(opts.GoCommands)
	if goCommands == nil {
		goCommands = map[string]string{}
	}
	for i, raw := range raws {
		e, ferr := parseEntry(raw, opts, known)
		if ferr == nil && seen[e.ID] {
			ferr = &FieldError{ID: e.ID, Field: "id", Message: "defined twice in this file"}
		}
		if ferr == nil && e.Install.Kind == InstallGo {
			if other, ok := goCommands[e.Command]; ok {
				ferr = &FieldError{ID: e.ID, Field: "install.package",
					Message: fmt.Sprintf("go install writes %s into the Go bin directory, where %q installs its own", e.Command, other)}
			}
			goCommands[e.Command] = e.ID
		}
		if ferr != nil {
			ferr.Builtin, ferr.Table, ferr.Index = opts.Builtin, "servers", i
			return nil, ferr
		}
		seen[e.ID] = true
		out.Servers = append(out.Servers, e)
	}
	if opts.Builtin {
		if err := linkLanguages(&out); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// linkLanguages checks that the languages table and the servers' languages
// say the same (each language lists exactly the servers that name it) and
// derives AutoInstallable: some server of the language has an installer.
func linkLanguages(f *File) error {
	byID := map[string]Server{}
	for _, s := range f.Servers {
		byID[s.ID] = s
	}
	for i := range f.Languages {
		l := &f.Languages[i]
		fail := func(msg string, args ...any) error {
			return &FieldError{Builtin: true, Table: "languages", Index: i, ID: string(l.Language), Field: "servers", Message: fmt.Sprintf(msg, args...)}
		}
		for _, id := range l.Servers {
			s, ok := byID[id]
			if !ok {
				return fail("%q is no server of the file", id)
			}
			if !slices.Contains(s.Languages, l.Language) {
				return fail("server %q does not list %q among its languages", id, l.Language)
			}
			if s.Install.Kind != InstallManual {
				l.AutoInstallable = true
			}
		}
		for _, s := range f.Servers {
			if slices.Contains(s.Languages, l.Language) && !slices.Contains(l.Servers, s.ID) {
				return fail("server %q serves it but is not listed", s.ID)
			}
		}
	}
	return nil
}

// languageID is the shape of a language id.
var languageID = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

func parseLanguage(raw json.RawMessage, before []wire.LanguageInfo) (wire.LanguageInfo, *FieldError) {
	var l wire.LanguageInfo
	m, err := object(raw)
	if err != nil {
		return l, &FieldError{Message: "not a JSON object: " + err.Error()}
	}
	fail := func(field, format string, args ...any) *FieldError {
		return &FieldError{ID: string(l.Language), Field: field, Message: fmt.Sprintf(format, args...)}
	}
	var id string
	if err := json.Unmarshal(m["id"], &id); err != nil || !languageID.MatchString(id) {
		return l, fail("id", "required: a lower-case language id such as %q", "toml")
	}
	l.Language = wire.Language(id)
	for _, o := range before {
		if o.Language == l.Language {
			return l, fail("id", "defined twice in this file")
		}
	}
	for k := range m {
		if !slices.Contains([]string{"id", "name", "extensions", "fileNames", "patterns", "monacoIds", "languageIds", "servers", "besideDefault", "experimental"}, k) {
			return l, fail(k, "unknown field")
		}
	}
	if err := json.Unmarshal(m["name"], &l.DisplayName); err != nil || strings.TrimSpace(l.DisplayName) == "" {
		return l, fail("name", "required: the language's English display name")
	}
	lower := func(field string, dst *[]string, ok func(string) bool, want string) *FieldError {
		v, present := m[field]
		if !present {
			return nil
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fail(field, "must be an array of strings")
		}
		for i, s := range *dst {
			if s != strings.ToLower(s) || !ok(s) || slices.Contains((*dst)[:i], s) {
				return fail(field, "%q is not %s (or is listed twice)", s, want)
			}
			for _, o := range before {
				if slices.Contains(o.Extensions, s) || slices.Contains(o.FileNames, s) || slices.Contains(o.Patterns, s) {
					return fail(field, "%q belongs to %q already", s, o.Language)
				}
			}
		}
		return nil
	}
	if e := lower("extensions", &l.Extensions, func(s string) bool {
		return len(s) > 1 && s[0] == '.' && !strings.ContainsAny(s[1:], `./\* `)
	}, "a lower-case extension with its dot"); e != nil {
		return l, e
	}
	if e := lower("fileNames", &l.FileNames, func(s string) bool { return s != "" && !strings.ContainsAny(s, `/\*?[`) }, "a base name"); e != nil {
		return l, e
	}
	if e := lower("patterns", &l.Patterns, func(s string) bool {
		_, err := path.Match(s, "")
		return s != "" && err == nil && !strings.ContainsAny(s, `/\`)
	}, "a pattern on a base name"); e != nil {
		return l, e
	}
	if len(l.Extensions)+len(l.FileNames)+len(l.Patterns) == 0 {
		return l, fail("extensions", "a language needs extensions, fileNames or patterns")
	}
	if err := json.Unmarshal(m["monacoIds"], &l.MonacoIDs); err != nil || len(l.MonacoIDs) == 0 || slices.Contains(l.MonacoIDs, "") {
		return l, fail("monacoIds", "required: the Monaco language ids its servers serve")
	}
	if v, ok := m["languageIds"]; ok {
		if err := json.Unmarshal(v, &l.LanguageIDs); err != nil {
			return l, fail("languageIds", "must map extensions, file names or patterns to LSP languageIds")
		}
		for k, id := range l.LanguageIDs {
			if !slices.Contains(l.Extensions, k) && !slices.Contains(l.FileNames, k) && !slices.Contains(l.Patterns, k) || id == "" {
				return l, fail("languageIds", "%q is none of the language's extensions, file names or patterns", k)
			}
		}
	}
	if err := json.Unmarshal(m["servers"], &l.Servers); err != nil || len(l.Servers) == 0 {
		return l, fail("servers", "required: the ids of the servers that serve it, the default first")
	}
	if v, ok := m["besideDefault"]; ok {
		if err := json.Unmarshal(v, &l.BesideDefault); err != nil || len(l.BesideDefault) == 0 {
			return l, fail("besideDefault", "must be a non-empty array of server ids")
		}
		for i, id := range l.BesideDefault {
			if !slices.Contains(l.Servers[1:], id) || slices.Contains(l.BesideDefault[:i], id) {
				return l, fail("besideDefault", "%q is not one of the language's servers after the default (or is listed twice)", id)
			}
		}
	}
	if v, ok := m["experimental"]; ok {
		if err := json.Unmarshal(v, &l.Experimental); err != nil {
			return l, fail("experimental", "must be true or false")
		}
	}
	return l, nil
}

// stripComments blanks // comments outside strings, keeping every byte's
// offset (a JSON error's position still points into the file).
func stripComments(data []byte) []byte {
	if !bytes.Contains(data, []byte("//")) {
		return data
	}
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		}
	}
	return out
}

// object decodes one JSON object into its members.
func object(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("null")
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the object")
	}
	return m, nil
}

// Shapes of names in the file.
var (
	// commandName is an executable's base name: no separator, nothing a
	// shell would read, not "." or "..".
	commandName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$`)
	envName     = regexp.MustCompile(`^[A-Z_][A-Z0-9_]{0,127}$`)
	platform    = regexp.MustCompile(`^[a-z0-9]+/[a-z0-9]+$`)
	sha256Hex   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	// goTarget is "module/path@vX.Y.Z": go install of an exact version,
	// which the Go checksum database then vouches for.
	goTarget = regexp.MustCompile(`^([a-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~-]+)+)@v(.+)$`)
)

// reservedEnv are the variables discovery reads: a tool may not replace
// them in a server's environment.
var reservedEnv = []string{"PATH", "HOME", "USERPROFILE", "PATHEXT", "GOBIN", "GOPATH"}

func parseEntry(raw json.RawMessage, opts Options, known func(string) bool) (Server, *FieldError) {
	m, err := object(raw)
	if err != nil {
		return Server{}, &FieldError{Message: "not a JSON object: " + err.Error()}
	}
	var e Server
	fail := func(field, format string, args ...any) *FieldError {
		return &FieldError{ID: e.ID, Field: field, Message: fmt.Sprintf(format, args...)}
	}
	// The id first, so every later error names the entry.
	if err := json.Unmarshal(m["id"], &e.ID); err != nil || e.ID == "" {
		e.ID = ""
		return e, fail("id", "required: a catalog id such as %q", "my-server")
	}
	if !wire.ValidServerID(e.ID) {
		id := e.ID
		e.ID = ""
		return e, fail("id", "%q is not a catalog id (1-64 of a-z 0-9 . _ -, starting with a letter or digit)", id)
	}
	if opts.Taken != nil && opts.Taken(e.ID) {
		return e, fail("id", "%q is a built-in server's id", e.ID)
	}
	for k := range m {
		if !slices.Contains([]string{"id", "languages", "command", "args", "install", "initializationOptions", "configuration", "pushConfiguration", "features", "tools"}, k) {
			return e, fail(k, "unknown field")
		}
	}
	var langs []string
	if err := json.Unmarshal(m["languages"], &langs); err != nil || len(langs) == 0 {
		return e, fail("languages", "required: an array of language ids")
	}
	for _, l := range langs {
		if !known(l) {
			return e, fail("languages", "unknown language %q", l)
		}
		if slices.Contains(e.Languages, wire.Language(l)) {
			return e, fail("languages", "%q is listed twice", l)
		}
		e.Languages = append(e.Languages, wire.Language(l))
	}

	if err := json.Unmarshal(m["command"], &e.Command); err != nil || !commandName.MatchString(e.Command) || strings.Contains(e.Command, "..") {
		return e, fail("command", "required: the executable's base name (no path), found on the task PATH or where its installer puts it")
	}
	if v, ok := m["args"]; ok {
		if err := json.Unmarshal(v, &e.Args); err != nil {
			return e, fail("args", "must be an array of strings")
		}
		for _, a := range e.Args {
			if strings.ContainsRune(a, 0) {
				return e, fail("args", "an argument holds a NUL byte")
			}
		}
	}

	v, ok := m["install"]
	if !ok {
		return e, fail("install", "required: an object with a kind (manual, npm, go or release)")
	}
	var ferr *FieldError
	if e.Install, ferr = parseInstall(v, e, opts); ferr != nil {
		ferr.ID = e.ID
		return e, ferr
	}

	for _, f := range []struct {
		name string
		dst  *json.RawMessage
	}{{"initializationOptions", &e.InitializationOptions}, {"configuration", &e.Configuration}} {
		v, ok := m[f.name]
		if !ok {
			continue
		}
		if o, err := object(v); err != nil || o == nil {
			return e, fail(f.name, "must be a JSON object")
		}
		var compact bytes.Buffer
		_ = json.Compact(&compact, v)
		*f.dst = compact.Bytes()
	}
	if e.NeedsInstallDir() && e.Install.Kind != InstallNPM && e.Install.Kind != InstallRelease {
		return e, fail("initializationOptions", InstallDirVar+" names the install's directory in the managed cache, which only an npm or release install has")
	}
	if v, ok := m["pushConfiguration"]; ok {
		if err := json.Unmarshal(v, &e.PushConfiguration); err != nil || string(v) == "null" {
			return e, fail("pushConfiguration", "must be true or false")
		}
		if e.PushConfiguration && e.Configuration == nil {
			return e, fail("pushConfiguration", "needs a configuration to send")
		}
	}
	if v, ok := m["features"]; ok {
		if err := json.Unmarshal(v, &e.Features); err != nil {
			return e, fail("features", "must be an array of feature names")
		}
		for i, f := range e.Features {
			if !wire.IsFeature(f) {
				return e, fail("features", "unknown feature %q (one of %s)", f, strings.Join(wire.Features, ", "))
			}
			if slices.Contains(e.Features[:i], f) {
				return e, fail("features", "%q is listed twice", f)
			}
		}
	}
	if v, ok := m["tools"]; ok {
		var tools map[string]string
		if err := json.Unmarshal(v, &tools); err != nil {
			return e, fail("tools", "must map variable names to executable base names")
		}
		for _, env := range slices.Sorted(maps.Keys(tools)) {
			cmd := tools[env]
			switch {
			case !envName.MatchString(env) || slices.Contains(reservedEnv, env):
				return e, fail("tools", "%q is not a variable a tool may set", env)
			case !commandName.MatchString(cmd) || strings.Contains(cmd, ".."):
				return e, fail("tools", "%s: %q is not an executable's base name", env, cmd)
			}
			e.Tools = append(e.Tools, Tool{Env: env, Command: cmd})
		}
	}
	return e, nil
}

func parseInstall(raw json.RawMessage, e Server, opts Options) (Recipe, *FieldError) {
	fail := func(field, format string, args ...any) *FieldError {
		return &FieldError{Field: "install." + field, Message: fmt.Sprintf(format, args...)}
	}
	m, err := object(raw)
	if err != nil {
		return Recipe{}, &FieldError{Field: "install", Message: "must be an object with a kind"}
	}
	var kind string
	_ = json.Unmarshal(m["kind"], &kind)
	allowed := map[string][]string{
		string(InstallManual):  {"guidance"},
		string(InstallNPM):     {"packages", "lockfile", "executable"},
		string(InstallGo):      {"package"},
		string(InstallRelease): {"tag", "baseUrl", "assets"},
	}
	fields, ok := allowed[kind]
	if !ok {
		return Recipe{}, fail("kind", "%q: must be manual, npm, go or release", kind)
	}
	for k := range m {
		if k != "kind" && !slices.Contains(fields, k) {
			return Recipe{}, fail(k, "not a field of a %s install", kind)
		}
	}
	r := Recipe{Kind: Kind(kind)}
	switch r.Kind {
	case InstallManual:
		r.Guidance = "Install " + e.Command + " and make it available on the task host's PATH."
		if v, ok := m["guidance"]; ok {
			if err := json.Unmarshal(v, &r.Guidance); err != nil || strings.TrimSpace(r.Guidance) == "" {
				return Recipe{}, fail("guidance", "must be a non-empty string")
			}
		}
	case InstallGo:
		var target string
		if err := json.Unmarshal(m["package"], &target); err != nil {
			return Recipe{}, fail("package", "required: module/path@vX.Y.Z")
		}
		g := goTarget.FindStringSubmatch(target)
		if g == nil || !exactVersion.MatchString(g[3]) {
			return Recipe{}, fail("package", "%q is not module/path@vX.Y.Z at an exact version (not latest, a branch or a range)", target)
		}
		if bin := goBinary(g[1]); bin != e.Command {
			return Recipe{}, fail("package", "go install of %s writes %q, not the command %q", g[1], bin, e.Command)
		}
		r.Packages = []string{target}
	case InstallNPM:
		if err := json.Unmarshal(m["packages"], &r.Packages); err != nil || len(r.Packages) == 0 {
			return Recipe{}, fail("packages", "required: exact name@version pins")
		}
		for _, p := range r.Packages {
			if _, _, ok := SplitNPMSpec(p); !ok {
				return Recipe{}, fail("packages", "%q is not an exact npm pin (name@1.2.3)", p)
			}
		}
		var lock *NPMLock
		var err error
		r.Managed = OperatorDir + "/" + e.ID
		if opts.Builtin {
			lock, r.Managed, err = readLockFolder(m["lockfile"], opts.FS)
		} else {
			lock, err = readLock(m["lockfile"], opts.Dir)
			if lock != nil {
				lock.PackageJSON = packageJSON(e.ID, r.Packages)
			}
		}
		if err != nil {
			return Recipe{}, fail("lockfile", "%s", err)
		}
		if v, ok := m["executable"]; ok {
			if err := json.Unmarshal(v, &r.Executable); err != nil || !validExecutable(r.Executable, e.Command) {
				return Recipe{}, fail("executable", "must be the slash-separated path of the file %q inside node_modules (\"@scope/pkg/%s\")", e.Command, e.Command)
			}
		}
		if err := CheckLock(lock, r.Packages, e.Command, r.Executable); err != nil {
			return Recipe{}, fail("lockfile", "%s", err)
		}
		r.Lock = lock
		r.Platforms = ExecutablePlatforms(lock, r.Executable)
	case InstallRelease:
		rel := &Release{Assets: map[string]Asset{}}
		if v, ok := m["tag"]; ok {
			if err := json.Unmarshal(v, &rel.Tag); err != nil {
				return Recipe{}, fail("tag", "must be a string")
			}
		}
		if err := json.Unmarshal(m["baseUrl"], &rel.BaseURL); err != nil || !strings.HasPrefix(rel.BaseURL, "https://") || strings.ContainsAny(rel.BaseURL, "?# ") {
			return Recipe{}, fail("baseUrl", "required: the https URL of the directory holding the assets")
		}
		rel.BaseURL = strings.TrimRight(rel.BaseURL, "/")
		var assets map[string]struct {
			File   string `json:"file"`
			SHA256 string `json:"sha256"`
		}
		if err := json.Unmarshal(m["assets"], &assets); err != nil || len(assets) == 0 {
			return Recipe{}, fail("assets", `required: {"goos/goarch": {"file": NAME.gz, "sha256": HEX}}`)
		}
		for p, a := range assets {
			switch {
			case !platform.MatchString(p):
				return Recipe{}, fail("assets", "%q is not goos/goarch", p)
			case a.File == "" || strings.ContainsAny(a.File, `/\?#`) || a.File == "." || a.File == ".." || !strings.HasSuffix(a.File, ".gz"):
				return Recipe{}, fail("assets", "%s: file %q is not the name of a .gz file under baseUrl", p, a.File)
			case !sha256Hex.MatchString(a.SHA256):
				return Recipe{}, fail("assets", "%s: sha256 %q is not 64 lower-case hex digits", p, a.SHA256)
			}
			rel.Assets[p] = Asset{File: a.File, SHA256: a.SHA256}
		}
		r.Release, r.Managed = rel, OperatorDir+"/"+e.ID
		if opts.Builtin {
			r.Managed = e.ID
		}
	}
	return r, nil
}

// validExecutable reports whether p is a clean relative slash path inside
// node_modules whose base name is command.
func validExecutable(p, command string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && !strings.Contains(p, "\\") && path.Clean(p) == p &&
		!slices.Contains(strings.Split(p, "/"), "..") && path.Base(p) == command && strings.Contains(p, "/")
}

// goBinary is the executable `go install` writes for a package path: its
// last element, or the one before a major-version suffix (/v2).
func goBinary(pkg string) string {
	base := path.Base(pkg)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		if dir := path.Dir(pkg); dir != "." {
			return path.Base(dir)
		}
	}
	return base
}

// readLockFolder reads a built-in npm recipe's lockfile: a path in fsys
// to a package-lock.json whose folder holds its package.json too and names
// the install's directory in the managed cache.
func readLockFolder(v json.RawMessage, fsys fs.FS) (*NPMLock, string, error) {
	var p string
	if err := json.Unmarshal(v, &p); err != nil || path.Base(p) != "package-lock.json" || !fs.ValidPath(p) || fsys == nil {
		return nil, "", fmt.Errorf("required: the path of a package-lock.json beside its package.json")
	}
	lock, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, "", err
	}
	manifest, err := fs.ReadFile(fsys, path.Join(path.Dir(p), "package.json"))
	if err != nil {
		return nil, "", err
	}
	return &NPMLock{PackageJSON: manifest, PackageLock: lock}, path.Base(path.Dir(p)), nil
}

// readLock reads an npm recipe's lockfile: the package-lock.json object
// itself, or a path to it, relative to dir.
func readLock(v json.RawMessage, dir string) (*NPMLock, error) {
	if len(v) == 0 {
		return nil, fmt.Errorf("required: the package-lock.json of the packages, as an object or a file path")
	}
	var p string
	if err := json.Unmarshal(v, &p); err == nil {
		if p == "" {
			return nil, fmt.Errorf("empty path")
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return &NPMLock{PackageLock: b}, nil
	}
	if _, err := object(v); err != nil {
		return nil, fmt.Errorf("must be the package-lock.json object or a path to it")
	}
	return &NPMLock{PackageLock: append([]byte(nil), v...)}, nil
}

// packageJSON is the npm project of an operator entry: it depends on
// exactly its pins.
func packageJSON(id string, packages []string) []byte {
	deps := map[string]string{}
	for _, p := range packages {
		name, version, _ := SplitNPMSpec(p)
		deps[name] = version
	}
	b, _ := json.MarshalIndent(map[string]any{
		"name": "kandev-lsp-" + id, "private": true,
		"description":  "Managed by Kandev: a language server install.",
		"dependencies": deps,
	}, "", "  ")
	return append(b, '\n')
}
