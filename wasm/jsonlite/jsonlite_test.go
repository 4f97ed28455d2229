package jsonlite

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

var corpus = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-12`, `1.5`, `1e3`, `1E+3`, `-1.25e-7`,
	`9223372036854775807`, `9223372036854775808`, `1e400`,
	`""`, `"abc"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`,
	`"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`, `"\ud83dx"`, "\"\xff\xfe\"", "\"é中😀\"",
	`[]`, `[1,2,3]`, ` [ 1 , "x" , [ ] , { } ] `, `{}`, `{"a":1}`,
	`{"a":1,"a":2}`, `{"a\u0062":3,"ab":4}`, `{"x":{"y":[1,{"z":null}]}}`,
	// invalid
	``, ` `, `nul`, `tru`, `01`, `1.`, `.1`, `1e`, `-`, `+1`, `"abc`, `"\x"`, `"\u12"`,
	"\"a\x01\"", `[1,]`, `[1 2]`, `{"a"}`, `{"a":}`, `{a:1}`, `{"a":1,}`, `[`, `{`,
	`1 2`, `[1]]`, `{"a":1}}`, `nulll`, `"\`, `[-]`, `{"a" 1}`,
}

func TestValidMatchesEncodingJSON(t *testing.T) {
	for _, s := range corpus {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", s, got, want)
		}
	}
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	if Valid([]byte(deep)) != json.Valid([]byte(deep)) {
		t.Errorf("depth limit differs from encoding/json")
	}
}

// compare checks every accessor of v against what encoding/json decodes
// from the same bytes.
func compare(t *testing.T, data []byte, v Value) {
	t.Helper()
	var s string
	if err := json.Unmarshal(data, &s); err == nil && !v.IsNull() {
		got, ok := v.Str()
		if !ok || got != s {
			t.Errorf("Str(%q) = %q, %v; want %q", data, got, ok, s)
		}
		if got := string(v.AppendStr([]byte("x"))); got != "x"+s {
			t.Errorf("AppendStr(%q) = %q", data, got)
		}
	} else if _, ok := v.Str(); ok && !v.IsNull() {
		t.Errorf("Str(%q) ok, encoding/json: %v", data, err)
	}
	var i int64
	if err := json.Unmarshal(data, &i); err == nil && !v.IsNull() {
		if got, ok := v.Int(); !ok || got != i {
			t.Errorf("Int(%q) = %d, %v; want %d", data, got, ok, i)
		}
	} else if _, ok := v.Int(); ok {
		t.Errorf("Int(%q) ok, encoding/json: %v", data, err)
	}
	var u uint64
	if err := json.Unmarshal(data, &u); err == nil && !v.IsNull() {
		if got, ok := v.Uint(); !ok || got != u {
			t.Errorf("Uint(%q) = %d, %v; want %d", data, got, ok, u)
		}
	} else if _, ok := v.Uint(); ok {
		t.Errorf("Uint(%q) ok, encoding/json: %v", data, err)
	}
	var f float64
	if err := json.Unmarshal(data, &f); err == nil && !v.IsNull() {
		if got, ok := v.Float(); !ok || got != f {
			t.Errorf("Float(%q) = %v, %v; want %v", data, got, ok, f)
		}
	} else if _, ok := v.Float(); ok {
		t.Errorf("Float(%q) ok, encoding/json: %v", data, err)
	}
	var bv bool
	if err := json.Unmarshal(data, &bv); err == nil && !v.IsNull() {
		if got, ok := v.Bool(); !ok || got != bv {
			t.Errorf("Bool(%q) = %v, %v", data, got, ok)
		}
	} else if _, ok := v.Bool(); ok {
		t.Errorf("Bool(%q) ok, encoding/json: %v", data, err)
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(data, &arr); err == nil && arr != nil {
		if v.Kind() != Array || v.Len() != len(arr) {
			t.Errorf("Len(%q) = %d, want %d", data, v.Len(), len(arr))
		}
		for k, e := range v.Elems() {
			if !bytes.Equal(e.Raw(), arr[k]) || !bytes.Equal(v.Index(k).Raw(), arr[k]) {
				t.Errorf("Index(%q, %d) = %s, want %s", data, k, e.Raw(), arr[k])
			}
			compare(t, arr[k], e)
		}
		if v.Index(len(arr)).Exists() {
			t.Errorf("Index past the end of %q exists", data)
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err == nil && obj != nil {
		if v.Kind() != Object {
			t.Errorf("Kind(%q) = %d", data, v.Kind())
		}
		for k, want := range obj {
			got := v.Get(k)
			if !bytes.Equal(got.Raw(), want) {
				t.Errorf("Get(%q, %q) = %s, want %s", data, k, got.Raw(), want)
			}
			compare(t, want, got)
		}
		seen := map[string]bool{}
		for k := range v.Members() {
			seen[k] = true
		}
		if len(seen) != len(obj) {
			t.Errorf("Members(%q) saw %d keys, want %d", data, len(seen), len(obj))
		}
	}
	if v.Kind() != Object && v.Get("a").Exists() {
		t.Errorf("Get on %q exists", data)
	}
}

func TestValueMatchesEncodingJSON(t *testing.T) {
	for _, s := range corpus {
		v, err := Parse([]byte(s))
		if err != nil {
			continue
		}
		compare(t, []byte(s), v)
	}
}

func TestKinds(t *testing.T) {
	for s, k := range map[string]Kind{`null`: Null, `true`: Bool, `-1`: Number, `"x"`: String, `[]`: Array, ` {} `: Object} {
		v, err := Parse([]byte(s))
		if err != nil || v.Kind() != k {
			t.Errorf("Parse(%q) = kind %d, %v; want %d", s, v.Kind(), err, k)
		}
	}
	var missing Value
	if missing.Kind() != Missing || missing.Exists() || missing.IsNull() || missing.Len() != 0 || missing.String() != "" {
		t.Errorf("zero Value is not Missing")
	}
}

func TestForEachStops(t *testing.T) {
	v, _ := Parse([]byte(`{"a":1,"b":2,"c":3}`))
	n := 0
	v.ForEach(func(k string, _ Value) bool { n++; return k != "b" })
	if n != 2 {
		t.Errorf("ForEach visited %d members, want 2", n)
	}
	a, _ := Parse([]byte(`[1,2,3]`))
	n = 0
	a.ForEach(func(k string, _ Value) bool { n++; return n < 1 })
	if n != 1 {
		t.Errorf("ForEach visited %d elements, want 1", n)
	}
}

func TestLastDuplicateKeyWins(t *testing.T) {
	v, _ := Parse([]byte(`{"a":1,"b":{"a":9},"\u0061":2}`))
	if n, _ := v.Get("a").Int(); n != 2 {
		t.Errorf("Get(a) = %d, want 2", n)
	}
}

// Lookup finds what Get finds, every key in one walk: the last of a
// repeated key, escaped keys decoded, Missing for absent ones and on a
// value that is no object.
func TestLookupMatchesGet(t *testing.T) {
	v, _ := Parse([]byte(`{"a":1,"b":{"a":9},"\u0061":2,"c":"x","d":null}`))
	keys := []string{"a", "b", "c", "d", "e"}
	out := make([]Value, len(keys))
	out[4] = v // overwritten: Lookup clears out first
	v.Lookup(keys, out)
	for i, k := range keys {
		if string(out[i].Raw()) != string(v.Get(k).Raw()) || out[i].Kind() != v.Get(k).Kind() {
			t.Errorf("Lookup %q = %s, Get = %s", k, out[i].Raw(), v.Get(k).Raw())
		}
	}
	arr, _ := Parse([]byte(`[1,2]`))
	arr.Lookup(keys[:1], out[:1])
	if out[0].Kind() != Missing {
		t.Errorf("Lookup on an array = %s", out[0].Raw())
	}
}

func TestRaw(t *testing.T) {
	if !Raw(nil).IsNull() || !Raw(" null ").IsNull() || Raw(`0`).IsNull() {
		t.Errorf("Raw.IsNull wrong")
	}
	type wrap struct {
		R Raw `json:"r"`
	}
	var w wrap
	if err := json.Unmarshal([]byte(`{"r":{"x":[1]}}`), &w); err != nil || string(w.R) != `{"x":[1]}` {
		t.Fatalf("UnmarshalJSON: %s %v", w.R, err)
	}
	b, err := json.Marshal(w)
	if err != nil || string(b) != `{"r":{"x":[1]}}` {
		t.Errorf("MarshalJSON: %s %v", b, err)
	}
	if v, err := Raw(nil).Value(); err != nil || v.Exists() {
		t.Errorf("empty Raw.Value = %v, %v", v, err)
	}
	if _, err := Raw(`{`).Value(); err == nil {
		t.Errorf("invalid Raw.Value: no error")
	}
	if got := string(Marshal(Raw(nil))); got != "null" {
		t.Errorf("Marshal(Raw(nil)) = %s", got)
	}
	if Marshal(nil) != nil {
		t.Errorf("Marshal(nil) not nil")
	}
}

func TestSyntaxErrorOffset(t *testing.T) {
	_, err := Parse([]byte(`[1,]`))
	se, ok := err.(*SyntaxError)
	if !ok || se.Offset != 3 || se.Error() == "" {
		t.Errorf("Parse([1,]) = %v", err)
	}
}

func TestAppendStringRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\s/", "\x00\x01\x1f\b\f\n\r\t", "<>&", "é中😀", "\u2028\u2029", "bad\xffutf8\xc3", "\x7f"} {
		b := AppendString(nil, s)
		if !json.Valid(b) {
			t.Fatalf("AppendString(%q) = %s: invalid", s, b)
		}
		var got string
		_ = json.Unmarshal(b, &got)
		want := strings.ToValidUTF8(s, "\uFFFD")
		if got != want {
			t.Errorf("AppendString(%q) decodes to %q", s, got)
		}
		if bytes.Contains(b, []byte("\u2028")) {
			t.Errorf("AppendString(%q) left U+2028 raw", s)
		}
	}
}

func TestWriterHelpers(t *testing.T) {
	b := []byte{'{'}
	b = AppendKey(b, "a")
	b = AppendInt(b, -3)
	b = AppendKey(b, "b\"")
	b = append(b, '[')
	b = AppendUint(Sep(b), 7)
	b = AppendBool(Sep(b), true)
	b = AppendNull(Sep(b))
	b = AppendRaw(Sep(b), Raw(`{"x":1}`))
	b = AppendRaw(Sep(b), nil)
	b = AppendStrings(Sep(b), []string{"x", "y"})
	b = append(b, ']', '}')
	want := `{"a":-3,"b\"":[7,true,null,{"x":1},null,["x","y"]]}`
	if string(b) != want {
		t.Errorf("got %s\nwant %s", b, want)
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 1, -1.5, 0.1, 1e-7, 1.23e-9, 1e20, 1e21, 123456789e30, math.MaxFloat64, math.SmallestNonzeroFloat64, -0.000001} {
		want, _ := json.Marshal(f)
		if got := AppendFloat(nil, f); string(got) != string(want) {
			t.Errorf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
	}
	if got := string(AppendFloat(nil, math.NaN())); got != "null" {
		t.Errorf("AppendFloat(NaN) = %s", got)
	}
}

func FuzzMatchesEncodingJSON(f *testing.F) {
	for _, s := range corpus {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("Parse(%q) error %v; encoding/json.Valid = %v", data, err, json.Valid(data))
		}
		if err != nil {
			return
		}
		compare(t, data, v)
		if s, ok := v.Str(); ok {
			var back string
			if err := json.Unmarshal(AppendString(nil, s), &back); err != nil || back != s {
				t.Fatalf("AppendString(%q) round trip = %q, %v", s, back, err)
			}
		}
	})
}

func TestDecodeMatchesEncodingJSONFields(t *testing.T) {
	for _, s := range []string{`null`, `"x"`, `1`, `-1`, `300`, `1.5`, `true`, `[]`, `{}`, `4294967296`} {
		v, _ := Parse([]byte(s))
		var str string
		if _, ok := v.DecodeString(); ok != (json.Unmarshal([]byte(s), &str) == nil) {
			t.Errorf("DecodeString(%s) ok = %v", s, ok)
		}
		var b bool
		if _, ok := v.DecodeBool(); ok != (json.Unmarshal([]byte(s), &b) == nil) {
			t.Errorf("DecodeBool(%s) ok = %v", s, ok)
		}
		var i8 int8
		if _, ok := v.DecodeInt(8); ok != (json.Unmarshal([]byte(s), &i8) == nil) {
			t.Errorf("DecodeInt(%s, 8) ok = %v", s, ok)
		}
		var u32 uint32
		if _, ok := v.DecodeUint(32); ok != (json.Unmarshal([]byte(s), &u32) == nil) {
			t.Errorf("DecodeUint(%s, 32) ok = %v", s, ok)
		}
		var f float64
		if _, ok := v.DecodeFloat(); ok != (json.Unmarshal([]byte(s), &f) == nil) {
			t.Errorf("DecodeFloat(%s) ok = %v", s, ok)
		}
		var st struct{}
		if ok := v.DecodeObject(); ok != (json.Unmarshal([]byte(s), &st) == nil) {
			t.Errorf("DecodeObject(%s) = %v", s, ok)
		}
		var sl []int
		if ok := v.DecodeArray(); ok != (json.Unmarshal([]byte(s), &sl) == nil) {
			t.Errorf("DecodeArray(%s) = %v", s, ok)
		}
	}
	var missing Value
	if _, ok := missing.DecodeString(); !ok {
		t.Errorf("missing DecodeString failed")
	}
}
