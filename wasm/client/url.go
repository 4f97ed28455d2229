package client

import (
	"path"
	"strings"

	"github.com/kandev/lsp/internal/wire"
)

// StreamURL is the relay WebSocket URL for a session and language:
// relayURL + "/" + encodeURIComponent(sessionID) + "?" + wire.ParamLanguage +
// "=" + language. This package avoids net/url on purpose (it costs lsp.wasm
// about 190 KB once nothing else needs it).
func StreamURL(relayURL, sessionID, language string) string {
	return strings.TrimRight(relayURL, "/") + "/" + encodeURIComponent(sessionID) +
		"?" + wire.ParamLanguage + "=" + encodeURIComponent(language)
}

// paramServer names the catalog id of the chosen server on the stream
// route (absent: the language's default).
const paramServer = "server"

// ServerStreamURL is StreamURL asking for the catalog server id, the
// language's default when id is "".
func ServerStreamURL(relayURL, sessionID, language, id string) string {
	u := StreamURL(relayURL, sessionID, language)
	if id != "" {
		u += "&" + paramServer + "=" + encodeURIComponent(id)
	}
	return u
}

// encodeURIComponent escapes s exactly as JavaScript's encodeURIComponent:
// everything but A–Z a–z 0–9 - _ . ! ~ * ' ( ) becomes %XX per UTF-8 byte.
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// cleanRelPath validates a workspace-relative, slash-separated path and
// returns it cleaned. Absolute paths and paths leaving the workspace are
// refused: the server must only ever see files under the workspace root.
func cleanRelPath(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return "", false
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// languageID is the LSP languageId of a file (didOpen's): it depends on
// the file, not only on its language — typescriptreact for a.tsx, go.mod
// for go.mod, shellscript for a.sh (wire.LanguageID) — with lang for a file
// wire has no entry for.
func languageID(p string, lang string) string {
	if id := wire.LanguageID(p); id != "" {
		return id
	}
	return lang
}
