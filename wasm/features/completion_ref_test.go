package features

// The first implementation of the completion mapping, on encoding/json
// structs: kept as the reference the scanner-based one is checked against.

import (
	"encoding/json"

	"github.com/kandev/lsp/wasm/lsptypes"
)

// editRange is a TextEdit's or InsertReplaceEdit's range(s); also the
// itemDefaults.editRange union (Range | {insert, replace}).
type editRange struct {
	Range   *lsptypes.Range `json:"range"`
	Insert  *lsptypes.Range `json:"insert"`
	Replace *lsptypes.Range `json:"replace"`
	// Start and End are set when itemDefaults.editRange is a plain Range.
	Start *lsptypes.Position `json:"start"`
	End   *lsptypes.Position `json:"end"`
}

type textEdit struct {
	editRange
	NewText string `json:"newText"`
}

type completionItem struct {
	Label        string `json:"label"`
	LabelDetails *struct {
		Detail      string `json:"detail"`
		Description string `json:"description"`
	} `json:"labelDetails"`
	Kind                int                 `json:"kind"`
	Tags                []int               `json:"tags"`
	Detail              string              `json:"detail"`
	Documentation       json.RawMessage     `json:"documentation"`
	Deprecated          bool                `json:"deprecated"`
	Preselect           bool                `json:"preselect"`
	SortText            string              `json:"sortText"`
	FilterText          string              `json:"filterText"`
	InsertText          *string             `json:"insertText"`
	InsertTextFormat    int                 `json:"insertTextFormat"`
	TextEdit            *textEdit           `json:"textEdit"`
	TextEditText        *string             `json:"textEditText"`
	AdditionalTextEdits []lsptypes.TextEdit `json:"additionalTextEdits"`
	CommitCharacters    []string            `json:"commitCharacters"`
}

type itemDefaults struct {
	CommitCharacters []string   `json:"commitCharacters"`
	EditRange        *editRange `json:"editRange"`
	InsertTextFormat int        `json:"insertTextFormat"`
}

type completionList struct {
	IsIncomplete bool          `json:"isIncomplete"`
	ItemDefaults *itemDefaults `json:"itemDefaults"`
	ApplyKind    *struct {
		CommitCharacters int `json:"commitCharacters"`
	} `json:"applyKind"`
	Items []completionItem `json:"items"`
}

// CompletionResult turns a textDocument/completion result (CompletionItem[],
// CompletionList or null) into the JSON of Monaco's CompletionList:
//
//	{"suggestions":[CompletionItem...],"incomplete":bool}
//
// isIncomplete is preserved, so Monaco asks again (trigger kind 3) as the
// user types. Ranges: a TextEdit's range, an InsertReplaceEdit's
// {insert, replace}, itemDefaults.editRange, or else the word at the
// request position. After JSON.parse the object is ready for Monaco as is.
func refCompletionResult(raw json.RawMessage, req CompletionRequest) (string, error) {
	b, err := refAppendCompletionResult(nil, raw, req)
	return string(b), err
}

// AppendCompletionResult is CompletionResult appending to b.
func refAppendCompletionResult(b []byte, raw json.RawMessage, req CompletionRequest) ([]byte, error) {
	var list completionList
	if err := decodeCompletion(raw, &list); err != nil {
		return b, err
	}
	word := wordRanges(req)
	b = append(b, `{"suggestions":[`...)
	for i := range list.Items {
		if i > 0 {
			b = append(b, ',')
		}
		it := list.Items[i]
		// LSP 3.18's applyKind Merge: the defaults' commit characters and
		// the item's own together.
		if list.ApplyKind != nil && list.ApplyKind.CommitCharacters == 2 && it.CommitCharacters != nil && list.ItemDefaults != nil && len(list.ItemDefaults.CommitCharacters) > 0 {
			it.CommitCharacters = append(append([]string(nil), list.ItemDefaults.CommitCharacters...), it.CommitCharacters...)
		}
		b = refAppendItem(b, &it, list.ItemDefaults, &word)
	}
	b = append(b, `],"incomplete":`...)
	b = appendBool(b, list.IsIncomplete)
	return append(b, '}'), nil
}

func decodeCompletion(raw json.RawMessage, list *completionList) error {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '[' {
		return json.Unmarshal(raw, &list.Items)
	}
	return json.Unmarshal(raw, list)
}

// editRanges resolves an LSP edit range union.
func editRanges(e *editRange) (ranges, bool) {
	switch {
	case e.Insert != nil && e.Replace != nil:
		return ranges{insert: fromLSP(*e.Insert), replace: fromLSP(*e.Replace), dual: true}, true
	case e.Range != nil:
		return ranges{insert: fromLSP(*e.Range)}, true
	case e.Start != nil && e.End != nil:
		return ranges{insert: fromLSP(lsptypes.Range{Start: *e.Start, End: *e.End})}, true
	}
	return ranges{}, false
}

func refAppendItem(b []byte, it *completionItem, defs *itemDefaults, word *ranges) []byte {
	b = append(b, `{"label":`...)
	if it.LabelDetails != nil && (it.LabelDetails.Detail != "" || it.LabelDetails.Description != "") {
		b = append(b, `{"label":`...)
		b = appendString(b, it.Label)
		if it.LabelDetails.Detail != "" {
			b = append(b, `,"detail":`...)
			b = appendString(b, it.LabelDetails.Detail)
		}
		if it.LabelDetails.Description != "" {
			b = append(b, `,"description":`...)
			b = appendString(b, it.LabelDetails.Description)
		}
		b = append(b, '}')
	} else {
		b = appendString(b, it.Label)
	}
	b = append(b, `,"kind":`...)
	b = appendInt(b, int64(MonacoCompletionKind(it.Kind)))
	if it.Deprecated || hasTag(it.Tags, tagDeprecated) {
		b = append(b, `,"tags":[1]`...)
	}
	if it.Detail != "" {
		b = append(b, `,"detail":`...)
		b = appendString(b, it.Detail)
	}
	if doc, ok := documentation(it.Documentation); ok {
		b = append(b, `,"documentation":`...)
		b = doc.append(b)
	}
	if it.SortText != "" {
		b = append(b, `,"sortText":`...)
		b = appendString(b, it.SortText)
	}
	if it.FilterText != "" {
		b = append(b, `,"filterText":`...)
		b = appendString(b, it.FilterText)
	}
	if it.Preselect {
		b = append(b, `,"preselect":true`...)
	}

	// The edit: the item's own textEdit is authoritative; then the list's
	// default edit range (with textEditText or insertText or the label);
	// then the word at the cursor.
	text := it.Label
	rng := *word
	switch {
	case it.TextEdit != nil:
		text = it.TextEdit.NewText
		if r, ok := editRanges(&it.TextEdit.editRange); ok {
			rng = r
		}
	default:
		if it.InsertText != nil {
			text = *it.InsertText
		}
		if defs != nil && defs.EditRange != nil {
			if r, ok := editRanges(defs.EditRange); ok {
				rng = r
			}
			if it.TextEditText != nil {
				text = *it.TextEditText
			}
		}
	}
	format := it.InsertTextFormat
	if format == 0 && defs != nil {
		format = defs.InsertTextFormat
	}
	b = append(b, `,"insertText":`...)
	b = appendString(b, text)
	if format == insertTextFormatSnippet {
		b = append(b, `,"insertTextRules":4`...)
	}
	b = append(b, `,"range":`...)
	b = appendRanges(b, &rng)

	commit := it.CommitCharacters
	if commit == nil && defs != nil {
		commit = defs.CommitCharacters
	}
	if len(commit) > 0 {
		b = append(b, `,"commitCharacters":`...)
		b = appendStrings(b, commit)
	}
	if len(it.AdditionalTextEdits) > 0 {
		b = append(b, `,"additionalTextEdits":[`...)
		for i, e := range it.AdditionalTextEdits {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"range":`...)
			b = appendLSPRange(b, e.Range)
			b = append(b, `,"text":`...)
			b = appendString(b, e.NewText)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func hasTag(tags []int, t int) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}
