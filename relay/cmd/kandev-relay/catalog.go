package main

import (
	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/relay/settings"
)

// operatorServers reads the operator catalog, checked as the agent checks
// it at start, into the servers users may choose besides the built-in ones
// (nil without a file).
func operatorServers(file string) (settings.Servers, error) {
	if file == "" {
		return nil, nil
	}
	entries, err := catalog.Load(file)
	if err != nil {
		return nil, err
	}
	servers := settings.Servers{}
	for _, e := range entries {
		if !e.Operator {
			continue
		}
		for _, l := range e.Languages {
			servers[e.ID] = append(servers[e.ID], string(l))
		}
	}
	return servers, nil
}
