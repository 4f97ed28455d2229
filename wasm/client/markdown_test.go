package client

import (
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/ctxlite"
)

// The Markdown server's own requests are answered as VS Code's Markdown
// extension answers them: the open document parsed (its text, not the
// file's), files read as UTF-8 bytes, the tree listed through the page
// once until a files frame, and nothing outside the workspace.
func TestMarkdownServerRequests(t *testing.T) {
	t.Parallel()
	disk := &taskDisk{files: map[string]string{
		"demo:docs/setup.md": "# Setup\n\nSee [the guide](guide.md).\n",
		"demo:README.md":     "on disk",
	}}
	var lists atomic.Int32
	files := []string{"README.md", "docs/setup.md", "docs/img/logo.png", "main.go"}
	h := newHarness(t, func(c *Config) {
		c.ReadFile = disk.read
		c.ListFiles = func(_ ctxlite.Context, session string) ([]string, bool) {
			lists.Add(1)
			return files, session == "demo"
		}
	})
	m := newModel("# Greeter\n\n## Build `greet`\n\n```sh\n# not a heading\n```\n")
	_, err := h.client.OpenDocument("demo", "README.md", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/srv/my task", "file:///srv/my%20task")
	a.recvMethod("textDocument/didOpen")

	call := func(method, params string) json.RawMessage {
		t.Helper()
		a.send(`{"jsonrpc":"2.0","id":"m","method":%q,"params":%s}`, method, params)
		msg := a.recv()
		require.Equal(t, `"m"`, string(msg.ID), msg.raw)
		if msg.Error != nil {
			return json.RawMessage(`"error"`)
		}
		return msg.Result
	}
	type token struct {
		Type     string `json:"type"`
		Map      []int  `json:"map"`
		Markup   string `json:"markup"`
		Children []struct {
			Content string `json:"content"`
		} `json:"children"`
	}
	var toks []token
	require.NoError(t, json.Unmarshal(call("markdown/parse", `{"uri":"file:///srv/my%20task/README.md"}`), &toks))
	var headings []string
	for _, tk := range toks {
		if tk.Type == "inline" {
			headings = append(headings, tk.Children[0].Content)
		}
	}
	require.Equal(t, []string{"Greeter", "Build greet"}, headings, "the open model's text, fenced lines no heading")
	require.NoError(t, json.Unmarshal(call("markdown/parse", `{"uri":"file:///srv/my%20task/docs/setup.md"}`), &toks))
	require.Equal(t, "heading_open", toks[0].Type)
	require.Equal(t, []int{0, 1}, toks[0].Map)
	require.NoError(t, json.Unmarshal(call("markdown/parse", `{"uri":"untitled:1","text":"Title\n===\n"}`), &toks))
	require.Equal(t, "=", toks[0].Markup, "text given: parsed as it is")

	var bytes []byte
	var nums []int
	require.NoError(t, json.Unmarshal(call("markdown/fs/readFile", `{"uri":"file:///srv/my%20task/docs/setup.md"}`), &nums))
	for _, n := range nums {
		bytes = append(bytes, byte(n))
	}
	require.Equal(t, "# Setup\n\nSee [the guide](guide.md).\n", string(bytes))
	require.JSONEq(t, `"error"`, string(call("markdown/fs/readFile", `{"uri":"file:///srv/my%20task/docs/guide.md"}`)), "a missing file fails the request")
	require.JSONEq(t, `"error"`, string(call("markdown/fs/readFile", `{"uri":"file:///etc/passwd"}`)), "outside the workspace: not there")

	require.JSONEq(t, `{"isDirectory":false}`, string(call("markdown/fs/stat", `{"uri":"file:///srv/my%20task/docs/setup.md"}`)))
	require.JSONEq(t, `{"isDirectory":true}`, string(call("markdown/fs/stat", `{"uri":"file:///srv/my%20task/docs"}`)))
	require.JSONEq(t, `{"isDirectory":true}`, string(call("markdown/fs/stat", `{"uri":"file:///srv/my%20task"}`)))
	require.JSONEq(t, `null`, string(call("markdown/fs/stat", `{"uri":"file:///srv/my%20task/docs/guide.md"}`)))
	require.JSONEq(t, `null`, string(call("markdown/fs/stat", `{"uri":"file:///srv/other/README.md"}`)))
	require.JSONEq(t, `[["setup.md",{"isDirectory":false}],["img",{"isDirectory":true}]]`, string(call("markdown/fs/readDirectory", `{"uri":"file:///srv/my%20task/docs"}`)))
	require.JSONEq(t, `["file:///srv/my%20task/README.md","file:///srv/my%20task/docs/setup.md"]`, string(call("markdown/findMarkdownFilesInWorkspace", `{}`)))
	require.JSONEq(t, `null`, string(call("markdown/fs/watcher/create", `{"id":1,"uri":"file:///srv/my%20task","options":{},"watchParentDirs":true}`)))
	require.Equal(t, int32(1), lists.Load(), "listed once")

	// A files frame: the tree changed, listed again on the next question.
	files = append(files, "docs/guide.md")
	a.send(`{"files":[{"path":"docs/guide.md","type":1}]}`)
	settle(t, a)
	require.JSONEq(t, `{"isDirectory":false}`, string(call("markdown/fs/stat", `{"uri":"file:///srv/my%20task/docs/guide.md"}`)))
	require.Equal(t, int32(2), lists.Load())
}
