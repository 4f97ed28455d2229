package catalog

import "github.com/kandev/lsp/internal/catalogfile"

// The operator catalog is a file of the built-in catalog's format
// (internal/catalogfile) that whoever runs the agent names with -catalog
// (or KANDEV_AGENT_CATALOG): more servers beside the built-in ones, with
// the same fields and the same pinning rules, and no languages. It is
// never read from the workspace or taken from a request. Every field is
// checked when the agent starts; a bad one stops it with an error naming
// the entry and the field.

// Load reads and checks the operator catalog file at path; lockfile paths
// in it are relative to its directory.
func Load(file string) ([]Entry, error) {
	f, err := catalogfile.Load(file, operatorOptions(""))
	if err != nil {
		return nil, err
	}
	return operatorEntries(f), nil
}

// Parse checks an operator catalog; dir is where relative lockfile paths
// start. The error is a *FieldError.
func Parse(data []byte, dir string) ([]Entry, error) {
	f, err := catalogfile.Parse(data, operatorOptions(dir))
	if err != nil {
		return nil, err
	}
	return operatorEntries(f), nil
}

// operatorOptions: an operator file's ids and go commands must be none of
// the built-in ones.
func operatorOptions(dir string) catalogfile.Options {
	goCommands := map[string]string{}
	for _, e := range Builtin().Entries() {
		if e.Install.Kind == InstallGo {
			goCommands[e.Command] = e.ID
		}
	}
	return catalogfile.Options{Dir: dir, GoCommands: goCommands,
		Taken: func(id string) bool { _, ok := Builtin().Lookup(id); return ok }}
}

func operatorEntries(f *catalogfile.File) []Entry {
	out := make([]Entry, 0, len(f.Servers))
	for _, s := range f.Servers {
		out = append(out, fromFile(s, true))
	}
	return out
}
