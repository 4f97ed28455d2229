package client

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A .vue file gets Vue's server and, beside it unless the user chooses,
// the TypeScript server with Vue's plugin (the language's besideDefault).
// Vue's server's tsserver/request waits for that server to be serving,
// runs there as typescript.tsserverRequest, and its answer's body comes
// back as tsserver/response; a request the TypeScript server fails is
// answered with null, never left open.
func TestTSServerRequestRelayed(t *testing.T) {
	h := newHarness(t)
	src := &slotted{newModel("<script setup lang=\"ts\">\nconst n: number = 1\n</script>\n"), map[int]*model{1: newModel("")}}
	_, err := h.client.OpenDocument("s", "App.vue", src, src)
	require.NoError(t, err)
	agents := map[string]*fakeAgent{}
	for len(agents) < 2 {
		a := h.agent(t)
		server := ""
		if i := strings.Index(a.url, "server="); i >= 0 {
			server = a.url[i+len("server="):]
		}
		agents[server] = a
	}
	vue, ts := agents[""], agents["vue-typescript"]
	require.NotNil(t, vue, "the default server, asked for without an id")
	require.NotNil(t, ts, "the TypeScript server beside it")

	ready(t, vue, "vue-language-server", "", `{"textDocumentSync":1}`)
	open := vue.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), `"languageId":"vue"`)
	// Asked before the TypeScript server is up: the answer waits for it.
	vue.send(`{"jsonrpc":"2.0","method":"tsserver/request","params":[[1,"_vue:projectInfo",{"file":"/w/App.vue","needFileNameList":false}]]}`)
	ready(t, ts, "vue-typescript", "", `{"textDocumentSync":1,"executeCommandProvider":{"commands":["typescript.tsserverRequest"]}}`)
	open = ts.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), `"languageId":"vue"`)

	run := ts.recvMethod("workspace/executeCommand")
	require.JSONEq(t, `{"command":"typescript.tsserverRequest","arguments":["_vue:projectInfo",{"file":"/w/App.vue","needFileNameList":false},{"isAsync":true,"lowPriority":true}]}`, string(run.Params))
	ts.send(`{"jsonrpc":"2.0","id":%s,"result":{"seq":0,"type":"response","command":"_vue:projectInfo","success":true,"body":{"configFileName":"/w/tsconfig.json"}}}`, run.ID)
	answer := vue.recvMethod("tsserver/response")
	require.JSONEq(t, `[[1,{"configFileName":"/w/tsconfig.json"}]]`, string(answer.Params))

	// Two in one notification, one of which fails there.
	vue.send(`{"jsonrpc":"2.0","method":"tsserver/request","params":[[2,"quickinfo",{"file":"/w/App.vue","line":2,"offset":7}],[3,"bad",null]]}`)
	bodies := map[string]string{}
	for range 2 {
		run := ts.recvMethod("workspace/executeCommand")
		if strings.Contains(string(run.Params), `"bad"`) {
			ts.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"Unrecognized JSON command: bad"}}`, run.ID)
		} else {
			ts.send(`{"jsonrpc":"2.0","id":%s,"result":{"body":{"displayString":"const n: number"}}}`, run.ID)
		}
	}
	for range 2 {
		answer := vue.recvMethod("tsserver/response")
		bodies[string(answer.Params)[2:3]] = string(answer.Params)
	}
	require.JSONEq(t, `[[2,{"displayString":"const n: number"}]]`, bodies["2"])
	require.JSONEq(t, `[[3,null]]`, bodies["3"])
}

// A language with no server beside the one that asks: null at once.
func TestTSServerRequestWithoutTypeScriptServer(t *testing.T) {
	h := newHarness(t)
	_, err := h.client.OpenDocument("s", "a.ts", newModel("x\n"), newModel(""))
	require.NoError(t, err)
	a := h.agent(t)
	ready(t, a, "typescript-language-server", "", `{"textDocumentSync":1}`)
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","method":"tsserver/request","params":[[7,"projectInfo",{}]]}`)
	answer := a.recvMethod("tsserver/response")
	require.JSONEq(t, `[[7,null]]`, string(answer.Params))
}
