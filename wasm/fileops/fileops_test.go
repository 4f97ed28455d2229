package fileops

import (
	"testing"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/stretchr/testify/require"
)

// tsCaps is typescript-language-server 5.3's declaration: willRename for
// script files and for every folder.
const tsCaps = `{"workspace":{"fileOperations":{"willRename":{"filters":[` +
	`{"scheme":"file","pattern":{"glob":"**/*.{ts,js,jsx,tsx,mjs,mts,cjs,cts}","matches":"file"}},` +
	`{"scheme":"file","pattern":{"glob":"**","matches":"folder"}}]}}}}`

func TestParseRequest(t *testing.T) {
	r, err := ParseRequest(`{"sessionId":"s","kind":"rename","files":[{"path":"src/a.ts","newPath":"lib/a.ts"},{"path":"src/util","newPath":"src/helpers","folder":true}]}`)
	require.NoError(t, err)
	require.Equal(t, "s", r.Session)
	require.Equal(t, Rename, r.Kind)
	require.Equal(t, []File{{Path: "src/a.ts", NewPath: "lib/a.ts"}, {Path: "src/util", NewPath: "src/helpers", Folder: true}}, r.Files)

	r, err = ParseRequest(`{"sessionId":"s","kind":"delete","files":[{"path":"a.py"}]}`)
	require.NoError(t, err)
	require.Equal(t, Delete, r.Kind)

	for _, bad := range []string{
		``, `[]`, `{"kind":"create","files":[{"path":"a"}]}`,
		`{"sessionId":"s","kind":"copy","files":[{"path":"a"}]}`,
		`{"sessionId":"s","kind":"create","files":[]}`,
		`{"sessionId":"s","kind":"create","files":[{"path":"/etc/passwd"}]}`,
		`{"sessionId":"s","kind":"create","files":[{"path":"../x"}]}`,
		`{"sessionId":"s","kind":"create","files":[{"path":"a/../../x"}]}`,
		`{"sessionId":"s","kind":"create","files":[{"path":"."}]}`,
		`{"sessionId":"s","kind":"create","files":[{"path":"a","newPath":"b"}]}`,
		`{"sessionId":"s","kind":"rename","files":[{"path":"a"}]}`,
		`{"sessionId":"s","kind":"rename","files":[{"path":"a","newPath":"../b"}]}`,
	} {
		_, err := ParseRequest(bad)
		require.ErrorIs(t, err, ErrMalformed, bad)
	}
}

func TestMethods(t *testing.T) {
	require.Equal(t, "workspace/willRenameFiles", Rename.Method(true))
	require.Equal(t, "workspace/didCreateFiles", Create.Method(false))
	require.Equal(t, "workspace/willDeleteFiles", Delete.Method(true))
	require.Equal(t, "delete", Delete.String())
}

// The TypeScript server's filters: a script file and any folder are
// asked for, a stylesheet is not; only willRename is declared, so the
// other methods carry nothing.
func TestParamsFollowTheFilters(t *testing.T) {
	fs := Filters(j.Raw(tsCaps), nil, Rename, true)
	require.Len(t, fs, 2)
	r := Request{Session: "s", Kind: Rename, Files: []File{
		{Path: "src/a.ts", NewPath: "src/b.ts"},
		{Path: "web/style.css", NewPath: "web/main.css"},
		{Path: "src/util", NewPath: "src/helpers", Folder: true},
		{Path: "src/x.ts", NewPath: "src/y.ts", Folder: true}, // a folder named like a script: the folder filter
	}}
	require.JSONEq(t, `{"files":[
		{"oldUri":"file:///w/src/a.ts","newUri":"file:///w/src/b.ts"},
		{"oldUri":"file:///w/src/util","newUri":"file:///w/src/helpers"},
		{"oldUri":"file:///w/src/x.ts","newUri":"file:///w/src/y.ts"}]}`, string(Params(r, "/w", fs)))

	require.Empty(t, Filters(j.Raw(tsCaps), nil, Rename, false))
	require.Nil(t, Params(r, "/w", Filters(j.Raw(tsCaps), nil, Rename, false)))
	require.Nil(t, Params(Request{Kind: Rename, Files: []File{{Path: "a.css", NewPath: "b.css"}}}, "/w", fs))
}

// A dynamic registration's filters count like static ones; a filter of
// another scheme, one without a glob, and a case-sensitive glob of another
// case ask for nothing; ignoreCase matches any case.
func TestRegisteredFiltersAndOptions(t *testing.T) {
	regs := []j.Raw{
		j.Raw(`{"filters":[{"scheme":"untitled","pattern":{"glob":"**/*.py"}},{"pattern":{}},{"pattern":{"glob":"**/*.PY"}}]}`),
		j.Raw(`{"filters":[{"pattern":{"glob":"**/*.md","options":{"ignoreCase":true}}}]}`),
	}
	fs := Filters(nil, regs, Delete, false)
	require.Len(t, fs, 3)
	r := Request{Kind: Delete, Files: []File{{Path: "a.py"}, {Path: "docs/README.MD"}, {Path: "b.PY"}}}
	require.JSONEq(t, `{"files":[{"uri":"file:///w/docs/README.MD"},{"uri":"file:///w/b.PY"}]}`, string(Params(r, "/w", fs)))
}

// Paths with spaces and non-ASCII names become percent-encoded URIs, the
// same spelling the server's documents have.
func TestParamsEncodeURIs(t *testing.T) {
	fs := Filters(nil, []j.Raw{j.Raw(`{"filters":[{"pattern":{"glob":"**"}}]}`)}, Create, true)
	r := Request{Kind: Create, Files: []File{{Path: "my dir/ü.ts"}}}
	require.JSONEq(t, `{"files":[{"uri":"file:///w/my%20dir/%C3%BC.ts"}]}`, string(Params(r, "/w", fs)))
}

func TestWatchFrame(t *testing.T) {
	require.JSONEq(t, `{"files":[{"path":"a.ts","type":3},{"path":"b.ts","type":1},{"path":"c","type":3},{"path":"d","type":1}]}`,
		string(WatchFrame(Request{Kind: Rename, Files: []File{{Path: "a.ts", NewPath: "b.ts"}, {Path: "c", NewPath: "d", Folder: true}}})))
	require.JSONEq(t, `{"files":[{"path":"x.py","type":1}]}`, string(WatchFrame(Request{Kind: Create, Files: []File{{Path: "x.py"}}})))
	require.JSONEq(t, `{"files":[{"path":"x.py","type":3}]}`, string(WatchFrame(Request{Kind: Delete, Files: []File{{Path: "x.py"}}})))
}
