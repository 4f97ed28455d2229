package app

import (
	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/i18n"
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/status"
)

// MessageJSON renders a server message for the page, ready to show as a
// dismissable notice:
//
//	{"id":"m3"|null, "sessionId":"demo", "language":"go",
//	 "type":"error"|"warning"|"info"|"log", "message":"<the server's text>",
//	 "actions":["Retry", …], "title":"Message from gopls", "dismissLabel":"Dismiss"}
//
// id is set for a showMessageRequest, which waits for Respond(id, …);
// title and dismissLabel come from the locale's catalog, the message and
// the actions verbatim from the server.
func MessageJSON(m client.Message, cat *i18n.Catalog) string {
	b := append(make([]byte, 0, 128+len(m.Text)), `{"id":`...)
	if m.ID == "" {
		b = j.AppendNull(b)
	} else {
		b = j.AppendString(b, m.ID)
	}
	b = j.AppendString(j.AppendKey(b, "sessionId"), m.SessionID)
	b = j.AppendString(j.AppendKey(b, "language"), m.Language)
	b = j.AppendString(j.AppendKey(b, "type"), m.TypeName())
	b = j.AppendString(j.AppendKey(b, "message"), m.Text)
	actions := m.Actions
	if actions == nil {
		actions = []string{}
	}
	b = j.AppendStrings(j.AppendKey(b, "actions"), actions)
	b = j.AppendString(j.AppendKey(b, "title"), cat.T("message.title", "server", status.Server(m.Language)))
	b = j.AppendString(j.AppendKey(b, "dismissLabel"), cat.T("message.dismiss"))
	return string(append(b, '}'))
}
