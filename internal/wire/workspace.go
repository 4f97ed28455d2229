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
