package install

import (
	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/internal/wire"
)

// def is the built-in default entry of a language.
func def(l wire.Language) catalog.Entry {
	e, ok := catalog.Builtin().Default(l)
	if !ok {
		panic("no default server for " + l)
	}
	return e
}

// entry is the built-in entry with id.
func entry(id string) catalog.Entry {
	e, ok := catalog.Builtin().Lookup(id)
	if !ok {
		panic("no built-in server " + id)
	}
	return e
}
