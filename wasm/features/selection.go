package features

import (
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Selection ranges: textDocument/selectionRange for Monaco's Expand and
// Shrink Selection (editor.action.smartSelect.*).
//
// Request: {"uri","params":{"positions":[LSP Position...]}} (lspParams).
// Answer:
// Monaco SelectionRange[][], one list per position, innermost first: LSP's
// parent chain of each SelectionRange flattened ([{"range":IRange}...]).
// A position the server answered with no usable range gets an empty list,
// so the lists stay aligned with the positions.

// maxSelectionDepth bounds a parent chain (a file's syntax tree is rarely
// a tenth as deep).
const maxSelectionDepth = 1000

func selectionResult(raw []byte, _ *Request, _ *Env) (string, error) {
	b, err := mapArray(nil, raw, func(b []byte, v j.Value) []byte {
		b = append(b, '[')
		for n := 0; v.Kind() == j.Object && n < maxSelectionDepth; n++ {
			r, ok := lsptypes.ParseRange(v.Get("range"))
			if !ok || !v.Get("range").Exists() {
				break
			}
			if n > 0 {
				b = append(b, ',')
			}
			b = append(appendLSPRange(append(b, `{"range":`...), r), '}')
			v = v.Get("parent")
		}
		return append(b, ']')
	})
	return string(b), err
}
