package monaco

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/lsptypes"
)

func benchPayload(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"uri":"file:///w/main.go","version":3,"diagnostics":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"range":{"start":{"line":%d,"character":5},"end":{"line":%d,"character":22}},"severity":1,"code":"UndeclaredName","codeDescription":{"href":"https://pkg.go.dev/golang.org/x/tools/internal/typesinternal#UndeclaredName"},"source":"compiler","message":"undefined: benchMissing%d"}`, i+14, i+14, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkDiagnostics2000Parse(b *testing.B) {
	raw := benchPayload(2000)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := lsptypes.ParsePublishDiagnosticsParams(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDiagnostics2000Markers(b *testing.B) {
	p, _ := lsptypes.ParsePublishDiagnosticsParams(benchPayload(2000))
	for b.Loop() {
		_ = MarkersJSON(FromDiagnostics(p.Diagnostics, func(s string) string { return s }))
	}
}
