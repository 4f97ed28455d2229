package workspace

import (
	"bufio"
	"errors"
	"io"
	"strings"
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

// SearchResult is a search's answer. Truncated says the walk stopped at
// MaxSearchMatches or at Files' MaxFiles: there may be more.
type SearchResult struct {
	Matches   []Match `json:"matches"`
	Truncated bool    `json:"truncated"`
}

// Search finds the lines of the workspace's text files that contain query,
// case-insensitively. It walks what Files lists — regular files only, no
// symlinks, .git and node_modules skipped — through the os.Root, so it never
// reads outside the workspace. Binary files (a NUL byte or invalid UTF-8)
// and files over MaxSearchFileSize are skipped.
func (r *Root) Search(query string) (SearchResult, error) {
	if query == "" || len(query) > MaxSearchQuery || strings.ContainsAny(query, "\r\n") || !utf8.ValidString(query) {
		return SearchResult{}, ErrInvalidQuery
	}
	files, err := r.Files()
	if err != nil {
		return SearchResult{}, err
	}
	res := SearchResult{Matches: []Match{}, Truncated: len(files) >= MaxFiles}
	needle := strings.ToLower(query)
	for _, p := range files {
		if len(res.Matches) >= MaxSearchMatches {
			res.Truncated = true
			break
		}
		var more bool
		res.Matches, more = r.searchFile(p, needle, res.Matches)
		if more {
			res.Truncated = true
			break
		}
	}
	return res, nil
}

// searchFile appends path's matching lines to out; more reports that it
// stopped at MaxSearchMatches with lines left to read.
func (r *Root) searchFile(p, needle string, out []Match) ([]Match, bool) {
	f, err := r.root.Open(p)
	if err != nil {
		return out, false // gone or unreadable since the listing: not a match
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxSearchFileSize {
		return out, false
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSearchFileSize+1))
	if err != nil || len(data) > MaxSearchFileSize || !utf8.Valid(data) || strings.ContainsRune(string(data), 0) {
		return out, false
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
			return out, true
		}
		col := utf16Len(text[:i]) + 1
		out = append(out, Match{
			Path: p, Line: line, Column: col, EndColumn: col + utf16Len(text[i:i+len(needle)]),
			Text: cut(text, MaxSearchLineLength),
		})
	}
	return out, false
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
