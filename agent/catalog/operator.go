package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/kandev/lsp/internal/wire"
)

// The operator catalog is a JSON file that whoever runs the agent names
// with -catalog (or KANDEV_AGENT_CATALOG): more servers beside the
// built-in ones, with the same fields and the same pinning rules. It is
// never read from the workspace or taken from a request. Every field is
// checked when the agent starts; a bad one stops it with an error naming
// the entry and the field.
//
//	{"servers": [
//	  {"id": "ruff", "languages": ["python"], "command": "ruff", "args": ["server"],
//	   "install": {"kind": "manual", "guidance": "pipx install ruff==0.12.0"},
//	   "features": ["diagnostics", "format", "code-action"],
//	   "configuration": {"lineLength": 100}},
//	  {"id": "taplo", "languages": ["yaml"], "command": "taplo", "args": ["lsp", "stdio"],
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
// Fields of a server: id (a catalog id no built-in entry has), languages
// (wire language ids), command (an executable's base name, found like a
// built-in one: task PATH, then where its installer puts it, never the
// workspace), args, install (kind manual, npm, go or release),
// initializationOptions (a JSON object), configuration (a JSON object: the
// server's default settings, from which the client answers its
// workspace/configuration requests; see Entry.Configuration), features
// (wire.Feature* names), tools (variable name to the base name of a helper
// program, see Entry.Tools). Install, by kind: manual takes guidance; npm takes
// packages (exact name@version pins) and lockfile (the package-lock.json
// of exactly those, as an object or as a file path relative to the
// catalog file; the install runs npm ci --ignore-scripts on it); go takes
// package (module path@vX.Y.Z, an exact version); release takes baseUrl
// (https), assets ("goos/goarch" to the file name of a gzip-compressed
// executable and its sha256) and tag.

// OperatorDir is the managed cache's directory for operator entries'
// installs, one directory per id below it, apart from the built-in ones.
const OperatorDir = "operator"

// FieldError is a rejected operator catalog: which server (its id, or its
// index when it has none yet) and which field.
type FieldError struct {
	// File is the catalog file's path ("" when parsed from memory).
	File string
	// Index is the server's position in "servers"; -1 for the file itself.
	Index int
	// ID is the server's id, if it has a usable one.
	ID string
	// Field is the field's name, dotted below install ("install.lockfile").
	Field   string
	Message string
}

func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString("operator catalog")
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	switch {
	case e.Index >= 0 && e.ID != "":
		fmt.Fprintf(&b, ": server %q (servers[%d])", e.ID, e.Index)
	case e.Index >= 0:
		fmt.Fprintf(&b, ": servers[%d]", e.Index)
	}
	if e.Field != "" {
		b.WriteString(": field " + e.Field)
	}
	return b.String() + ": " + e.Message
}

// Load reads and checks the operator catalog file at path; lockfile paths
// in it are relative to its directory.
func Load(file string) ([]Entry, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("operator catalog: %w", err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("operator catalog: %w", err)
	}
	entries, err := Parse(b, filepath.Dir(abs))
	if fe, ok := err.(*FieldError); ok {
		fe.File = file
	}
	return entries, err
}

// Parse checks an operator catalog; dir is where relative lockfile paths
// start. The error is a *FieldError.
func Parse(data []byte, dir string) ([]Entry, error) {
	top, err := object(data)
	if err != nil {
		return nil, &FieldError{Index: -1, Message: "not a JSON object: " + err.Error()}
	}
	for k := range top {
		if k != "servers" {
			return nil, &FieldError{Index: -1, Field: k, Message: "unknown field (the file holds \"servers\")"}
		}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(top["servers"], &raws); err != nil || raws == nil {
		return nil, &FieldError{Index: -1, Field: "servers", Message: "must be an array of servers"}
	}
	var out []Entry
	seen := map[string]bool{}
	// go install writes every binary into the one Go bin directory, where
	// discovery finds it by name: two go entries of one command would
	// replace each other's install.
	goCommands := map[string]string{}
	for _, e := range Builtin().Entries() {
		if e.Install.Kind == InstallGo {
			goCommands[e.Command] = e.ID
		}
	}
	for i, raw := range raws {
		e, err := parseEntry(raw, dir)
		if err != nil {
			err.Index = i
			return nil, err
		}
		if seen[e.ID] {
			return nil, &FieldError{Index: i, ID: e.ID, Field: "id", Message: "defined twice in this file"}
		}
		seen[e.ID] = true
		if e.Install.Kind == InstallGo {
			if other, ok := goCommands[e.Command]; ok {
				return nil, &FieldError{Index: i, ID: e.ID, Field: "install.package",
					Message: fmt.Sprintf("go install writes %s into the Go bin directory, where %q installs its own", e.Command, other)}
			}
			goCommands[e.Command] = e.ID
		}
		out = append(out, e)
	}
	return out, nil
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

func parseEntry(raw json.RawMessage, dir string) (Entry, *FieldError) {
	m, err := object(raw)
	if err != nil {
		return Entry{}, &FieldError{Message: "not a JSON object: " + err.Error()}
	}
	var e Entry
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
	if _, builtin := Builtin().Lookup(e.ID); builtin {
		return e, fail("id", "%q is a built-in server's id", e.ID)
	}
	for k := range m {
		if !slices.Contains([]string{"id", "languages", "command", "args", "install", "initializationOptions", "configuration", "features", "tools"}, k) {
			return e, fail(k, "unknown field")
		}
	}
	e.Operator = true

	var langs []string
	if err := json.Unmarshal(m["languages"], &langs); err != nil || len(langs) == 0 {
		return e, fail("languages", "required: an array of language ids")
	}
	for _, l := range langs {
		if _, ok := wire.Lookup(l); !ok {
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
	if e.Install, ferr = parseInstall(v, e, dir); ferr != nil {
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

func parseInstall(raw json.RawMessage, e Entry, dir string) (Recipe, *FieldError) {
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
		string(InstallNPM):     {"packages", "lockfile"},
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
		lock, err := readLock(m["lockfile"], dir)
		if err != nil {
			return Recipe{}, fail("lockfile", "%s", err)
		}
		lock.PackageJSON = packageJSON(e.ID, r.Packages)
		if err := CheckLock(lock, r.Packages, e.Command); err != nil {
			return Recipe{}, fail("lockfile", "%s", err)
		}
		r.Lock, r.Managed = lock, OperatorDir+"/"+e.ID
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
	}
	return r, nil
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
