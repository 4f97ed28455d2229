// Package install installs missing language servers on the task host: npm
// packages into the managed cache, gopls through the task's own Go
// toolchain, and rust-analyzer from a pinned, checksummed release.
//
// Everything here runs in the task environment (a *taskenv.Env), never the
// agent's: the npm and go binaries come from the task PATH, the managed
// cache root from the task HOME, and installed results are looked for in
// absolute task directories only.
//
// The stream handler drives one install per connection:
//
//	job, err := mgr.Prepare(env, language) // ErrUnsupported → close 4007
//	// write the "installing" status frame (5 s deadline); on failure close
//	// and return without calling Run: nobody could watch or cancel it.
//	res, err := job.Run(ctx)               // ctx ends on disconnect/teardown
//	// err == nil: "installed", then start res.Path.
//	// errors.Is(err, context.Canceled): close 1001, no frame.
//	// otherwise: "install_failed" with Detail(err), then close 4003.
//
// Discovery on later starts calls ManagedLauncher(env, language); the
// installers route calls Manager.Describe; task stop calls Manager.Close,
// which cancels every Run and waits until each has cleaned up.
//
// Every install has two deadlines (Config.StallTimeout, no progress — no
// output from npm or go, no downloaded byte — and Config.InstallTimeout,
// overall); either fails it like any other error, and a release download
// is bounded in size as it is written (Config.MaxReleaseSize).
//
// Nothing half-made is ever published: npm installs into a staging
// directory and releases decompress into a temporary file, both inside the
// cache and renamed into place only when complete, and every failure path
// removes its own leftovers. Installs of the same destination are
// serialised within the agent (a keyed mutex) and across agents (a lock
// file), and a waiter that finds the result already published does not
// install again.
package install
