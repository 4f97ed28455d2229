package lsptypes

import (
	"fmt"
	"reflect"
	"testing"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// The publishDiagnostics reader walks each diagnostic once (readDiagnostic);
// before it, members were found with Lookup and walked again. That reader
// is kept here as the reference: for any JSON both decode alike.

var lookupDiagnosticKeys = []string{"range", "severity", "code", "source", "message", "tags", "relatedInformation", "codeDescription"}

func lookupDiagnostic(v j.Value) (Diagnostic, bool) {
	if !v.DecodeObject() {
		return Diagnostic{}, false
	}
	var d Diagnostic
	var ok [5]bool
	var f [8]j.Value // diagnosticKeys, in one walk of the object
	v.Lookup(lookupDiagnosticKeys, f[:])
	d.Range, ok[0] = ParseRange(f[0])
	sev, ok1 := f[1].DecodeInt(64)
	d.Severity, ok[1] = DiagnosticSeverity(sev), ok1
	d.Code = f[2].Raw()
	d.Source, ok[2] = f[3].DecodeString()
	if m := f[4]; m.Kind() == j.Object {
		// MarkupContent (LSP 3.18): its value, as plain text.
		kind, _ := m.Get("kind").DecodeString()
		value, vok := m.Get("value").Str()
		d.Message, ok[3] = diagnosticMessage(value, kind, true), vok
	} else {
		d.Message, ok[3] = m.DecodeString()
	}
	ok[4] = true
	// The details below are optional: one of the wrong shape is left out
	// rather than losing the diagnostic.
	// Most diagnostics have neither tags nor related information: no
	// iterator is made for those.
	if f[5].Kind() == j.Array {
		for _, t := range f[5].Elems() {
			if n, ok := t.Int(); ok {
				d.Tags = append(d.Tags, int(n))
			}
		}
	}
	if f[6].Kind() == j.Array {
		for _, r := range f[6].Elems() {
			loc, lok := ParseLocation(r.Get("location"))
			msg, mok := r.Get("message").DecodeString()
			if lok && mok {
				d.Related = append(d.Related, Related{Location: loc, Message: msg})
			}
		}
	}
	d.Href, _ = f[7].Get("href").DecodeString()
	d.Raw = append(j.Raw(nil), v.Raw()...) // a copy: the message buffer is not ours
	return d, ok == [5]bool{true, true, true, true, true}
}

var lookupPublishKeys = []string{"uri", "version", "diagnostics"}

func lookupPublishDiagnosticsParams(raw []byte) (PublishDiagnosticsParams, error) {
	v, err := parse(raw)
	if err != nil {
		return PublishDiagnosticsParams{}, err
	}
	var p PublishDiagnosticsParams
	// One walk over the members: the diagnostics array may be most of
	// a megabyte, and each Get would walk past it.
	var f [3]j.Value
	v.Lookup(lookupPublishKeys, f[:])
	uri, ok := f[0].DecodeString()
	if !ok {
		return PublishDiagnosticsParams{}, ErrMalformed
	}
	p.URI = uri
	if ver := f[1]; ver.Exists() && !ver.IsNull() {
		n, ok := ver.DecodeInt(32)
		if !ok {
			return PublishDiagnosticsParams{}, ErrMalformed
		}
		n32 := int32(n)
		p.Version = &n32
	}
	ds := f[2]
	if !ds.DecodeArray() {
		return PublishDiagnosticsParams{}, ErrMalformed
	}
	if ds.Kind() == j.Array {
		p.Diagnostics = make([]Diagnostic, 0, ds.Len())
		for _, e := range ds.Elems() {
			d, ok := lookupDiagnostic(e)
			if !ok {
				return PublishDiagnosticsParams{}, ErrMalformed
			}
			p.Diagnostics = append(p.Diagnostics, d)
		}
	}
	return p, nil
}

func FuzzPublishDiagnosticsMatchesLookup(f *testing.F) {
	for _, s := range []string{
		`{"uri":"file:///a","version":3,"diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},"severity":2,"code":"E1","source":"vet","message":"m"},{"message":"x","code":12},null]}`,
		`{"uri":"u","diagnostics":null}`, `{"uri":"u"}`, `null`, `{"uri":5}`, `{"version":"1"}`, `{"version":3000000000}`,
		`{"diagnostics":{}}`, `{"diagnostics":[{"severity":"high"}]}`, `{"diagnostics":[5]}`, `[]`,
		`{"diagnostics":[{"range":{"start":{"line":1},"end":null},"range":{"start":{"line":4,"character":1},"end":{"line":"x"}}}]}`,
		`{"diagnostics":[{"message":{"kind":"markdown","value":"**b** \\u00e9"},"tags":[1,"x",2],"tags":[2],"relatedInformation":[{"location":{"uri":"file:///b","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},"message":"here"},{"location":5}],"codeDescription":{"href":"https://x"},"data":{"a":[1,{"b":"}"}]}}]}`,
		`{"diagnostics":[{"ra\u006ege":{"start":{"line":2,"character":3},"end":{"line":2,"character":4}},"message":"esc\"aped","source":null,"severity":null}]}`,
		` { "uri" : "u" , "diagnostics" : [ { "message" : "m" , "range" : { "end" : { "character" : 1 , "line" : 0 } , "start" : { "line" : 0 , "character" : 0 } } } ] } `,
		`{"uri":5,"uri":"a","version":"x","version":2}`, `{"diagnostics":[5],"diagnostics":[{"message":"m"}]}`, `{"diagnostics":[{"message":"m"}],"diagnostics":[5,{}]}`,
		`{"diagnostics":[{"message":"m","range":[]}]}`, `{"diagnostics":[{"message":"m","range":{"start":[]}}]}`, `{"diagnostics":[{"message":1}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := j.Parse([]byte(s)); err != nil {
			return // both check the whole first
		}
		got, err := ParsePublishDiagnosticsParams([]byte(s))
		want, werr := lookupPublishDiagnosticsParams([]byte(s))
		if (err == nil) != (werr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nreader %+v, %v\nlookup %+v, %v", s, got, err, want, werr)
		}
	})
}

// gopls's publishDiagnostics of n undefined names, as a big edit makes it.
func goplsDiagnostics(n int) []byte {
	b := []byte(`{"uri":"file:///w/main.go","version":3,"diagnostics":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"range":{"start":{"line":%d,"character":5},"end":{"line":%d,"character":22}},"severity":1,"code":"UndeclaredName","codeDescription":{"href":"https://pkg.go.dev/golang.org/x/tools/internal/typesinternal#UndeclaredName"},"source":"compiler","message":"undefined: benchMissing%d"}`, i+14, i+14, i)
	}
	return append(b, `]}`...)
}

// BenchmarkReadPublishDiagnostics2000 is what lsp.wasm does with such a
// frame's params, already checked with the message: one walk (and the
// Lookup reader before it, for comparison).
func BenchmarkReadPublishDiagnostics2000(b *testing.B) {
	raw := goplsDiagnostics(2000)
	v, _ := j.Parse(raw)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadPublishDiagnosticsParams(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookupPublishDiagnostics2000(b *testing.B) {
	raw := goplsDiagnostics(2000)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lookupPublishDiagnosticsParams(raw); err != nil {
			b.Fatal(err)
		}
	}
}
