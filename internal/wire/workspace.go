package wire

// Agent workspace file routes, for a Files tree and saves. All take the
// agent's bearer token; paths are workspace-relative and slash-separated.
const (
	// AgentFilesPath: GET returns a JSON array of every regular file's
	// relative path, sorted (.git and node_modules are skipped).
	AgentFilesPath = "/api/v1/workspace/files"
	// AgentFilePath: GET returns one file's content as text/plain; PUT
	// replaces it (or creates it in an existing directory) with the body.
	AgentFilePath = "/api/v1/workspace/file"
	// ParamPath names the workspace-relative file on AgentFilePath, and
	// the file or directory on AgentEntryPath.
	ParamPath = "path"
)

// Agent workspace entry routes, for a Files tree's create, rename or move,
// and delete; same token and confinement as the file routes. Only names
// are acted on: a symlink is moved or deleted as a link, never followed,
// and nothing existing is ever replaced. A 4xx says why: 400 a path that
// is not relative, escapes with "..", names the workspace itself, does
// not resolve (a symlink loop, a name too long) or moves a directory
// below itself; 403 a parent that resolves outside the workspace; 404 a
// missing parent, or a missing entry to move or delete; 409 a name
// already taken.
const (
	// AgentEntryPath: POST with ParamPath and ParamKind creates an empty
	// file or a directory in an existing directory (201 Created); DELETE
	// with ParamPath removes a file, a symlink or a directory with
	// everything in it (204). The workspace itself is never removed.
	AgentEntryPath = "/api/v1/workspace/entry"
	// ParamKind is what a POST to AgentEntryPath creates: KindFile or
	// KindDir (400 otherwise).
	ParamKind = "kind"
	// KindFile and KindDir are ParamKind's values.
	KindFile = "file"
	KindDir  = "dir"
	// AgentMovePath: POST with ParamFrom and ParamTo renames or moves a
	// file, a symlink or a directory with everything in it (204). The
	// target must not exist, and its directory must.
	AgentMovePath = "/api/v1/workspace/move"
	// ParamFrom is the workspace-relative entry AgentMovePath moves.
	ParamFrom = "from"
	// ParamTo is the workspace-relative name it moves it to.
	ParamTo = "to"
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
