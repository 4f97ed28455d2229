package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// Linked editing ranges: textDocument/linkedEditingRange, the ranges that
// change together as one is typed in (an HTML tag's open and close names).
// Monaco asks only with its linkedEditing option on.
//
// Request: a position. Answer: Monaco LinkedEditingRanges
// {"ranges":[IRange],"wordPattern"?:string}, or null when there are none.
// The shim makes the pattern a RegExp (dropped if it does not compile).

func linkedResult(raw []byte, _ *Request, _ *Env) (string, error) {
	if nullish(raw) {
		return "null", nil
	}
	v, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	if v.Kind() != j.Object {
		return "", errSyntax
	}
	b, err := mapArray(append(make([]byte, 0, len(raw)), `{"ranges":`...), []byte(v.Get("ranges").Raw()), appendRangeItem)
	if err != nil {
		return "", err
	}
	b = appendMember(b, v, "wordPattern", "wordPattern")
	return string(append(b, '}')), nil
}

// appendRangeItem appends the LSP range v as a Monaco IRange, or nothing.
func appendRangeItem(b []byte, v j.Value) []byte {
	b, _ = appendRangeOf(b, v)
	return b
}
