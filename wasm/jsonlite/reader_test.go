package jsonlite

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// rebuild walks the value at r with the Reader alone, entering every
// object and array, and returns what encoding/json would decode.
func rebuild(r *Reader) any {
	switch {
	case r.Object():
		m := map[string]any{}
		for key, more := r.Member(); more; key, more = r.Member() {
			m[key] = rebuild(r) // the last of a repeated key, as encoding/json keeps
		}
		return m
	case r.Array():
		a := []any{}
		for r.Elem() {
			a = append(a, rebuild(r))
		}
		return a
	}
	out, err := decodeAny(r.Value().Raw())
	if err != nil {
		panic(err)
	}
	return out
}

// walk enters every object and array at r and takes every other value
// whole, decoding nothing.
func walk(r *Reader) {
	switch {
	case r.Object():
		for _, more := r.Member(); more; _, more = r.Member() {
			walk(r)
		}
	case r.Array():
		for r.Elem() {
			walk(r)
		}
	default:
		r.Value()
	}
}

// decodeAny is encoding/json's decoding into any, numbers kept as text
// (1e400 is valid JSON and no float64).
func decodeAny(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	err := d.Decode(&out)
	return out, err
}

// A Reader walks what Parse accepted to the same values as encoding/json,
// keys with escapes and whitespace anywhere included; Start and Since
// give back the bytes of the whole.
func FuzzReaderMatchesEncodingJSON(f *testing.F) {
	for _, s := range append(corpus, ` { "a\u0062" : [ 1 , { "\"q\\" : "x\"y\\" } , [ ] , { } ] , "a\u0062" : null } `, `"\\\""`, `[[[]],{"":{"":""}}]`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			// Checked on bytes that are not JSON: nonsense, never a panic.
			r := Checked(Raw(data)).Reader()
			walk(&r)
			return
		}
		want, err := decodeAny(data)
		if err != nil {
			t.Fatal(err)
		}
		r := Checked(Raw(data)).Reader()
		start := r.Start()
		if got := rebuild(&r); !reflect.DeepEqual(got, want) {
			t.Fatalf("Reader walk of %q = %#v; encoding/json %#v", data, got, want)
		}
		if got := r.Since(start); string(got) != string(v.Raw()) {
			t.Fatalf("Since(Start()) of %q = %q", data, got)
		}
	})
}
