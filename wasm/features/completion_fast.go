package features

import "bytes"

// CompletionResult turns a textDocument/completion result (CompletionItem[],
// CompletionList or null) into the JSON of Monaco's CompletionList:
//
//	{"suggestions":[CompletionItem...],"incomplete":bool}
//
// isIncomplete is preserved, so Monaco asks again (trigger kind 3) as the
// user types. Ranges: an item's TextEdit range or InsertReplaceEdit
// {insert, replace}, else the list's itemDefaults.editRange, else the word
// at the request position. Commit characters are the item's, else the
// list's defaults — both together when the list's applyKind (LSP 3.18)
// says Merge. After JSON.parse the object is ready for Monaco
// as is.
func CompletionResult(raw []byte, req CompletionRequest) (string, error) {
	b, err := AppendCompletionResult(nil, raw, req)
	return string(b), err
}

// AppendCompletionResult is CompletionResult appending to b. It scans the
// server's JSON once and copies string tokens through as they are, so it
// allocates nothing per item beyond the growth of b.
func AppendCompletionResult(b []byte, raw []byte, req CompletionRequest) ([]byte, error) {
	return appendCompletion(b, raw, req, -1)
}

// appendCompletion is AppendCompletionResult; with key >= 0 every item
// also carries "lsp":[key,index], naming the LSP item for the
// "completionResolve" step.
func appendCompletion(b []byte, raw []byte, req CompletionRequest, key int) ([]byte, error) {
	s := scanner{b: raw}
	var (
		items      []byte
		incomplete bool
		defs       itemDefaultsRaw
	)
	switch s.peek() {
	case 0:
		// empty: no result
	case 'n':
		if !s.null() {
			s.fail()
		}
	case '[':
		items = s.value()
	case '{':
		for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
			switch string(k) {
			case `"isIncomplete"`:
				incomplete = s.boolean()
			case `"items"`:
				if !s.null() {
					items = s.value()
				}
			case `"itemDefaults"`:
				defs.parse(&s)
			case `"applyKind"`:
				defs.parseApplyKind(&s)
			default:
				s.skip(0)
			}
		}
	default:
		s.fail()
	}
	if s.err != nil {
		return b, s.err
	}
	word := wordRanges(req)
	start := len(b)
	b = append(b, `{"suggestions":[`...)
	if len(items) > 0 {
		is := scanner{b: items}
		var it rawItem
		n := 0
		for ok := is.arrayStart(); ok; ok = is.nextElem() {
			it.reset()
			it.parse(&is)
			if is.err != nil {
				return b[:start], is.err
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = it.append(b, &defs, &word)
			if key >= 0 {
				b = appendInt(append(b[:len(b)-1], `,"lsp":[`...), int64(key))
				b = append(appendInt(append(b, ','), int64(n-1)), ']', '}')
			}
		}
		if is.err != nil {
			return b[:start], is.err
		}
	}
	b = append(b, `],"incomplete":`...)
	b = appendBool(b, incomplete)
	return append(b, '}'), nil
}

// rawEdit is a TextEdit or InsertReplaceEdit, or an editRange default.
type rawEdit struct {
	present bool // the object was there
	set     bool // a range was given
	newText []byte
	rng     ranges
}

// parseEdit reads {range|insert+replace|start+end, newText?}.
func (e *rawEdit) parse(s *scanner) {
	if s.null() {
		return
	}
	e.present = true
	var r, ins, rep monacoRange
	var hasR, hasIns, hasRep, hasStart, hasEnd bool
	var st, en [2]uint32
	for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
		switch string(k) {
		case `"newText"`:
			e.newText = s.str()
		case `"range"`:
			r, hasR = s.lspRange(), true
		case `"insert"`:
			ins, hasIns = s.lspRange(), true
		case `"replace"`:
			rep, hasRep = s.lspRange(), true
		case `"start"`:
			st, hasStart = s.position(), true
		case `"end"`:
			en, hasEnd = s.position(), true
		default:
			s.skip(0)
		}
	}
	switch {
	case hasIns && hasRep:
		e.rng, e.set = ranges{insert: ins, replace: rep, dual: true}, true
	case hasR:
		e.rng, e.set = ranges{insert: r}, true
	case hasStart && hasEnd:
		e.rng, e.set = ranges{insert: monacoRange{st[0] + 1, st[1] + 1, en[0] + 1, en[1] + 1}}, true
	}
}

// emptyArray reports a raw JSON array with no element (or none at all).
func emptyArray(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) < 2 || len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// itemDefaultsRaw is CompletionList.itemDefaults (LSP 3.17), and whether
// the list's applyKind (3.18) merges an item's commit characters with
// them rather than replacing them.
type itemDefaultsRaw struct {
	commit      []byte // raw array, nil if absent
	editRange   rawEdit
	format      uint32
	mergeCommit bool
}

// applyKindMerge is ApplyKind.Merge (LSP 3.18); Replace (1) is the 3.17 rule.
const applyKindMerge = 2

func (d *itemDefaultsRaw) parseApplyKind(s *scanner) {
	if s.null() {
		return
	}
	for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
		if string(k) == `"commitCharacters"` {
			d.mergeCommit = s.uint() == applyKindMerge
			continue
		}
		s.skip(0)
	}
}

func (d *itemDefaultsRaw) parse(s *scanner) {
	if s.null() {
		return
	}
	for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
		switch string(k) {
		case `"commitCharacters"`:
			if !s.null() {
				d.commit = s.value()
			}
		case `"editRange"`:
			d.editRange.parse(s)
		case `"insertTextFormat"`:
			d.format = s.uint()
		default:
			s.skip(0)
		}
	}
}

type rawAdditional struct {
	rng  monacoRange
	text []byte
}

// rawItem is one CompletionItem as raw tokens. Strings are nil when absent.
type rawItem struct {
	label, lblDetail, lblDesc    []byte
	kind, format                 uint32
	deprecated, preselect        bool
	detail, sortText, filterText []byte
	doc                          []byte
	docMarkdown                  bool
	insertText, textEditText     []byte
	edit                         rawEdit
	commit                       []byte
	commitSet                    bool
	additional                   []rawAdditional
}

func (it *rawItem) reset() {
	add := it.additional[:0]
	*it = rawItem{additional: add}
}

func (it *rawItem) parse(s *scanner) {
	for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
		switch string(k) {
		case `"label"`:
			it.label = s.str()
		case `"labelDetails"`:
			if s.null() {
				continue
			}
			for k2, ok2 := s.objectStart(); ok2; k2, ok2 = s.nextKey() {
				switch string(k2) {
				case `"detail"`:
					it.lblDetail = s.strOrNull()
				case `"description"`:
					it.lblDesc = s.strOrNull()
				default:
					s.skip(0)
				}
			}
		case `"kind"`:
			it.kind = s.uint()
		case `"tags"`:
			if s.null() {
				continue
			}
			for ok2 := s.arrayStart(); ok2; ok2 = s.nextElem() {
				if s.uint() == tagDeprecated {
					it.deprecated = true
				}
			}
		case `"deprecated"`:
			if s.boolean() {
				it.deprecated = true
			}
		case `"preselect"`:
			it.preselect = s.boolean()
		case `"detail"`:
			it.detail = s.strOrNull()
		case `"sortText"`:
			it.sortText = s.strOrNull()
		case `"filterText"`:
			it.filterText = s.strOrNull()
		case `"insertText"`:
			it.insertText = s.strOrNull()
		case `"textEditText"`:
			it.textEditText = s.strOrNull()
		case `"insertTextFormat"`:
			it.format = s.uint()
		case `"documentation"`:
			it.parseDoc(s)
		case `"textEdit"`:
			it.edit.parse(s)
		case `"commitCharacters"`:
			if !s.null() {
				it.commit, it.commitSet = s.value(), true
			}
		case `"additionalTextEdits"`:
			if s.null() {
				continue
			}
			for ok2 := s.arrayStart(); ok2; ok2 = s.nextElem() {
				var a rawAdditional
				for k2, ok3 := s.objectStart(); ok3; k2, ok3 = s.nextKey() {
					switch string(k2) {
					case `"range"`:
						a.rng = s.lspRange()
					case `"newText"`:
						a.text = s.str()
					default:
						s.skip(0)
					}
				}
				if a.text != nil {
					it.additional = append(it.additional, a)
				}
			}
		default:
			s.skip(0)
		}
	}
	if it.label == nil {
		s.fail() // label is required
	}
}

// parseDoc reads documentation: string | MarkupContent.
func (it *rawItem) parseDoc(s *scanner) {
	switch s.peek() {
	case '"':
		it.doc = s.str()
	case '{':
		var kind []byte
		for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
			switch string(k) {
			case `"kind"`:
				kind = s.strOrNull()
			case `"value"`:
				it.doc = s.strOrNull()
			default:
				s.skip(0)
			}
		}
		it.docMarkdown = string(kind) == `"markdown"`
	default:
		s.skip(0)
	}
}

// nonEmpty reports whether a raw string token is present and not "".
func nonEmpty(raw []byte) bool { return len(raw) > 2 }

func (it *rawItem) append(b []byte, defs *itemDefaultsRaw, word *ranges) []byte {
	b = append(b, `{"label":`...)
	if nonEmpty(it.lblDetail) || nonEmpty(it.lblDesc) {
		b = append(b, `{"label":`...)
		b = append(b, it.label...)
		if nonEmpty(it.lblDetail) {
			b = append(b, `,"detail":`...)
			b = append(b, it.lblDetail...)
		}
		if nonEmpty(it.lblDesc) {
			b = append(b, `,"description":`...)
			b = append(b, it.lblDesc...)
		}
		b = append(b, '}')
	} else {
		b = append(b, it.label...)
	}
	b = append(b, `,"kind":`...)
	b = appendInt(b, int64(MonacoCompletionKind(int(it.kind))))
	if it.deprecated {
		b = append(b, `,"tags":[1]`...)
	}
	if nonEmpty(it.detail) {
		b = append(b, `,"detail":`...)
		b = append(b, it.detail...)
	}
	if nonEmpty(it.doc) {
		b = append(b, `,"documentation":`...)
		if it.docMarkdown {
			b = append(b, `{"value":`...)
			b = append(b, it.doc...)
			b = append(b, '}')
		} else {
			b = append(b, it.doc...)
		}
	}
	if nonEmpty(it.sortText) {
		b = append(b, `,"sortText":`...)
		b = append(b, it.sortText...)
	}
	if nonEmpty(it.filterText) {
		b = append(b, `,"filterText":`...)
		b = append(b, it.filterText...)
	}
	if it.preselect {
		b = append(b, `,"preselect":true`...)
	}

	// The edit: the item's own textEdit is authoritative; then the list's
	// default edit range (with textEditText, insertText or the label); then
	// the word at the cursor.
	text, rng := it.label, word
	if it.edit.newText != nil { // a textEdit (its range, when it has one)
		text = it.edit.newText
		if it.edit.set {
			rng = &it.edit.rng
		}
	} else {
		if it.insertText != nil {
			text = it.insertText
		}
		if defs.editRange.present {
			if defs.editRange.set {
				rng = &defs.editRange.rng
			}
			if it.textEditText != nil {
				text = it.textEditText
			}
		}
	}
	format := it.format
	if format == 0 {
		format = defs.format
	}
	b = append(b, `,"insertText":`...)
	b = append(b, text...)
	if format == insertTextFormatSnippet {
		b = append(b, `,"insertTextRules":4`...)
	}
	b = append(b, `,"range":`...)
	b = appendRanges(b, rng)

	commit := it.commit
	switch {
	case !it.commitSet:
		commit = defs.commit
	case defs.mergeCommit && !emptyArray(defs.commit) && !emptyArray(commit):
		// Merge (LSP 3.18): the defaults' characters, then the item's.
		b = append(b, `,"commitCharacters":`...)
		b = append(b, bytes.TrimRight(defs.commit, " \t\r\n]")...)
		b = append(append(b, ','), bytes.TrimLeft(commit, " \t\r\n[")...)
		commit = nil
	case defs.mergeCommit && emptyArray(commit):
		commit = defs.commit
	}
	if !emptyArray(commit) {
		b = append(b, `,"commitCharacters":`...)
		b = append(b, commit...)
	}
	if len(it.additional) > 0 {
		b = appendAdditional(append(b, `,"additionalTextEdits":`...), it.additional)
	}
	return append(b, '}')
}

// appendAdditional appends additionalTextEdits as Monaco edits.
func appendAdditional(b []byte, as []rawAdditional) []byte {
	b = append(b, '[')
	for i, a := range as {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"range":`...)
		b = appendRange(b, a.rng)
		b = append(b, `,"text":`...)
		b = append(b, a.text...)
		b = append(b, '}')
	}
	return append(b, ']')
}
