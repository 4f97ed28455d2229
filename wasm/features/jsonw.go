package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// The Monaco results are written by hand into one byte slice: encoding/json
// with reflection and omitempty costs several times as much per completion
// item, and the completion list is the hot path (hundreds of items per
// keystroke). The helpers are package jsonlite's, under short local names.

// appendString appends s as a JSON string (see jsonlite.AppendString).
func appendString(b []byte, s string) []byte { return j.AppendString(b, s) }

// appendStrings appends a JSON array of strings.
func appendStrings(b []byte, ss []string) []byte { return j.AppendStrings(b, ss) }

// appendKey appends ,"key": (or "key": right after an opening brace).
func appendKey(b []byte, key string) []byte { return j.AppendKey(b, key) }

func appendUint(b []byte, n uint64) []byte { return j.AppendUint(b, n) }

func appendInt(b []byte, n int64) []byte { return j.AppendInt(b, n) }

func appendBool(b []byte, v bool) []byte { return j.AppendBool(b, v) }
