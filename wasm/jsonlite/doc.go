// Package jsonlite reads and writes JSON without reflection.
//
// lsp.wasm has a size budget (4 MB raw, 1.1 MB gzip). encoding/json, with
// the reflect and fmt it drags in, costs about a quarter of that, so the
// wasm packages read server messages through a lazy Value over the raw bytes
// and write their messages by appending to a byte slice.
//
// Reading: Parse validates a document once (the grammar of RFC 8259, as
// encoding/json.Valid checks it) and returns a Value. A Value is a view of
// the raw bytes: Get, Index and the iterators walk them on demand, and only
// String unescapes. Unlike encoding/json, object keys match exactly (no
// case-insensitive fallback); when a key repeats, the last one wins, as it
// does for encoding/json. A Reader walks a Value once, front to back,
// decoding each member where it stands: for a big answer, where finding
// each member with Get would walk the same bytes again. Checked makes a
// Value of bytes a Parse has already accepted (a message's params).
//
// Writing: the Append functions produce what encoding/json would, except that
// <, > and & are not HTML-escaped (JSON does not need it, and nothing here is
// embedded in HTML).
package jsonlite
