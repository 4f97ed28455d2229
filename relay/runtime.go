package relay

import (
	"net/http"

	"github.com/kandev/lsp/internal/wire"
)

// runtimeInfo is the boot runtime (GET /api/v1/lsp/runtime).
type runtimeInfo struct {
	Languages []runtimeLanguage `json:"languages"`
	// AutoInstallable are the languages that may be saved in
	// lsp_auto_install_languages. Task-host independent: the relay never
	// narrows it by its own OS; each task host's agent decides what it can
	// actually install (4007 where it cannot).
	AutoInstallable []string `json:"autoInstallable"`
}

type runtimeLanguage struct {
	ID           string   `json:"id"`
	Extensions   []string `json:"extensions"`
	MonacoIDs    []string `json:"monacoIds"`
	Experimental bool     `json:"experimental"`
}

// bootRuntime is computed once: it depends only on wire.Languages.
var bootRuntime = func() runtimeInfo {
	ri := runtimeInfo{Languages: []runtimeLanguage{}, AutoInstallable: []string{}}
	for _, l := range wire.Languages {
		ri.Languages = append(ri.Languages, runtimeLanguage{
			ID: string(l.Language), Extensions: l.Extensions, MonacoIDs: l.MonacoIDs, Experimental: l.Experimental,
		})
		if l.AutoInstallable {
			ri.AutoInstallable = append(ri.AutoInstallable, string(l.Language))
		}
	}
	return ri
}()

// getRuntime is GET /api/v1/lsp/runtime.
func (rl *Relay) getRuntime(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, bootRuntime)
}
