//go:build js && wasm

package jsbind

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/stretchr/testify/require"
)

// editableModel is a Monaco model with what a reload uses: positions as
// Monaco counts them ("\r\n", "\n" and "\r" end lines; columns in UTF-16
// units), edits recorded, a version id per edit and undo stops.
const editableModel = `(function () {
	const m = {
		text: '', version: 1, edits: [], stops: 0,
		getValue() { return m.text; },
		getVersionId() { return m.version; },
		pushStackElement() { m.stops++; },
		getPositionAt(off) {
			let line = 1, col = 1;
			for (let i = 0; i < off; i++) {
				const c = m.text[i];
				if (c === '\r' && m.text[i + 1] === '\n') { i++; line++; col = 1; }
				else if (c === '\n' || c === '\r') { line++; col = 1; }
				else col++;
			}
			return { lineNumber: line, column: col };
		},
		offsetAt(line, col) {
			let l = 1, c = 1;
			for (let i = 0; i <= m.text.length; i++) {
				if (l === line && c === col) return i;
				const ch = m.text[i];
				if (ch === '\r' && m.text[i + 1] === '\n') { i++; l++; c = 1; }
				else if (ch === '\n' || ch === '\r') { l++; c = 1; }
				else c++;
			}
			throw new Error('no position ' + line + ':' + col);
		},
		pushEditOperations(before, ops, after) {
			for (const op of ops) {
				const r = op.range;
				const a = m.offsetAt(r.startLineNumber, r.startColumn), b = m.offsetAt(r.endLineNumber, r.endColumn);
				m.edits.push({ start: a, end: b, text: op.text });
				m.text = m.text.slice(0, a) + op.text + m.text.slice(b);
			}
			m.version++;
			after([]);
		},
	};
	return m;
})()`

func TestReplaceIsOneMinimalEdit(t *testing.T) {
	cases := []struct {
		old, new   string
		start, end int    // of the replaced range in old, UTF-16 units
		text       string // inserted
	}{
		{"abXc", "abYc", 2, 3, "Y"},
		{"a\nb\nc", "a\nB\nc", 2, 3, "B"},
		{"a\r\nb", "a\nb", 1, 3, "\n"},   // never inside the CRLF
		{"a\nb", "a\r\nb", 1, 2, "\r\n"}, // nor a new one
		{"x😀y", "x😁y", 1, 3, "😁"},        // a surrogate pair whole
		{"", "new\n", 0, 0, "new\n"},
		{"line\n", "", 0, 5, ""},
		{"aaa", "aa", 2, 3, ""},
	}
	for _, c := range cases {
		m := &model{v: jsEval(t, editableModel)}
		require.NoError(t, m.v.Set("text", c.old))
		v := m.Replace(c.new)
		require.Equal(t, c.new, str(t, get(t, m.v, "text")), "%q → %q", c.old, c.new)
		require.Equal(t, 2, v)
		require.Equal(t, `[{"start":`+itoa(c.start)+`,"end":`+itoa(c.end)+`,"text":`+quote(c.text)+`}]`,
			stringify(t, get(t, m.v, "edits")), "%q → %q", c.old, c.new)
		n, _ := get(t, m.v, "stops").Int()
		require.Equal(t, 2, n, "one undo step of its own")
	}
	// The same text: no edit, the version stays.
	m := &model{v: jsEval(t, editableModel)}
	require.NoError(t, m.v.Set("text", "same"))
	require.Equal(t, 1, m.Replace("same"))
	require.Equal(t, "[]", stringify(t, get(t, m.v, "edits")))
}

// Whatever the texts, the one edit gives the new text.
func TestReplaceApplies(t *testing.T) {
	parts := []string{"a", "b", "\n", "\r\n", "\r", "é", "😀", "\t"}
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		var b strings.Builder
		for range rng.IntN(7) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	m := &model{v: jsEval(t, editableModel)}
	for range 500 {
		old, new := gen(), gen()
		require.NoError(t, m.v.Set("text", old))
		m.Replace(new)
		require.Equal(t, new, str(t, get(t, m.v, "text")), "%q → %q", old, new)
	}
}

func TestAwaitText(t *testing.T) {
	ctx := ctxlite.Background()
	for _, c := range []struct {
		readFile string
		text     string
		ok       bool
	}{
		{`(s, p) => s + ':' + p`, "demo:a.go", true},
		{`(s, p) => Promise.resolve('from ' + p)`, "from a.go", true},
		{`() => null`, "", false},
		{`() => Promise.reject(new Error('404'))`, "", false},
		{`() => { throw new Error('boom'); }`, "", false},
		{`() => 42`, "", false},
	} {
		text, ok := awaitText(ctx, jsEval(t, c.readFile), "demo", "a.go")
		require.Equal(t, c.ok, ok, c.readFile)
		require.Equal(t, c.text, text, c.readFile)
	}
	// A readFile that never answers: the context bounds the wait.
	short, cancel := ctxlite.WithTimeout(ctx, 20*clock.Millisecond)
	defer cancel()
	_, ok := awaitText(short, jsEval(t, `() => new Promise(() => {})`), "demo", "a.go")
	require.False(t, ok)
}

func TestDiskChangeEvent(t *testing.T) {
	a := newAPI("test", nil, nil)
	var got []string
	fn, err := jsFuncOf(func(_ jsValue, args []jsValue) any {
		got = append(got, stringify(t, args[0]))
		return nil
	})
	require.NoError(t, err)
	defer fn.Release()
	a.diskLs = []listener{{id: 1, fn: fn.Value()}}
	a.emitDisk(client.DiskChange{SessionID: "demo", Path: "greet/greet.go", Model: "kandev://demo/greet/greet.go", Type: 2, Dirty: true, Version: 7})
	require.Equal(t, []string{`{"sessionId":"demo","path":"greet/greet.go","model":"kandev://demo/greet/greet.go","change":"changed","reloaded":false,"dirty":true,"versionId":7}`}, got)
}

func TestWorkspaceFilesEvent(t *testing.T) {
	a := newAPI("test", nil, nil)
	var got []string
	fn, err := jsFuncOf(func(_ jsValue, args []jsValue) any {
		got = append(got, stringify(t, args[0]))
		return nil
	})
	require.NoError(t, err)
	defer fn.Release()
	a.filesLs = []listener{{id: 1, fn: fn.Value()}}
	a.emitTo(&a.filesLs, workspaceFilesJSON("demo", []client.FileChange{
		{Path: "gen/api.go", Type: 1}, {Path: "a \"b\".txt", Type: 2}, {Path: "old", Type: 3}}), "onWorkspaceFiles listener")
	require.Equal(t, []string{`{"sessionId":"demo","changes":[{"path":"gen/api.go","change":"created"},` +
		`{"path":"a \"b\".txt","change":"changed"},{"path":"old","change":"deleted"}]}`}, got)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}
