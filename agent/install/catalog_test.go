package install

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// The catalog (discovery, the static installers plan) and the installers
// must agree on pins and on where results are published, or discovery on a
// later start would miss what an install left in the cache and install
// again on every connection.
func TestCatalogAgreesWithInstallers(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := taskenv.New(map[string]string{"HOME": home})
	env.GOOS, env.GOARCH = "linux", "amd64"
	cfg := &Config{GOARCH: "amd64"}
	for _, l := range wire.Languages {
		srv, err := catalog.Lookup(string(l.Language))
		require.NoError(t, err)
		inst, err := newInstaller(env, cfg, l.Language)
		if srv.Installer == catalog.InstallNone {
			require.ErrorIs(t, err, ErrUnsupported, l.Language)
			continue
		}
		require.NoError(t, err, l.Language)
		switch i := inst.(type) {
		case *npmInstaller:
			require.Equal(t, srv.Packages, i.pkg.specs, l.Language)
			require.Equal(t, srv.Command, i.pkg.launcher, l.Language)
			require.Equal(t, i.dest(), srv.ManagedDir(env), l.Language)
			require.Equal(t, []string{filepath.Join(i.dest(), "node_modules", ".bin")}, srv.InstallDirs(env), l.Language)
		case *goInstaller:
			require.Equal(t, srv.Packages, []string{i.target})
			require.Equal(t, srv.Command, i.binary)
		case *releaseInstaller:
			require.Equal(t, RustAnalyzerTag, srv.Release)
			require.Equal(t, srv.Command, "rust-analyzer")
			require.Equal(t, []string{i.dir()}, srv.InstallDirs(env))
		default:
			t.Fatalf("%s: unexpected installer %T", l.Language, inst)
		}
	}
}
