package docsync

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/kandev/lsp/wasm/lsptypes"
)

// ErrPosition reports an LSP position that does not name a place in the
// text: a line past the end, or a character inside a surrogate pair.
var ErrPosition = errors.New("docsync: position outside the document")

// ApplyChanges applies didChange content changes to text, in order, the way
// an LSP server does: a change without a range replaces everything;
// positions are zero-based lines (split at \n, \r\n or \r) and UTF-16
// code-unit characters, a character past the line's end meaning the end.
// It is the reference the tests check the produced changes against, and a
// Go-side mirror of a document for anyone who needs one (a fake server).
func ApplyChanges(text string, changes []lsptypes.TextDocumentContentChangeEvent) (string, error) {
	for _, c := range changes {
		if c.Range == nil {
			text = c.Text
			continue
		}
		start, err := Offset(text, c.Range.Start)
		if err != nil {
			return "", err
		}
		end, err := Offset(text, c.Range.End)
		if err != nil {
			return "", err
		}
		if end < start {
			return "", ErrPosition
		}
		text = text[:start] + c.Text + text[end:]
	}
	return text, nil
}

// Offset converts an LSP position to a byte offset in text.
func Offset(text string, p lsptypes.Position) (int, error) {
	// Find the start of line p.Line.
	i := 0
	for line := uint32(0); line < p.Line; line++ {
		j := strings.IndexAny(text[i:], "\r\n")
		if j < 0 {
			return 0, ErrPosition
		}
		i += j
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i += 2
		} else {
			i++
		}
	}
	// Walk p.Character UTF-16 units, stopping at the line's end.
	for units := uint32(0); units < p.Character; {
		if i >= len(text) || text[i] == '\n' || text[i] == '\r' {
			return i, nil // past the end of the line: the end
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		w := uint32(1)
		if r >= 0x10000 {
			w = 2
		}
		if units+w > p.Character {
			return 0, ErrPosition // inside a surrogate pair
		}
		units += w
		i += size
	}
	return i, nil
}
