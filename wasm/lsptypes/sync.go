package lsptypes

import j "github.com/kandev/lsp/wasm/jsonlite"

// ParseSync resolves the textDocumentSync server capability, which is
// either a TextDocumentSyncKind number or a TextDocumentSyncOptions object
// whose save member is a boolean or {includeText}. Absent, null or
// malformed means no synchronization at all.
//
// The number form asks for open/close and changes of that kind but, read
// strictly, does not ask for didSave: only an explicit save member does.
func ParseSync(raw j.Raw) SyncOptions {
	v, err := raw.Value()
	if err != nil || !v.Exists() || v.IsNull() {
		return SyncOptions{}
	}
	if v.Kind() == j.Number {
		n, ok := v.DecodeInt(64)
		if !ok {
			return SyncOptions{}
		}
		kind := TextDocumentSyncKind(n)
		return SyncOptions{OpenClose: kind != SyncNone, Change: validKind(kind)}
	}
	if v.Kind() != j.Object {
		return SyncOptions{}
	}
	openClose, ok1 := v.Get("openClose").DecodeBool()
	change, ok2 := v.Get("change").DecodeInt(64)
	if !ok1 || !ok2 {
		return SyncOptions{}
	}
	save, include := ParseSave(v.Get("save").Raw())
	return SyncOptions{OpenClose: openClose, Change: validKind(TextDocumentSyncKind(change)), Save: save, IncludeText: include}
}

// ParseSave resolves a save option: true, or an object (SaveOptions, or
// the registration options of a dynamic didSave) with an optional
// includeText. false, null and absent ask for nothing.
func ParseSave(raw j.Raw) (save, includeText bool) {
	if len(raw) == 0 || string(raw) == "null" || string(raw) == "false" {
		return false, false
	}
	if string(raw) == "true" {
		return true, false
	}
	if raw[0] != '{' {
		return false, false
	}
	v, err := raw.Value()
	if err != nil {
		return false, false
	}
	include, ok := v.Get("includeText").DecodeBool()
	if !ok {
		return false, false
	}
	return true, include
}

func validKind(k TextDocumentSyncKind) TextDocumentSyncKind {
	if k == SyncFull || k == SyncIncremental {
		return k
	}
	return SyncNone
}
