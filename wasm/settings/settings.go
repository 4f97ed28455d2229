// Package settings holds the user's global LSP policy as lsp.wasm sees it
// (the relay's /api/v1/user/settings fields), the per-language configuration
// answered to workspace/configuration, and the browser-local start/stop
// decisions: manual Start remembered in localStorage per session and
// language, and an explicit Stop that suppresses auto-start for the session
// and language in this browser runtime only.
package settings

import (
	"encoding/json"

	"github.com/kandev/lsp/internal/wire"
)

// Settings are the lsp_* user-setting fields.
type Settings struct {
	AutoStart   []string                   `json:"lsp_auto_start_languages"`
	AutoInstall []string                   `json:"lsp_auto_install_languages"`
	Configs     map[string]json.RawMessage `json:"lsp_server_configs"`
	// StatusLocation is normalized: anything but status_bar is toolbar.
	StatusLocation string `json:"lsp_status_location"`
}

// Parse decodes the user-settings JSON (extra fields are ignored) and
// normalizes it: the status location defaults to toolbar, a JSON null
// configuration counts as none.
func Parse(data []byte) (Settings, error) {
	var s Settings
	if err := json.Unmarshal(data, &s); err != nil {
		return Settings{}, err
	}
	if s.StatusLocation != wire.StatusLocationStatusBar {
		s.StatusLocation = wire.StatusLocationToolbar
	}
	for k, v := range s.Configs {
		if isNull(v) {
			delete(s.Configs, k)
		}
	}
	return s, nil
}

// AutoStarts reports whether a language is in the auto-start set.
func (s Settings) AutoStarts(lang wire.Language) bool {
	for _, l := range s.AutoStart {
		if l == string(lang) {
			return true
		}
	}
	return false
}

// Config returns a language's configuration object, or nil.
func (s Settings) Config(lang wire.Language) json.RawMessage { return s.Configs[string(lang)] }

// ConfigChanged reports whether a language's configuration differs between
// two settings. The texts are compared as sent: the page stringifies the
// same object the same way, and a spurious difference only costs one
// didChangeConfiguration.
func ConfigChanged(a, b Settings, lang wire.Language) bool {
	return string(a.Config(lang)) != string(b.Config(lang))
}

var null = json.RawMessage("null")

func isNull(v json.RawMessage) bool { return len(v) == 0 || string(v) == "null" }

// Section answers one workspace/configuration item from a language's
// configuration object: no section is the whole object; a dotted section
// ("gopls", "python.analysis") walks that path of nested objects; anything
// missing is null. The whole object is never the answer for a named section
// it does not contain.
func Section(config json.RawMessage, section string) json.RawMessage {
	if isNull(config) {
		return null
	}
	cur := config
	for section != "" {
		part := section
		section = ""
		for i := 0; i < len(part); i++ {
			if part[i] == '.' {
				part, section = part[:i], part[i+1:]
				break
			}
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return null
		}
		next, ok := obj[part]
		if !ok {
			return null
		}
		cur = next
	}
	return cur
}
