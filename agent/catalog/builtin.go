package catalog

import (
	"embed"

	"github.com/kandev/lsp/internal/catalogfile"
)

// builtinFile is the built-in catalog: every language and every server the
// agent may run, as data (the format is internal/catalogfile's). Adding a
// server is one entry there plus, for npm, its lockfile folder in npm/.
//
//go:embed builtin.json
var builtinFile []byte

// npmLocks holds, per npm server, the package.json and package-lock.json
// that an install writes into its staging directory and hands to `npm ci`:
// npm then installs exactly the locked tree — every package at its locked
// version, each tarball checked against its sha512 — or fails (EINTEGRITY
// for a tarball that does not match). Nothing is resolved at install time.
// builtin.json names each folder and says where the lockfiles came from.
//
//go:embed npm/*/package.json npm/*/package-lock.json
var npmLocks embed.FS

// parseBuiltin parses the embedded built-in catalog.
func parseBuiltin() (*catalogfile.File, error) {
	return catalogfile.Parse(builtinFile, catalogfile.Options{Builtin: true, FS: npmLocks})
}

// builtinEntries is the built-in table: a fresh copy each call, so no
// caller can change the catalog through it.
func builtinEntries() []Entry {
	f, err := parseBuiltin()
	if err != nil {
		panic(err) // embedded data: TestBuiltinFile catches it first
	}
	out := make([]Entry, 0, len(f.Servers))
	for _, s := range f.Servers {
		out = append(out, fromFile(s, false))
	}
	return out
}

// fromFile is a catalog file's server as an entry.
func fromFile(s catalogfile.Server, operator bool) Entry {
	return Entry{Server: s, Operator: operator}
}
