package install

import (
	"context"
	"os"
	"path/filepath"

	"github.com/kandev/lsp/agent/taskenv"
)

// installer installs one server into one destination.
type installer interface {
	// lockPath is the lock file guarding the destination; it names the
	// destination for the in-process mutex too.
	lockPath() string
	// find returns the installed executable, or an error wrapping
	// ErrNotInstalled. It only reads, and sees published results only.
	find(stat statFunc) (string, error)
	// install makes find succeed, or fails leaving nothing behind. The
	// caller holds both locks; out captures the installer's output.
	install(ctx context.Context, r *Runner, out *Output) error
}

// work is what every installer shares: the task environment it runs in.
type work struct {
	env *taskenv.Env
}

// locksDir is where lock files live: a directory of their own in the cache,
// so the lock files never look like an install.
func locksDir(env *taskenv.Env, root string) string { return join(env.GOOS, root, ".locks") }

// removeGlob removes what an earlier, killed agent left under dir: staging
// directories or temporary downloads matching pattern. It is only called
// under the destination's lock, so no live install owns them.
func removeGlob(dir, pattern string) {
	matches, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, m := range matches {
		_ = os.RemoveAll(m)
	}
}
