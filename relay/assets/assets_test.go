package assets_test

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/relay/assets"
)

// wasmDir writes a WebAssembly-looking file (a module header, then bytes
// that compress: text and a random tail) and its siblings.
func wasmDir(t *testing.T) (dir string, content []byte) {
	t.Helper()
	dir = t.TempDir()
	content = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("kandev lsp wasm "), 4096)...)
	tail := make([]byte, 512)
	_, _ = rand.Read(tail)
	content = append(content, tail...)
	p := filepath.Join(dir, "lsp.wasm")
	require.NoError(t, os.WriteFile(p, content, 0o644))
	require.NoError(t, assets.Compress(p))
	return dir, content
}

func get(t *testing.T, h http.Handler, path string, header map[string]string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func decode(t *testing.T, enc string, body io.Reader) []byte {
	t.Helper()
	var r io.Reader = body
	switch enc {
	case "br":
		r = brotli.NewReader(body)
	case "gzip":
		z, err := gzip.NewReader(body)
		require.NoError(t, err)
		r = z
	}
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return b
}

// Each encoding a browser may accept gets its own body and ETag, every
// body decompresses to the same bytes, and a revalidation with the ETag
// of that encoding gets 304 with no body.
func TestEncodingsETagsAndRevalidation(t *testing.T) {
	t.Parallel()
	dir, content := wasmDir(t)
	h := assets.New(os.DirFS(dir), assets.Options{})
	etags := map[string]bool{}
	for _, tc := range []struct{ accept, enc string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip", "gzip"},
		{"", ""},
		{"br;q=0.5, gzip;q=0.9", "gzip"},
		{"br;q=0, *", "gzip"},
		{"identity", ""},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			resp := get(t, h, "/lsp.wasm", map[string]string{"Accept-Encoding": tc.accept})
			require.Equal(t, http.StatusOK, resp.StatusCode)
			require.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
			require.Equal(t, tc.enc, resp.Header.Get("Content-Encoding"))
			require.Equal(t, "Accept-Encoding", resp.Header.Get("Vary"))
			require.Equal(t, assets.RevalidateCache, resp.Header.Get("Cache-Control"))
			etag := resp.Header.Get("ETag")
			require.Regexp(t, `^"[0-9a-f]{24}(-br|-gzip)?"$`, etag)
			raw, _ := io.ReadAll(resp.Body)
			if tc.enc != "" {
				require.Less(t, len(raw), len(content)/4, "the compressed sibling is what is sent")
			}
			require.Equal(t, content, decode(t, tc.enc, bytes.NewReader(raw)))
			etags[tc.enc+" "+etag] = true

			again := get(t, h, "/lsp.wasm", map[string]string{"Accept-Encoding": tc.accept, "If-None-Match": etag})
			require.Equal(t, http.StatusNotModified, again.StatusCode)
			require.Equal(t, etag, again.Header.Get("ETag"))
			b, _ := io.ReadAll(again.Body)
			require.Empty(t, b)
		})
	}
	require.Len(t, etags, 3, "one ETag per encoding: %v", etags)

	// Another encoding's ETag is no match: the body comes.
	br := get(t, h, "/lsp.wasm", map[string]string{"Accept-Encoding": "br"})
	resp := get(t, h, "/lsp.wasm", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": br.Header.Get("ETag")})
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// A hashed name is cached for good while it is the content's; after a
// rebuild it is gone (404) and the new name is served.
func TestHashedNames(t *testing.T) {
	t.Parallel()
	dir, content := wasmDir(t)
	h := assets.New(os.DirFS(dir), assets.Options{})
	name, err := h.HashName("lsp.wasm")
	require.NoError(t, err)
	require.Regexp(t, `^lsp\.[0-9a-f]{12}\.wasm$`, name)
	resp := get(t, h, "/"+name, map[string]string{"Accept-Encoding": "br"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, assets.ImmutableCache, resp.Header.Get("Cache-Control"))
	require.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	require.Equal(t, content, decode(t, "br", resp.Body))

	// A rebuild: new content, new siblings.
	p := filepath.Join(dir, "lsp.wasm")
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.WriteFile(p, append(content, 'x'), 0o644))
	require.NoError(t, os.Chtimes(p, future, future))
	require.Equal(t, http.StatusNotFound, get(t, h, "/"+name, nil).StatusCode)
	fresh, err := h.HashName("lsp.wasm")
	require.NoError(t, err)
	require.NotEqual(t, name, fresh)
	require.Equal(t, http.StatusOK, get(t, h, "/"+fresh, nil).StatusCode)
	require.Equal(t, http.StatusNotFound, get(t, h, "/lsp.000000000000.wasm", nil).StatusCode)
}

// Siblings older than the file are an earlier build's: the file itself is
// served until Compress runs again.
func TestStaleSiblingIgnored(t *testing.T) {
	t.Parallel()
	dir, content := wasmDir(t)
	h := assets.New(os.DirFS(dir), assets.Options{})
	p := filepath.Join(dir, "lsp.wasm")
	content = append(content, "rebuilt"...)
	require.NoError(t, os.WriteFile(p, content, 0o644))
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(p, future, future))

	resp := get(t, h, "/lsp.wasm", map[string]string{"Accept-Encoding": "br, gzip"})
	require.Empty(t, resp.Header.Get("Content-Encoding"))
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, content, b)

	require.NoError(t, assets.Compress(p))
	require.NoError(t, os.Chtimes(p+".br", future, future))
	require.NoError(t, os.Chtimes(p+".gz", future, future))
	resp = get(t, h, "/lsp.wasm", map[string]string{"Accept-Encoding": "br, gzip"})
	require.Equal(t, "br", resp.Header.Get("Content-Encoding"))
	require.Equal(t, content, decode(t, "br", resp.Body))
}

func TestImmutableOptionAndRefusals(t *testing.T) {
	t.Parallel()
	dir, _ := wasmDir(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "assets"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "assets", "main-3f2a1b9c.js"), []byte("export {}\n"), 0o644))
	h := assets.New(os.DirFS(dir), assets.Options{Immutable: func(name string) bool { return filepath.Dir(name) == "assets" }})

	resp := get(t, h, "/assets/main-3f2a1b9c.js", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, assets.ImmutableCache, resp.Header.Get("Cache-Control"))
	require.Equal(t, "text/javascript; charset=utf-8", resp.Header.Get("Content-Type"))

	for _, p := range []string{"/", "/assets", "/assets/", "/missing.wasm", "/../lsp.wasm", "/lsp.wasm/x"} {
		require.Equal(t, http.StatusNotFound, get(t, h, p, nil).StatusCode, p)
	}
	r := httptest.NewRequest(http.MethodPost, "/lsp.wasm", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	require.Equal(t, http.StatusMethodNotAllowed, w.Code)

	// HEAD: the headers of GET, no body.
	r = httptest.NewRequest(http.MethodHead, "/lsp.wasm", nil)
	r.Header.Set("Accept-Encoding", "br")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	require.Equal(t, http.StatusOK, w.Code)
	require.Equal(t, "br", w.Header().Get("Content-Encoding"))
	require.Empty(t, w.Body.Bytes())
}
