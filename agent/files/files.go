// Package files serves a workspace's files over HTTP: the listing a Files
// tree needs, the read and save of one file, and the tree's create, move
// and delete of a file or directory; and, read-only, the library
// files outside it that definitions lead to (library.go). Every path is
// confined by package workspace (through package library for the latter);
// this package only maps their answers to HTTP statuses and carries no
// logic of its own about paths.
package files

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"syscall"

	"github.com/kandev/lsp/agent/auth"
	"github.com/kandev/lsp/agent/library"
	"github.com/kandev/lsp/agent/workspace"
	"github.com/kandev/lsp/internal/wire"
)

// MaxFileSize bounds a saved file. A file an editor can hand to its language
// server must fit in one LSP message, so the message limit serves here too.
const MaxFileSize = wire.MaxMessageSize

// Handler serves wire.AgentFilesPath, wire.AgentFilePath,
// wire.AgentEntryPath, wire.AgentMovePath, wire.AgentSearchPath and
// wire.AgentReposPath.
type Handler struct {
	root   *workspace.Root
	logger *slog.Logger
	mux    *http.ServeMux
	authed http.Handler // mux behind the token check
}

// New returns the handler for root, accepting only requests that carry
// token as a bearer token.
func New(root *workspace.Root, token string, logger *slog.Logger) *Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &Handler{root: root, logger: logger, mux: http.NewServeMux()}
	h.mux.HandleFunc("GET "+wire.AgentFilesPath, h.list)
	h.mux.HandleFunc("GET "+wire.AgentFilePath, h.read)
	h.mux.HandleFunc("PUT "+wire.AgentFilePath, h.write)
	h.mux.HandleFunc("POST "+wire.AgentEntryPath, h.create)
	h.mux.HandleFunc("DELETE "+wire.AgentEntryPath, h.delete)
	h.mux.HandleFunc("POST "+wire.AgentMovePath, h.move)
	h.mux.HandleFunc("GET "+wire.AgentSearchPath, h.search)
	h.mux.HandleFunc("GET "+wire.AgentReposPath, h.repos)
	h.authed = auth.Require(token, h.mux)
	return h
}

// ServeHTTP checks the token, then routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.authed.ServeHTTP(w, r)
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	files, err := h.root.Files(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if files == nil {
		files = []string{} // an empty workspace is [], not null
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(files)
}

func (h *Handler) read(w http.ResponseWriter, r *http.Request) {
	f, err := h.root.Open(r.URL.Query().Get(wire.ParamPath))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = io.Copy(w, ctxReader{r.Context(), f})
}

// ctxReader stops a read when ctx ends: a client that went away costs no
// further reads of the file.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	res, err := h.root.Search(r.Context(), r.URL.Query().Get(wire.ParamQuery), workspace.SearchLimits{})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(res)
}

func (h *Handler) repos(w http.ResponseWriter, r *http.Request) {
	repos := h.root.RepoSubpaths()
	if repos == nil {
		repos = []string{}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(repos)
}

func (h *Handler) write(w http.ResponseWriter, r *http.Request) {
	body := http.MaxBytesReader(w, r.Body, MaxFileSize)
	if err := h.root.WriteFile(r.URL.Query().Get(wire.ParamPath), body); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var dir bool
	switch q.Get(wire.ParamKind) {
	case wire.KindFile:
	case wire.KindDir:
		dir = true
	default:
		http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		return
	}
	if err := h.root.Create(q.Get(wire.ParamPath), dir); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
	if err := h.root.Delete(r.URL.Query().Get(wire.ParamPath)); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) move(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := h.root.Move(q.Get(wire.ParamFrom), q.Get(wire.ParamTo)); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// fail maps an error to a status. The body is the status text only: paths
// and system errors go to the log, not to the client.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) { fail(h.logger, w, r, err) }

func fail(logger *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	var tooBig *http.MaxBytesError
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// The client gave up; nobody reads this answer.
		code = http.StatusServiceUnavailable
	case errors.Is(err, workspace.ErrInvalidPath), errors.Is(err, workspace.ErrNotRegular), errors.Is(err, workspace.ErrInvalidQuery),
		errors.Is(err, workspace.ErrUnresolvable), errors.Is(err, syscall.ELOOP), errors.Is(err, syscall.ENOTDIR):
		code = http.StatusBadRequest
	case errors.Is(err, workspace.ErrEscapes), errors.Is(err, library.ErrNotInLibrary), errors.Is(err, fs.ErrPermission):
		code = http.StatusForbidden
	case errors.Is(err, workspace.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		code = http.StatusNotFound
	case errors.Is(err, workspace.ErrExists), errors.Is(err, fs.ErrExist):
		code = http.StatusConflict
	case errors.As(err, &tooBig):
		code = http.StatusRequestEntityTooLarge
	}
	if code == http.StatusForbidden {
		// Like a 401 (auth.Deny): a refused peer keeps no connection.
		w.Header().Set("Connection", "close")
	}
	if code == http.StatusInternalServerError {
		q := r.URL.Query()
		args := []any{"method", r.Method, "route", r.URL.Path, "path", q.Get(wire.ParamPath)}
		if q.Has(wire.ParamFrom) || q.Has(wire.ParamTo) {
			args = append(args, "from", q.Get(wire.ParamFrom), "to", q.Get(wire.ParamTo))
		}
		logger.Error("workspace file route", append(args, "err", err)...)
	}
	http.Error(w, http.StatusText(code), code)
}
