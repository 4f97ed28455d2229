package install

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
)

// The catalog (discovery, the installers route) and the installers must
// agree on pins and on where results are published, or discovery on a
// later start would miss what an install left in the cache and install
// again on every connection.
func TestCatalogAgreesWithInstallers(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := taskenv.New(map[string]string{"HOME": home})
	env.GOOS, env.GOARCH = "linux", "amd64"
	cfg := &Config{GOARCH: "amd64"}
	for _, e := range catalog.Builtin().Entries() {
		inst, err := newInstaller(env, cfg, e)
		if e.Install.Kind == catalog.InstallManual {
			require.ErrorIs(t, err, ErrUnsupported, e.ID)
			continue
		}
		require.NoError(t, err, e.ID)
		switch i := inst.(type) {
		case *npmInstaller:
			require.Equal(t, e.Install.Packages, i.pkg.specs, e.ID)
			require.Equal(t, e.Command, i.pkg.launcher, e.ID)
			require.Equal(t, i.dest(), e.ManagedDir(env), e.ID)
			require.Equal(t, []string{i.pkg.binPath(env.GOOS, i.dest())}, e.InstallDirs(env), e.ID)
			if e.Install.Executable == "" {
				require.Equal(t, []string{filepath.Join(i.dest(), "node_modules", ".bin")}, e.InstallDirs(env), e.ID)
			}
		case *goInstaller:
			require.Equal(t, e.Install.Packages, []string{i.target})
			require.Equal(t, e.Command, i.binary)
		case *releaseInstaller:
			require.Equal(t, "https://github.com/rust-lang/rust-analyzer/releases/download/"+catalog.Version("rust-analyzer")+"/rust-analyzer-x86_64-unknown-linux-gnu.gz", i.url)
			require.Equal(t, e.Command, i.binary)
			require.Equal(t, []string{i.dir()}, e.InstallDirs(env))
		default:
			t.Fatalf("%s: unexpected installer %T", e.ID, inst)
		}
	}
}
