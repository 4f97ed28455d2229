package wire

// Agent workspace file routes, for a Files tree and saves. Both take the
// agent's bearer token; paths are workspace-relative and slash-separated.
const (
	// AgentFilesPath: GET returns a JSON array of every regular file's
	// relative path, sorted (.git and node_modules are skipped).
	AgentFilesPath = "/api/v1/workspace/files"
	// AgentFilePath: GET returns one file's content as text/plain; PUT
	// replaces it (or creates it in an existing directory) with the body.
	AgentFilePath = "/api/v1/workspace/file"
	// ParamPath names the workspace-relative file on AgentFilePath.
	ParamPath = "path"
)

// AgentSearchPath: GET with ParamQuery returns the workspace's lines that
// hold the query (case-insensitive) as JSON {"matches":[{"path","line",
// "column","endColumn","text"}],"truncated":bool}, bounded in matches and
// in the files it reads; same token and confinement as the file routes.
const (
	AgentSearchPath = "/api/v1/workspace/search"
	// ParamQuery is the text AgentSearchPath looks for.
	ParamQuery = "q"
)

// AgentReposPath: GET returns the workspace's repositories as a JSON array
// of slash-separated relative paths, "." for the workspace itself — the
// same list the stream's ready frame carries as repoSubpaths, for a Files
// tree to name them before any language server runs.
const AgentReposPath = "/api/v1/workspace/repositories"

// Agent library routes: files outside the workspace that definitions lead
// to (the Go toolchain and module cache, the task interpreter's
// site-packages, a language server's own libraries), served read-only and
// only under the roots the task host names. Same token as the file routes.
const (
	// AgentLibraryRootsPath: GET returns the library roots as a JSON array
	// of {"kind","dir"}, dir an absolute task-host path.
	AgentLibraryRootsPath = "/api/v1/library/roots"
	// AgentLibraryFilePath: GET with ParamPath, an absolute task-host path
	// under a root, returns that regular file's content as text/plain;
	// anything else is refused (403 outside every root or through a
	// symlink out of one, 400 not a regular file, 404 missing).
	AgentLibraryFilePath = "/api/v1/library/file"
)
