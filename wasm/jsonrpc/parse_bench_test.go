package jsonrpc

import (
	"strconv"
	"testing"
)

// bigResponse is a completion answer of about 37 KB, its result ahead of its
// id as gopls writes it.
func bigResponse() []byte {
	b := []byte(`{"jsonrpc":"2.0","result":{"isIncomplete":true,"items":[`)
	for i := 0; i < 80; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"label":"Println`+strconv.Itoa(i)+`","kind":3,"detail":"func(a ...any) (n int, err error)","documentation":{"kind":"markdown","value":"Println formats using the default formats for its operands and writes to standard output."},"sortText":"00000","filterText":"Println","insertTextFormat":2,"textEdit":{"newText":"Println(${1:})","insert":{"start":{"line":14,"character":5},"end":{"line":14,"character":5}},"replace":{"start":{"line":14,"character":5},"end":{"line":14,"character":5}}}}`...)
	}
	return append(b, `]},"id":57}`...)
}

// BenchmarkParseBigResponse is the envelope's cost for a large answer: one
// pass over it, whatever the order of its members.
func BenchmarkParseBigResponse(b *testing.B) {
	data := bigResponse()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, ok := parseMessage(data); !ok {
			b.Fatal("not parsed")
		}
	}
}
