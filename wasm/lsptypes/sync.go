package lsptypes

import "encoding/json"

// ParseSync resolves the textDocumentSync server capability, which is
// either a TextDocumentSyncKind number or a TextDocumentSyncOptions object
// whose save member is a boolean or {includeText}. Absent, null or
// malformed means no synchronization at all.
//
// The number form asks for open/close and changes of that kind but, read
// strictly, does not ask for didSave: only an explicit save member does.
func ParseSync(raw json.RawMessage) SyncOptions {
	if len(raw) == 0 || string(raw) == "null" {
		return SyncOptions{}
	}
	var kind TextDocumentSyncKind
	if json.Unmarshal(raw, &kind) == nil {
		return SyncOptions{OpenClose: kind != SyncNone, Change: validKind(kind)}
	}
	var o struct {
		OpenClose bool                 `json:"openClose"`
		Change    TextDocumentSyncKind `json:"change"`
		Save      json.RawMessage      `json:"save"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return SyncOptions{}
	}
	save, include := ParseSave(o.Save)
	return SyncOptions{OpenClose: o.OpenClose, Change: validKind(o.Change), Save: save, IncludeText: include}
}

// ParseSave resolves a save option: true, or an object (SaveOptions, or
// the registration options of a dynamic didSave) with an optional
// includeText. false, null and absent ask for nothing.
func ParseSave(raw json.RawMessage) (save, includeText bool) {
	if len(raw) == 0 || string(raw) == "null" || string(raw) == "false" {
		return false, false
	}
	if string(raw) == "true" {
		return true, false
	}
	var o struct {
		IncludeText bool `json:"includeText"`
	}
	if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &o) == nil {
		return true, o.IncludeText
	}
	return false, false
}

func validKind(k TextDocumentSyncKind) TextDocumentSyncKind {
	if k == SyncFull || k == SyncIncremental {
		return k
	}
	return SyncNone
}
