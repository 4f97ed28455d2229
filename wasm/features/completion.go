package features

import (
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
)

// Monaco's monaco.languages.CompletionTriggerKind (0-based).
const (
	MonacoInvoke                          = 0
	MonacoTriggerCharacter                = 1
	MonacoTriggerForIncompleteCompletions = 2
)

// LSP's CompletionTriggerKind (1-based).
const (
	LSPInvoked                         = 1
	LSPTriggerCharacter                = 2
	LSPTriggerForIncompleteCompletions = 3
)

// Monaco CompletionItemInsertTextRule.InsertAsSnippet and
// CompletionItemTag.Deprecated.
const (
	insertAsSnippet = 4
	tagDeprecated   = 1
)

// insertTextFormatSnippet is LSP InsertTextFormat.Snippet.
const insertTextFormatSnippet = 2

// monacoKinds maps LSP CompletionItemKind 1..25 (the index) to the numeric
// monaco.languages.CompletionItemKind of monaco-editor 0.57.0 (checked
// against its monaco.d.ts). Index 0 is the fallback for an absent or
// unknown kind: Text, as vscode-languageclient does.
var monacoKinds = [26]uint8{
	0:  18, // (absent/unknown) → Text
	1:  18, // Text
	2:  0,  // Method
	3:  1,  // Function
	4:  2,  // Constructor
	5:  3,  // Field
	6:  4,  // Variable
	7:  5,  // Class
	8:  7,  // Interface
	9:  8,  // Module
	10: 9,  // Property
	11: 12, // Unit
	12: 13, // Value
	13: 15, // Enum
	14: 17, // Keyword
	15: 28, // Snippet
	16: 19, // Color
	17: 20, // File
	18: 21, // Reference
	19: 23, // Folder
	20: 16, // EnumMember
	21: 14, // Constant
	22: 6,  // Struct
	23: 10, // Event
	24: 11, // Operator
	25: 24, // TypeParameter
}

// MonacoCompletionKind maps an LSP CompletionItemKind to Monaco's.
func MonacoCompletionKind(lspKind int) int {
	if lspKind < 1 || lspKind >= len(monacoKinds) {
		return int(monacoKinds[0])
	}
	return int(monacoKinds[lspKind])
}

// LSPTriggerKind maps Monaco's CompletionContext to LSP's
// CompletionContext: Invoke→1, TriggerCharacter→2 with the character,
// TriggerForIncompleteCompletions→3. The character is sent only with 2.
func LSPTriggerKind(monacoKind int, triggerCharacter string) (kind int, char string) {
	switch monacoKind {
	case MonacoTriggerCharacter:
		return LSPTriggerCharacter, triggerCharacter
	case MonacoTriggerForIncompleteCompletions:
		return LSPTriggerForIncompleteCompletions, ""
	}
	return LSPInvoked, ""
}

// PositionRequest is the JSON the binding builds for hover, definition,
// references and semantic tokens (which ignores the position):
//
//	{"uri": model.uri.toString(), "lineNumber": p.lineNumber, "column": p.column}
type PositionRequest struct {
	URI        string `json:"uri"`
	LineNumber uint32 `json:"lineNumber"`
	Column     uint32 `json:"column"`
}

// LSPPosition converts Monaco's 1-based position to LSP's 0-based one.
// Both count UTF-16 code units, so it is a shift by one.
func (r PositionRequest) LSPPosition() lsptypes.Position {
	return lsptypes.Position{Line: dec(r.LineNumber), Character: dec(r.Column)}
}

func dec(n uint32) uint32 {
	if n == 0 {
		return 0
	}
	return n - 1
}

// CompletionRequest is the JSON the binding builds in
// provideCompletionItems(model, position, context):
//
//	const w = model.getWordUntilPosition(position);
//	const a = model.getWordAtPosition(position);
//	JSON.stringify({uri: model.uri.toString(), lineNumber: position.lineNumber,
//	  column: position.column, wordStart: w.startColumn,
//	  wordEnd: a ? a.endColumn : position.column,
//	  triggerKind: context.triggerKind, triggerCharacter: context.triggerCharacter})
type CompletionRequest struct {
	PositionRequest
	// WordStart is the start column of the word before the cursor.
	WordStart uint32 `json:"wordStart"`
	// WordEnd is the end column of the word around the cursor (the cursor
	// column when the cursor is not inside a word).
	WordEnd          uint32 `json:"wordEnd"`
	TriggerKind      int    `json:"triggerKind"`
	TriggerCharacter string `json:"triggerCharacter"`
}

// completionContext is LSP CompletionContext.
type completionContext struct {
	_                [0]func() // incomparable: spares lsp.wasm an equality function
	TriggerKind      int       `json:"triggerKind"`
	TriggerCharacter string    `json:"triggerCharacter,omitempty"`
}

// CompletionParams is LSP CompletionParams.
type CompletionParams struct {
	_ [0]func() // incomparable: spares lsp.wasm an equality function
	lsptypes.TextDocumentPositionParams
	Context completionContext `json:"context"`
}

// AppendJSON appends p as JSON.
func (p CompletionParams) AppendJSON(b []byte) []byte {
	b = append(b, `{"textDocument":`...)
	b = p.TextDocument.AppendJSON(b)
	b = append(b, `,"position":`...)
	b = p.Position.AppendJSON(b)
	b = append(b, `,"context":{"triggerKind":`...)
	b = appendInt(b, int64(p.Context.TriggerKind))
	if p.Context.TriggerCharacter != "" {
		b = append(b, `,"triggerCharacter":`...)
		b = appendString(b, p.Context.TriggerCharacter)
	}
	return append(b, '}', '}')
}

// Params builds textDocument/completion params for the server's document
// URI (the clean task-host file:// URI, not the Monaco model URI).
func (r CompletionRequest) Params(docURI string) CompletionParams {
	kind, char := LSPTriggerKind(r.TriggerKind, r.TriggerCharacter)
	return CompletionParams{
		TextDocumentPositionParams: lsptypes.TextDocumentPositionParams{
			TextDocument: lsptypes.TextDocumentIdentifier{URI: docURI},
			Position:     r.LSPPosition(),
		},
		Context: completionContext{TriggerKind: kind, TriggerCharacter: char},
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// monacoRange is a Monaco IRange (1-based lines and UTF-16 columns).
type monacoRange struct{ sl, sc, el, ec uint32 }

func fromLSP(r lsptypes.Range) monacoRange {
	return monacoRange{r.Start.Line + 1, r.Start.Character + 1, r.End.Line + 1, r.End.Character + 1}
}

func appendRange(b []byte, r monacoRange) []byte {
	return append(monaco.AppendIRange(append(b, '{'), r.sl, r.sc, r.el, r.ec), '}')
}

func appendLSPRange(b []byte, r lsptypes.Range) []byte { return appendRange(b, fromLSP(r)) }

// ranges is a Monaco completion range: single, or dual when replace is set.
type ranges struct {
	insert  monacoRange
	replace monacoRange
	dual    bool
}

func appendRanges(b []byte, r *ranges) []byte {
	if !r.dual {
		return appendRange(b, r.insert)
	}
	b = append(b, `{"insert":`...)
	b = appendRange(b, r.insert)
	b = append(b, `,"replace":`...)
	b = appendRange(b, r.replace)
	return append(b, '}')
}

// wordRanges is the fallback for items without an edit: the word before
// the cursor is replaced; when the cursor sits inside a word, Monaco's
// insert/replace pair covers the rest of it for "replace" mode.
func wordRanges(req CompletionRequest) ranges {
	line, col := req.LineNumber, req.Column
	start := req.WordStart
	if start == 0 || start > col {
		start = col
	}
	r := ranges{insert: monacoRange{line, start, line, col}}
	if req.WordEnd > col {
		r.dual = true
		r.replace = monacoRange{line, start, line, req.WordEnd}
	}
	return r
}
