package workspace

import (
	"bufio"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Bounds of one content search, so a query can neither walk for minutes nor
// answer with megabytes: at most MaxSearchMatches matches, files up to
// MaxSearchFileSize bytes, lines shown up to MaxSearchLineLength bytes.
const (
	MaxSearchMatches    = 200
	MaxSearchFileSize   = 1 << 20
	MaxSearchLineLength = 400
	// MaxSearchQuery bounds the query itself, in bytes.
	MaxSearchQuery = 200
)

// ErrInvalidQuery: empty, too long, or holding a line break (matches are
// found within one line).
var ErrInvalidQuery = errors.New("workspace: invalid search query")

// Match is one line holding the query.
type Match struct {
	// Path is workspace-relative and slash-separated, as Files lists it.
	Path string `json:"path"`
	// Line is one-based; Column and EndColumn are one-based UTF-16 columns
	// (as Monaco counts) of the first occurrence on the line.
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndColumn int `json:"endColumn"`
	// Text is the line, cut at MaxSearchLineLength bytes.
	Text string `json:"text"`
}

// Defaults of SearchLimits: the work one search may do besides what its
// answer may hold. A query that matches little in a large workspace would
// otherwise read every file up to MaxFiles of MaxSearchFileSize, gigabytes,
// long after its client gave up.
const (
	DefaultSearchTimeout = 5 * time.Second
	DefaultSearchBytes   = 64 << 20
	DefaultSearchFiles   = 20000
)

// SearchLimits bounds one search's work; zero fields take the defaults.
// A search that reaches one answers what it found, Truncated.
type SearchLimits struct {
	// Timeout bounds the walk and the reads (DefaultSearchTimeout).
	Timeout time.Duration
	// MaxBytes bounds the file content read (DefaultSearchBytes); the
	// file that crosses it is the last one read.
	MaxBytes int64
	// MaxFilesRead bounds the files opened (DefaultSearchFiles).
	MaxFilesRead int

	// onFile, when set, is called before each file is opened: tests
	// observe the work a search does through it.
	onFile func(path string)
}

func (l SearchLimits) withDefaults() SearchLimits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultSearchTimeout
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultSearchBytes
	}
	if l.MaxFilesRead <= 0 {
		l.MaxFilesRead = DefaultSearchFiles
	}
	return l
}

// SearchResult is a search's answer. Truncated says the search stopped
// before it had looked at everything — at MaxSearchMatches, at Files'
// MaxFiles, or at a SearchLimits bound: there may be more.
type SearchResult struct {
	Matches   []Match `json:"matches"`
	Truncated bool    `json:"truncated"`
}

// Search finds the lines of the workspace's text files that contain query,
// case-insensitively. It walks what Files lists — regular files only, no
// symlinks, .git and node_modules skipped — through the os.Root, so it never
// reads outside the workspace, and opens only regular files (openRegular).
// Binary files (a NUL byte or invalid UTF-8) and files over
// MaxSearchFileSize are skipped.
//
// When ctx ends (the client gave up) the search stops before the next
// file and returns ctx's error; when lim's time, bytes or files run out it
// answers what it found, Truncated.
func (r *Root) Search(ctx context.Context, query string, lim SearchLimits) (SearchResult, error) {
	if query == "" || len(query) > MaxSearchQuery || strings.ContainsAny(query, "\r\n") || !utf8.ValidString(query) {
		return SearchResult{}, ErrInvalidQuery
	}
	lim = lim.withDefaults()
	deadline := time.Now().Add(lim.Timeout)
	files, cut, err := r.list(ctx, deadline)
	if err != nil {
		return SearchResult{}, err
	}
	res := SearchResult{Matches: []Match{}, Truncated: cut}
	needle := strings.ToLower(query)
	var read int64
	for i, p := range files {
		if err := ctx.Err(); err != nil {
			return SearchResult{}, err
		}
		if len(res.Matches) >= MaxSearchMatches || i >= lim.MaxFilesRead || read >= lim.MaxBytes || time.Now().After(deadline) {
			res.Truncated = true
			break
		}
		if lim.onFile != nil {
			lim.onFile(p)
		}
		var n int64
		var more bool
		res.Matches, n, more = r.searchFile(p, needle, res.Matches)
		read += n
		if more {
			res.Truncated = true
			break
		}
	}
	return res, nil
}

// searchFile appends path's matching lines to out; n is the bytes it
// read, more reports that it stopped at MaxSearchMatches with lines left
// to read.
func (r *Root) searchFile(p, needle string, out []Match) (_ []Match, n int64, more bool) {
	f, err := r.openRegular(filepath.FromSlash(p))
	if err != nil {
		return out, 0, false // gone, unreadable or no longer regular: not a match
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() > MaxSearchFileSize {
		return out, 0, false
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSearchFileSize+1))
	n = int64(len(data))
	if err != nil || len(data) > MaxSearchFileSize || !utf8.Valid(data) || strings.ContainsRune(string(data), 0) {
		return out, n, false
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 64*1024), MaxSearchFileSize+1)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSuffix(sc.Text(), "\r")
		i := indexFold(text, needle)
		if i < 0 {
			continue
		}
		if len(out) >= MaxSearchMatches {
			return out, n, true
		}
		col := utf16Len(text[:i]) + 1
		out = append(out, Match{
			Path: p, Line: line, Column: col, EndColumn: col + utf16Len(text[i:i+len(needle)]),
			Text: cut(text, MaxSearchLineLength),
		})
	}
	return out, n, false
}

// indexFold is the byte offset of needle (lower case) in s, ignoring case,
// or -1. It lowers s rune by rune, keeping the offsets of s itself: a
// rune whose lower case has another length is compared as is.
func indexFold(s, needle string) int {
	for i := range s {
		if len(s)-i < len(needle) {
			return -1
		}
		if strings.EqualFold(s[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// cut shortens s to at most n bytes without splitting a rune.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
