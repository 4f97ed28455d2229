package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// Registered returns the registerOptions of every dynamic registration of
// method still in force, oldest first. It serves methods this package does
// not wire but keeps, such as workspace/didChangeWatchedFiles, whose
// options another package reads.
func (r *Registry) Registered(method string) []j.Raw {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []j.Raw
	for _, id := range r.order {
		if reg := r.dyn[id]; reg.method == method {
			out = append(out, reg.raw)
		}
	}
	return out
}
