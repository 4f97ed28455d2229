// Package installers serves wire.AgentInstallersPath: for each language,
// how this task host could install its server (the pinned command, its
// prerequisites, where the result goes, or why not) and whether the server
// is already there, so the UI can show manual guidance.
//
// The install plan comes from a Planner. The agent plugs in its install
// Manager's Describe (agent/server), so the route describes what an install
// would really do; StaticPlan, here, derives a plan from the catalog's pins
// alone, for callers without a Manager.
// Discovery (Command, Found, Path) is always this package's.
//
// Everything is derived from the task environment (taskenv.Env, with its
// injectable GOOS and GOARCH), never from the agent's own process, so a
// Windows host's answer is testable on Linux.
package installers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/kandev/lsp/agent/auth"
	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// Manual-install guidance, in English; the UI localizes by Reason and
// shows this text as the task host's detail.
const (
	kotlinGuidance = "Kotlin LSP is never installed automatically. Install kotlin-lsp " +
		"(https://github.com/Kotlin/kotlin-lsp) and make it available on the task host's PATH."
	osGuidance = "No automatic installer for %s on this task host's operating system. " +
		"Install it manually and make it available on the task host's PATH."
)

// releaseURL is where rust-analyzer releases are downloaded from.
const releaseURL = "https://github.com/rust-lang/rust-analyzer/releases/download/"

// Planner answers the install part of one language's entry: Installable,
// Kind, InstallCommand, WorkDir, Download, Prerequisites, Destination,
// Reason and Guidance. Describe fills in Language, Command, Found and Path.
type Planner func(env *taskenv.Env, language wire.Language) wire.InstallerInfo

// Describe answers wire.Installers for the task environment env, with the
// install plans of plan (StaticPlan when nil).
func Describe(env *taskenv.Env, plan Planner) wire.Installers {
	if plan == nil {
		plan = StaticPlan
	}
	out := wire.Installers{GOOS: env.GOOS, GOARCH: env.GOARCH}
	for _, l := range wire.Languages {
		srv, err := catalog.Lookup(string(l.Language))
		if err != nil {
			continue // every wire language has a server; see catalog tests
		}
		info := plan(env, srv.Language)
		info.Language, info.Command = srv.Language, srv.Command
		info.Found, info.Path = false, ""
		if p, err := srv.Locate(env); err == nil {
			info.Found, info.Path = true, p
		}
		out.Languages = append(out.Languages, info)
	}
	return out
}

// StaticPlan is the install plan from the catalog's pins: what an install
// would run on this host, or why there is none.
func StaticPlan(env *taskenv.Env, language wire.Language) wire.InstallerInfo {
	srv, err := catalog.Lookup(string(language))
	if err != nil {
		return wire.InstallerInfo{Language: language}
	}
	info := wire.InstallerInfo{Language: language}
	if !srv.AutoInstallable(env.GOOS) {
		info.Reason, info.Guidance = wire.NotInstallableOS, fmt.Sprintf(osGuidance, srv.Command)
		if srv.Installer == catalog.InstallNone {
			info.Reason, info.Guidance = wire.NotInstallableManual, kotlinGuidance
		}
		return info
	}
	switch srv.Installer {
	case catalog.InstallNPM:
		info.Kind = wire.InstallerNPM
		// No --prefix: npm would take DIR/etc/npmrc as its global config
		// and lose the machine's (CA file, proxy). The install runs in
		// WorkDir, which holds a package.json.
		info.InstallCommand = append([]string{"npm", "install", "--no-audit", "--no-fund", "--save-exact"}, srv.Packages...)
		info.WorkDir = srv.ManagedDir(env)
		info.Prerequisites = prerequisites(env, "node", "npm")
		info.Destination = first(srv.InstallDirs(env))
	case catalog.InstallGo:
		info.Kind = wire.InstallerGo
		info.InstallCommand = append([]string{"go", "install"}, srv.Packages...)
		info.Prerequisites = prerequisites(env, "go")
		// `go install` publishes to GOBIN, else the first GOPATH entry's
		// bin, else HOME/go/bin: GoBinDirs' first entry.
		info.Destination = first(srv.InstallDirs(env))
	case catalog.InstallRelease:
		info.Kind = wire.InstallerRelease
		info.Download = releaseURL + srv.Release + "/rust-analyzer-" + target(env) + ".gz"
		info.Destination = srv.ManagedDir(env)
	}
	if info.Destination == "" {
		// No absolute task home: nowhere safe to install to.
		info.Installable, info.Reason = false, wire.NotInstallableOS
		info.Guidance = "The task environment has no absolute HOME, so there is nowhere to install " + srv.Command + "."
		return info
	}
	info.Installable = true
	return info
}

// target is the rust-analyzer release target triple of the task host.
func target(env *taskenv.Env) string {
	arch := "x86_64"
	if env.GOARCH == "arm64" {
		arch = "aarch64"
	}
	if env.GOOS == "darwin" {
		return arch + "-apple-darwin"
	}
	return arch + "-unknown-linux-gnu"
}

func prerequisites(env *taskenv.Env, names ...string) []wire.Prerequisite {
	out := make([]wire.Prerequisite, 0, len(names))
	for _, n := range names {
		_, err := env.LookPath(n)
		out = append(out, wire.Prerequisite{Name: n, Found: err == nil})
	}
	return out
}

func first(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	return dirs[0]
}

// Handler serves wire.AgentInstallersPath behind the bearer token.
type Handler struct {
	env   *taskenv.Env
	token string
	plan  Planner
}

// New returns the handler for the task environment env; plan may be nil
// (StaticPlan).
func New(env *taskenv.Env, token string, plan Planner) *Handler {
	return &Handler{env: env, token: token, plan: plan}
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
	_ = json.NewEncoder(w).Encode(Describe(h.env, h.plan))
}
