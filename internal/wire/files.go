package wire

// Files frames: the task host tells the stream's peer which workspace paths
// were created, changed or deleted on disk. Unlike status frames they may
// come at any time after ready, between JSON-RPC messages; like them they
// never reach the language server, and the relay passes them unchanged.
//
//	{"files":[{"path":"greet/greet.go","type":2},{"path":"old.go","type":3}]}
//
// One frame is one batch, coalesced over a short window: a path appears at
// most once, with its net change (created then changed is created; created
// then deleted is left out; deleted then created is changed). Paths are
// workspace-relative and slash-separated, files and directories alike;
// Type is LSP's FileChangeType, so a client turns an entry into an LSP
// FileEvent by making the path a URI under the workspace.

// File change types, LSP's FileChangeType values.
const (
	FileCreated = 1
	FileChanged = 2
	FileDeleted = 3
)

// FileChange is one entry of a files frame.
type FileChange struct {
	// Path is workspace-relative and slash-separated; never empty, never
	// absolute, never with a ".." element.
	Path string `json:"path"`
	// Type is FileCreated, FileChanged or FileDeleted.
	Type int `json:"type"`
}

// Files is a files frame. Files is its first member, so IsFilesFrame can
// tell the frame by its first bytes.
type Files struct {
	Files []FileChange `json:"files"`
}

// MaxFilesPerFrame bounds one frame, so that a branch switch touching tens
// of thousands of files goes out as several frames of bounded size rather
// than one that nears MaxMessageSize.
const MaxFilesPerFrame = 2048

// IsFilesFrame reports whether a text frame is a files frame, without a
// full parse: it starts with {"files" after optional white space, which no
// JSON-RPC message does (JSON-RPC has no "files" member).
func IsFilesFrame(frame []byte) bool {
	return hasObjectPrefix(frame, `{"files"`)
}
