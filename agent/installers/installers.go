// Package installers serves wire.AgentInstallersPath: for each language,
// every catalog entry that serves it — the default first — and for each
// how this task host could install its server (the pinned command, its
// prerequisites, where the result goes, or why not, with guidance) and
// whether the server is already there, so the UI can show manual
// guidance.
//
// The install plan comes from a Planner: the agent's install Manager's
// Describe (agent/server), so the route describes what an install would
// really do. Discovery (Command, Found, Path) and the catalog's answers
// (Server, Default, Operator) are always this package's.
//
// Everything is derived from the task environment (taskenv.Env, with its
// injectable GOOS and GOARCH), never from the agent's own process, so a
// Windows host's answer is testable on Linux.
package installers

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/kandev/lsp/agent/auth"
	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// Planner answers the install part of one entry's answer: Installable,
// Kind, InstallCommand, WorkDir, Download, Prerequisites, Destination,
// Reason and Guidance. Describe fills in the rest.
type Planner func(env *taskenv.Env, e catalog.Entry) wire.InstallerInfo

// Describe answers wire.Installers for the task environment env and the
// catalog cat, with the install plans of plan (when nil, a Manager's with
// the default configuration for env's architecture).
func Describe(env *taskenv.Env, cat *catalog.Catalog, plan Planner) wire.Installers {
	if plan == nil {
		plan = install.New(install.Config{GOARCH: env.GOARCH}).Describe
	}
	out := wire.Installers{GOOS: env.GOOS, GOARCH: env.GOARCH, Languages: []wire.LanguageInstallers{}}
	for _, l := range wire.Languages {
		entries := cat.ForLanguage(l.Language)
		if len(entries) == 0 {
			continue // every wire language has a default; see catalog tests
		}
		li := wire.LanguageInstallers{Servers: make([]wire.InstallerInfo, 0, len(entries))}
		for i, e := range entries {
			info := plan(env, e)
			info.Language, info.Server, info.Default, info.Operator = l.Language, e.ID, i == 0, e.Operator
			info.Command, info.Found, info.Path = e.Command, false, ""
			if p, err := e.Locate(env); err == nil {
				info.Found, info.Path = true, p
			}
			li.Servers = append(li.Servers, info)
		}
		li.InstallerInfo = li.Servers[0]
		out.Languages = append(out.Languages, li)
	}
	return out
}

// Handler serves wire.AgentInstallersPath behind the bearer token.
type Handler struct {
	env   *taskenv.Env
	cat   *catalog.Catalog
	token string
	plan  Planner
}

// New returns the handler for the task environment env and the catalog
// cat; plan may be nil (see Describe).
func New(env *taskenv.Env, cat *catalog.Catalog, token string, plan Planner) *Handler {
	return &Handler{env: env, cat: cat, token: token, plan: plan}
}

// ServeHTTP answers GET with Describe's JSON; the installed state is read
// afresh on every request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !auth.Valid(r, h.token) {
		auth.Deny(w)
		return
	}
	if !slices.Contains([]string{http.MethodGet, http.MethodHead}, r.Method) {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(Describe(h.env, h.cat, h.plan))
}
