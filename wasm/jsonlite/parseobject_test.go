package jsonlite

import "testing"

// ParseObject accepts exactly the objects Parse accepts and yields what
// Members yields for them.
func TestParseObjectMatchesParseAndMembers(t *testing.T) {
	for _, s := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"a":1,"b":[true,false,null],"c":{"d":"e"}}`,
		`{"a\u0062":"x","a":2,"a":3}`, "{\n\"k\" :\t\"v\" }\n",
		`{"a":1,}`, `{"a" 1}`, `{"a":}`, `{a:1}`, `{"a":1}}`, `{"a":1} x`, `{"a":[1,]}`,
		`{"a":"\x"}`, `{"a":1`, `{`, ``, `[]`, `null`, `"s"`, `{"a":01}`,
	} {
		v, perr := Parse([]byte(s))
		wantOK := perr == nil && v.Kind() == Object
		var got []string
		err := ParseObject([]byte(s), func(k string, x Value) { got = append(got, k, string(x.Raw())) })
		if (err == nil) != wantOK {
			t.Errorf("ParseObject(%q) error %v; Parse: %v, kind %v", s, err, perr, v.Kind())
			continue
		}
		if !wantOK {
			continue
		}
		var want []string
		for k, x := range v.Members() {
			want = append(want, k, string(x.Raw()))
		}
		if len(got) != len(want) {
			t.Errorf("ParseObject(%q) yielded %q, Members %q", s, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("ParseObject(%q) yielded %q, Members %q", s, got, want)
				break
			}
		}
	}
}
