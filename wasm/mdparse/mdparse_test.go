//go:build !js

package mdparse

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpus holds what a repository's Markdown has: both heading kinds,
// closing #s, fences of both markers (one holding a heading-like line),
// indented code, HTML blocks and comments, links and code in titles.
const corpus = "# Greeter\n\nA tiny workspace.\n\n## Build `greet` **fast** ##\n\n" +
	"```go\n# not a heading\nfunc main() {}\n```\n\n" +
	"Setext title\n============\n\nSecond *level*\nover two lines\n---\n\n" +
	"    indented code\n    # still code\n\nafter code\n\n" +
	"<!-- a comment\n# inside -->\n\n<details>\n<summary>More</summary>\n\n" +
	"### See [the docs](docs/setup.md) and ![logo](logo.png)\n\n" +
	"~~~~\n~~~\nstill fenced\n~~~~\n\n#no heading\n####### seven\n\n" +
	"- a list\n- # heading in a list\n\n#### snake_case_name and _emphasis_\n\n" +
	"```\nunclosed fence\n"

// The tokens the server reads are markdown-it's: the same types, line
// ranges, markers and heading titles, checked against the real
// markdown-it (the e2e folder's) on the corpus.
func TestTokensMatchMarkdownIt(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	mdit := filepath.Join(filepath.Dir(self), "..", "..", "e2e", "node_modules", "markdown-it")
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(mdit); err != nil || statErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node and e2e/node_modules/markdown-it are needed (task setup): %v %v", err, statErr)
		}
		t.Skip("no node or e2e/node_modules/markdown-it (task setup installs them)")
	}
	script := `const md = require(process.argv[1])({html: true}); // VS Code's options
const text = require('fs').readFileSync(0, 'utf8');
const keep = new Set(['heading_open', 'inline', 'heading_close', 'fence', 'code_block', 'html_block']);
const out = [];
// The server's plain text of a title (TableOfContents.tokenToPlainText).
const plain = (t) => t.children ? t.children.map(plain).join('') : ['text', 'emoji', 'code_inline'].includes(t.type) ? t.content : '';
const toks = md.parse(text, {});
toks.forEach((t, i) => {
  if (!keep.has(t.type)) return;
  if (t.type === 'inline' && !(i > 0 && toks[i - 1].type === 'heading_open')) return;
  if (t.type === 'heading_open' && t.level > 0) return; // a heading inside a list item: no block here
  if (t.type === 'heading_close' && t.level > 0) return;
  if (t.type === 'inline' && toks[i - 1].level > 0) return;
  out.push({type: t.type, map: t.map, markup: t.markup, info: t.info,
    content: t.type === 'inline' ? plain(t) : t.content});
});
console.log(JSON.stringify(out));`
	cmd := exec.Command(node, "-e", script, mdit)
	cmd.Stdin = stringsReader(corpus)
	b, err := cmd.Output()
	require.NoError(t, err)
	type tok struct {
		Type    string `json:"type"`
		Map     []int  `json:"map"`
		Markup  string `json:"markup"`
		Info    string `json:"info"`
		Content string `json:"content"`
	}
	var want []tok
	require.NoError(t, json.Unmarshal(b, &want))
	var got []tok
	for _, tk := range Parse(corpus) {
		g := tok{Type: tk.Type, Markup: tk.Markup, Info: tk.Info, Content: tk.Content}
		if tk.Start >= 0 {
			g.Map = []int{tk.Start, tk.End}
		}
		if tk.Type == "inline" {
			g.Content = Title(tk.Content)
		}
		got = append(got, g)
	}
	require.Equal(t, want, got)

	// The JSON the server receives parses, one object per token.
	var all []map[string]any
	require.NoError(t, json.Unmarshal(AppendJSON(nil, Parse(corpus)), &all))
	require.Len(t, all, len(got))
	require.Equal(t, "Greeter", all[1]["children"].([]any)[0].(map[string]any)["content"])
}

func stringsReader(s string) *os.File {
	r, w, _ := os.Pipe()
	go func() { _, _ = w.WriteString(s); w.Close() }()
	return r
}
