// Package assets serves lsp.wasm and the files beside it (wasm_exec.js, the
// ES module, a bundler's output) the way a browser should get them: the
// smallest encoding it accepts, revalidated cheaply, and cached for good
// when the name says the content can never change.
//
// lsp.wasm is about 3.8 MB; Brotli makes it about a fifth of that. The
// build writes the compressed siblings once (Compress), so serving costs no
// CPU: a request that accepts br gets NAME.br, one that accepts gzip
// NAME.gz, any other the file itself — each with its own strong ETag, so a
// revalidation answers 304 without a byte of body.
//
// Mount a Handler with http.StripPrefix in any backend:
//
//	files := assets.New(os.DirFS("bin"), assets.Options{})
//	mux.Handle("GET /kandev/", http.StripPrefix("/kandev/", files))
//	url, _ := files.HashName("lsp.wasm") // "lsp.3f2a1b9c0d4e.wasm": put it in the page
package assets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Encodings of the compressed siblings, in the order preferred when a
// browser accepts several equally: Brotli is a fifth smaller than gzip on
// lsp.wasm.
var encodings = []struct{ name, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// ImmutableCache is the Cache-Control of content-hashed names: a year, and
// no revalidation on reload.
const ImmutableCache = "public, max-age=31536000, immutable"

// RevalidateCache is the Cache-Control of every other name: the browser
// keeps the file but asks each time, and gets 304 while its ETag matches.
const RevalidateCache = "no-cache"

// hashLen is how many hex digits of the content's SHA-256 a hashed name
// carries (48 bits: no two builds of a file collide in practice).
const hashLen = 12

// Options configure a Handler.
type Options struct {
	// Immutable reports whether a name changes whenever its content does
	// — a bundler's content-hashed output such as assets/main-3f2a1b9c.js —
	// so the file may be cached for a year without revalidation. Names
	// from HashName are always treated so, as the Handler checks their
	// hash itself. Nil: only those.
	Immutable func(name string) bool
}

// Handler serves the files of an fs.FS. Create it with New.
type Handler struct {
	fsys fs.FS
	opts Options

	mu   sync.Mutex
	sums map[string]fileSum // by name
}

// fileSum is a file's SHA-256, valid while its size and time are these.
type fileSum struct {
	size    int64
	modTime time.Time
	hex     string
}

// entry is what the Handler knows of one file: its identity and which
// compressed siblings may stand in for it.
type entry struct {
	modTime  time.Time
	sum      string   // hex SHA-256 of the file
	siblings []string // Content-Encoding values with a usable sibling
}

// New returns a Handler serving fsys (os.DirFS(dir), an embed.FS...).
func New(fsys fs.FS, opts Options) *Handler {
	return &Handler{fsys: fsys, opts: opts, sums: map[string]fileSum{}}
}

// HashName returns name with the first hex digits of its content's
// SHA-256 before the extension ("lsp.wasm" → "lsp.3f2a1b9c0d4e.wasm").
// The Handler serves that name with ImmutableCache while the content
// matches, and 404 once it no longer does, so a page that refers to the
// hashed name (and is itself revalidated) never runs a stale lsp.wasm.
func (h *Handler) HashName(name string) (string, error) {
	e, err := h.lookup(name)
	if err != nil {
		return "", err
	}
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + e.sum[:hashLen] + ext, nil
}

// ServeHTTP serves GET and HEAD for the file the request path names
// (relative to the mount: strip the prefix first). Answers carry
// Content-Type (application/wasm for .wasm), Vary: Accept-Encoding, an
// ETag per encoding and Cache-Control; If-None-Match, If-Modified-Since
// and Range work as in http.ServeContent.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	e, name, immutable, err := h.resolve(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	enc := negotiate(r.Header.Get("Accept-Encoding"), e.siblings)
	file, tag := name, e.sum[:2*hashLen]
	if enc != "" {
		file, tag = name+suffix(enc), tag+"-"+enc
	}
	f, err := h.fsys.Open(file)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
		rs = bytes.NewReader(b)
	}
	hd := w.Header()
	hd.Set("Content-Type", contentType(name))
	hd.Add("Vary", "Accept-Encoding")
	hd.Set("ETag", `"`+tag+`"`)
	if enc != "" {
		hd.Set("Content-Encoding", enc)
	}
	if immutable || (h.opts.Immutable != nil && h.opts.Immutable(name)) {
		hd.Set("Cache-Control", ImmutableCache)
	} else {
		hd.Set("Cache-Control", RevalidateCache)
	}
	http.ServeContent(w, r, "", e.modTime, rs)
}

// resolve finds the file a request names: the file itself, or the file a
// hashed name (HashName) stands for when the hash is still its content's.
func (h *Handler) resolve(name string) (e *entry, file string, immutable bool, err error) {
	if e, err = h.lookup(name); err == nil {
		return e, name, false, nil
	}
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	i := strings.LastIndexByte(stem, '.')
	if i < 0 || len(stem)-i-1 != hashLen || !isHex(stem[i+1:]) {
		return nil, "", false, err
	}
	file = stem[:i] + ext
	if e, err = h.lookup(file); err != nil {
		return nil, "", false, err
	}
	if e.sum[:hashLen] != stem[i+1:] {
		return nil, "", false, fs.ErrNotExist // an earlier build's name
	}
	return e, file, true, nil
}

// lookup returns name's entry: its hash, computed again when its size or
// modification time changed (a rebuild), and the siblings usable now.
func (h *Handler) lookup(name string) (*entry, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, fs.ErrNotExist
	}
	fi, err := fs.Stat(h.fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fs.ErrNotExist
	}
	h.mu.Lock()
	sum := h.sums[name]
	h.mu.Unlock()
	if sum.size != fi.Size() || !sum.modTime.Equal(fi.ModTime()) || sum.hex == "" {
		sum = fileSum{size: fi.Size(), modTime: fi.ModTime()}
		if sum.hex, err = h.hash(name); err != nil {
			return nil, err
		}
		h.mu.Lock()
		h.sums[name] = sum
		h.mu.Unlock()
	}
	e := &entry{modTime: fi.ModTime(), sum: sum.hex}
	for _, enc := range encodings {
		// A sibling older than its file is left from an earlier build:
		// never serve it in the file's place.
		sfi, err := fs.Stat(h.fsys, name+enc.suffix)
		if err == nil && sfi.Mode().IsRegular() && !sfi.ModTime().Before(fi.ModTime()) {
			e.siblings = append(e.siblings, enc.name)
		}
	}
	return e, nil
}

func (h *Handler) hash(name string) (string, error) {
	f, err := h.fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	s := sha256.New()
	if _, err := io.Copy(s, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(s.Sum(nil)), nil
}

// negotiate picks the Content-Encoding for an Accept-Encoding header among
// the available siblings: the highest q wins, ties go to the order of
// encodings, and "" (the file itself) when nothing acceptable is there.
// Identity is always acceptable here: a browser that refuses it still
// gets the file rather than a 406.
func negotiate(accept string, available []string) string {
	best, bestQ := "", 0.0
	for _, enc := range encodings {
		if !slices.Contains(available, enc.name) {
			continue
		}
		if q := quality(accept, enc.name); q > bestQ {
			best, bestQ = enc.name, q
		}
	}
	return best
}

// quality returns the q-value accept gives coding (0 when not accepted);
// "*" stands for any coding not named. x-gzip counts as gzip.
func quality(accept, coding string) float64 {
	star := 0.0
	for _, part := range strings.Split(accept, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch {
		case name == coding || (coding == "gzip" && name == "x-gzip"):
			return q
		case name == "*":
			star = q
		}
	}
	return star
}

func suffix(enc string) string {
	for _, e := range encodings {
		if e.name == enc {
			return e.suffix
		}
	}
	return ""
}

// contentType is the file's media type by extension; WebAssembly's must
// be application/wasm for WebAssembly.instantiateStreaming.
func contentType(name string) string {
	switch ext := path.Ext(name); ext {
	case ".wasm":
		return "application/wasm"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
		return "application/octet-stream"
	}
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
