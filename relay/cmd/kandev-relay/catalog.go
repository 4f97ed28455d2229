package main

import (
	"github.com/kandev/lsp/internal/catalogfile"
	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/settings"
)

// operatorServers reads the operator catalog, checked as the agent checks
// it at start, into the servers users may choose besides the built-in ones
// (nil without a file). The relay knows the built-in catalog from wire's
// languages table: it imports nothing of the agent, whose lockfiles it has
// no use for.
func operatorServers(file string) (settings.Servers, error) {
	if file == "" {
		return nil, nil
	}
	f, err := catalogfile.Load(file, catalogfile.Options{Taken: func(id string) bool {
		_, ok := wire.BuiltinServer(id)
		return ok
	}})
	if err != nil {
		return nil, err
	}
	servers := settings.Servers{}
	for _, s := range f.Servers {
		for _, l := range s.Languages {
			servers[s.ID] = append(servers[s.ID], string(l))
		}
	}
	return servers, nil
}
