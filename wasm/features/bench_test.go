package features

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// gopls-like completion list: n items with a TextEdit, detail, markdown
// documentation, sortText and filterText.
func completionFixture(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"isIncomplete":true,"items":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		name := "Identifier" + strconv.Itoa(i)
		b.WriteString(`{"label":"` + name + `","kind":` + strconv.Itoa(1+i%25) + `,"detail":"func(ctx context.Context, s string) (int, error)",` +
			`"documentation":{"kind":"markdown","value":"` + name + ` does a thing with *emphasis* and ` + "`code`" + `.\n\nMore text on a second paragraph."},` +
			`"preselect":` + strconv.FormatBool(i == 0) + `,"sortText":"` + strconv.Itoa(10000+i) + `","filterText":"` + name + `",` +
			`"insertTextFormat":2,"textEdit":{"range":{"start":{"line":41,"character":8},"end":{"line":41,"character":11}},"newText":"` + name + `(${1:ctx}, ${2:s})"}}`)
	}
	b.WriteString(`]}`)
	return json.RawMessage(b.String())
}

func benchCompletion(b *testing.B, n int) {
	raw := completionFixture(n)
	req := CompletionRequest{PositionRequest: PositionRequest{URI: "kandev://s/a.go", LineNumber: 42, Column: 12}, WordStart: 9, WordEnd: 12, TriggerKind: 1, TriggerCharacter: "."}
	var out []byte
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		out, err = AppendCompletionResult(out[:0], raw, req)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(out)), "outB")
}

// BenchmarkCompletion500 is the whole Go side of one completion answer:
// decode the server's 500 items and write Monaco's list JSON.
func BenchmarkCompletion500(b *testing.B) { benchCompletion(b, 500) }

// BenchmarkCompletion50 is a typical small list.
func BenchmarkCompletion50(b *testing.B) { benchCompletion(b, 50) }

// BenchmarkCompletionReference500 is the encoding/json reference
// implementation on the same input, for comparison.
func BenchmarkCompletionReference500(b *testing.B) {
	raw := completionFixture(500)
	req := CompletionRequest{PositionRequest: PositionRequest{LineNumber: 42, Column: 12}, WordStart: 9, WordEnd: 12}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := refAppendCompletionResult(nil, raw, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSemanticTokens(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"resultId":"1","data":[`)
	for i := 0; i < 5*4000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(i % 17))
	}
	sb.WriteString(`]}`)
	raw := json.RawMessage(sb.String())
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SemanticTokensResult(raw); err != nil {
			b.Fatal(err)
		}
	}
}
