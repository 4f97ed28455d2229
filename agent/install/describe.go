package install

import (
	"errors"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// Describe answers the installers route for one catalog entry on this task
// host: how it is installed (Kind), whether Kandev can install it here
// and, if so, how (the command, what it needs on the task PATH, where the
// result goes), or why not, with guidance. Language, Server, Default,
// Operator, Command, Found and Path, which are the catalog's and
// discovery's answers, are left for the caller.
//
// Nothing is run or created: the UI shows this beside the auto-install
// setting before the user enables it.
func (m *Manager) Describe(env *taskenv.Env, e catalog.Entry) wire.InstallerInfo {
	info := wire.InstallerInfo{Kind: catalog.WireKind(e.Install.Kind)}
	inst, err := newInstaller(env, &m.cfg, e)
	var ue *UnsupportedError
	switch {
	case errors.As(err, &ue):
		info.Reason, info.Guidance = ue.Code, ue.Reason
		return info
	case err != nil:
		// The task environment lacks what any install needs (an absolute
		// HOME); Prepare fails the same way.
		info.Guidance = err.Error()
		return info
	}
	info.Installable = true
	switch i := inst.(type) {
	case *npmInstaller:
		info.Kind = wire.InstallerNPM
		// The command to get the same pinned servers by hand. The agent
		// itself runs `npm ci --ignore-scripts` on its embedded lockfile
		// in a staging directory, which a user cannot repeat from here.
		info.InstallCommand = append([]string{"npm", "install", "--no-audit", "--no-fund", "--save-exact"}, i.pkg.specs...)
		info.WorkDir = i.dest()
		info.Destination = i.pkg.binPath(env.GOOS, i.dest())
		info.Prerequisites = prerequisites(env, "node", "npm")
	case *goInstaller:
		info.Kind = wire.InstallerGo
		// What to run by hand; the agent adds -v, for progress only.
		info.InstallCommand = []string{"go", "install", i.target}
		if dirs := env.GoBinDirs(); len(dirs) > 0 {
			info.Destination = dirs[0] // where go install writes: GOBIN, GOPATH's first bin, HOME/go/bin
		}
		info.Prerequisites = prerequisites(env, "go")
	case *releaseInstaller:
		info.Kind = wire.InstallerRelease
		info.Download = i.url
		info.Destination = i.dir()
		if i.sum == "" {
			info.Guidance = "no pinned checksum for " + i.asset + " in this build; install " + i.binary + " manually"
		}
	}
	return info
}

// prerequisites reports whether each tool is on the task PATH.
func prerequisites(env *taskenv.Env, names ...string) []wire.Prerequisite {
	out := make([]wire.Prerequisite, 0, len(names))
	for _, n := range names {
		_, err := env.LookPath(n)
		out = append(out, wire.Prerequisite{Name: n, Found: err == nil})
	}
	return out
}
