package relay

import (
	"maps"
	"net/http"
	"slices"

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
	// Servers is the built-in catalog: every server id with the languages
	// it serves, what lsp_language_servers may choose among. A task host's
	// operator catalog may add entries; its installers route lists them.
	Servers []runtimeServer `json:"servers"`
}

type runtimeLanguage struct {
	ID         string   `json:"id"`
	Extensions []string `json:"extensions"`
	// FileNames and Patterns are the whole base names and the patterns on
	// them (path.Match, lower case) of the language's files.
	FileNames []string `json:"fileNames"`
	Patterns  []string `json:"patterns"`
	MonacoIDs []string `json:"monacoIds"`
	// LanguageIDs are the files' LSP languageIds where they are not the
	// first Monaco id (wire.LanguageInfo.LanguageIDs).
	LanguageIDs  map[string]string `json:"languageIds"`
	Experimental bool              `json:"experimental"`
	// Servers are the built-in servers of the language, DefaultServer
	// first: what a stream runs when neither the browser nor the user's
	// settings name one.
	Servers       []string `json:"servers"`
	DefaultServer string   `json:"defaultServer"`
}

type runtimeServer struct {
	ID        string   `json:"id"`
	Languages []string `json:"languages"`
}

// bootRuntime is computed once: it depends only on wire.Languages.
var bootRuntime = func() runtimeInfo {
	ri := runtimeInfo{Languages: []runtimeLanguage{}, AutoInstallable: []string{}, Servers: []runtimeServer{}}
	seen := map[string]int{}
	for _, l := range wire.Languages {
		ri.Languages = append(ri.Languages, runtimeLanguage{
			ID: string(l.Language), Extensions: l.Extensions, FileNames: nonNil(l.FileNames), Patterns: nonNil(l.Patterns),
			MonacoIDs: l.MonacoIDs, LanguageIDs: l.LanguageIDs, Experimental: l.Experimental,
			Servers: l.Servers, DefaultServer: l.Servers[0],
		})
		if ri.Languages[len(ri.Languages)-1].LanguageIDs == nil {
			ri.Languages[len(ri.Languages)-1].LanguageIDs = map[string]string{}
		}
		if l.AutoInstallable {
			ri.AutoInstallable = append(ri.AutoInstallable, string(l.Language))
		}
		for _, id := range l.Servers {
			i, ok := seen[id]
			if !ok {
				i = len(ri.Servers)
				seen[id] = i
				ri.Servers = append(ri.Servers, runtimeServer{ID: id, Languages: []string{}})
			}
			ri.Servers[i].Languages = append(ri.Servers[i].Languages, string(l.Language))
		}
	}
	return ri
}()

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// getRuntime is GET /api/v1/lsp/runtime: the built-in catalog, with the
// operator's entries (Config.Servers) after each language's built-in
// servers.
func (rl *Relay) getRuntime(w http.ResponseWriter, _ *http.Request) {
	if len(rl.cfg.Servers) == 0 {
		writeJSON(w, http.StatusOK, bootRuntime)
		return
	}
	ri := bootRuntime
	ri.Languages = slices.Clone(ri.Languages)
	ri.Servers = slices.Clone(ri.Servers)
	for i, l := range ri.Languages {
		ri.Languages[i].Servers = rl.cfg.Servers.Of(l.ID)
	}
	for _, id := range slices.Sorted(maps.Keys(rl.cfg.Servers)) {
		ri.Servers = append(ri.Servers, runtimeServer{ID: id, Languages: nonNil(rl.cfg.Servers[id])})
	}
	writeJSON(w, http.StatusOK, ri)
}
