package files

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"

	"github.com/kandev/lsp/agent/auth"
	"github.com/kandev/lsp/agent/library"
	"github.com/kandev/lsp/internal/wire"
)

// LibraryHandler serves wire.AgentLibraryRootsPath and
// wire.AgentLibraryFilePath: the library roots, and one regular file under
// one of them, read-only. There is no write: a PUT is 405.
type LibraryHandler struct {
	lib    *library.Library
	logger *slog.Logger
	authed http.Handler
}

// NewLibrary returns the handler for lib, accepting only requests that
// carry token as a bearer token.
func NewLibrary(lib *library.Library, token string, logger *slog.Logger) *LibraryHandler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &LibraryHandler{lib: lib, logger: logger}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+wire.AgentLibraryRootsPath, h.roots)
	mux.HandleFunc("GET "+wire.AgentLibraryFilePath, h.read)
	h.authed = auth.Require(token, mux)
	return h
}

// ServeHTTP checks the token, then routes.
func (h *LibraryHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.authed.ServeHTTP(w, r) }

func (h *LibraryHandler) roots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(h.lib.Sources(r.Context()))
}

func (h *LibraryHandler) read(w http.ResponseWriter, r *http.Request) {
	f, err := h.lib.Open(r.Context(), r.URL.Query().Get(wire.ParamPath))
	if err != nil {
		fail(h.logger, w, r, err)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = io.Copy(w, ctxReader{r.Context(), io.LimitReader(f, MaxFileSize)})
}
