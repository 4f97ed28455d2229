// Package settings holds the user's global LSP policy as lsp.wasm sees it
// (the relay's /api/v1/user/settings fields), the per-language configuration
// answered to workspace/configuration, and the browser-local start/stop
// decisions: manual Start remembered in localStorage per session and
// language, and an explicit Stop that suppresses auto-start for the session
// and language in this browser runtime only.
package settings

import (
	"errors"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// Settings are the lsp_* user-setting fields.
type Settings struct {
	AutoStart   []string                `json:"lsp_auto_start_languages"`
	AutoInstall []string                `json:"lsp_auto_install_languages"`
	Configs     map[string]jsonlite.Raw `json:"lsp_server_configs"`
	// Servers is lsp_language_servers: the catalog ids of the servers
	// chosen per language, in order; a language without one uses its
	// default server.
	Servers map[string][]string `json:"lsp_language_servers"`
	// Formatters is lsp_formatters: the catalog id of the server that
	// formats a language's files; absent, the first capable one.
	Formatters map[string]string `json:"lsp_formatters"`
	// Features is lsp_server_features: per catalog id, what the server is
	// used for (wire.Feature* values), within its catalog entry's own
	// list; absent, that list.
	Features map[string][]string `json:"lsp_server_features"`
	// StatusLocation is normalized: anything but status_bar is toolbar.
	StatusLocation string `json:"lsp_status_location"`
}

// Parse decodes the user-settings JSON (extra fields are ignored) and
// normalizes it: the status location defaults to toolbar, a JSON null
// configuration counts as none.
func Parse(data []byte) (Settings, error) {
	v, err := jsonlite.Parse(data)
	if err != nil {
		return Settings{}, err
	}
	s, ok := decode(v)
	if !ok {
		return Settings{}, errMalformed
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

// Server returns the catalog id of the first server chosen for a
// language, "" for its default.
func (s Settings) Server(lang wire.Language) string {
	if ids := s.Servers[string(lang)]; len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// ServerList returns the catalog ids of the servers chosen for a
// language, in order; nil for its default server alone.
func (s Settings) ServerList(lang wire.Language) []string {
	return s.Servers[string(lang)]
}

// Config returns the configuration object of a language's server, or nil:
// lsp_server_configs keyed by the server's catalog id, else, for the
// language's first server, by the language (the default server's
// configuration, as before servers could be chosen).
func (s Settings) Config(lang wire.Language, server string, lead bool) jsonlite.Raw {
	if server != "" {
		if c, ok := s.Configs[server]; ok {
			return c
		}
	}
	if !lead {
		return nil
	}
	return s.Configs[string(lang)]
}

// ServerChanged reports whether the servers chosen for a language differ
// between two settings (connections end, new ones start).
func ServerChanged(a, b Settings, lang wire.Language) bool {
	x, y := a.ServerList(lang), b.ServerList(lang)
	if len(x) != len(y) {
		return true
	}
	for i := range x {
		if x[i] != y[i] {
			return true
		}
	}
	return false
}

// ConfigChanged reports whether the configuration of any of a language's
// servers differs between two settings. The texts are compared as sent:
// the page stringifies the same object the same way, and a spurious
// difference only costs one didChangeConfiguration.
func ConfigChanged(a, b Settings, lang wire.Language) bool {
	list := b.ServerList(lang)
	if len(list) == 0 {
		list = []string{""}
	}
	for i, id := range list {
		if string(a.Config(lang, id, i == 0)) != string(b.Config(lang, id, i == 0)) {
			return true
		}
	}
	return false
}

// FormatterChanged reports whether the server named to format a
// language's files differs between two settings.
func FormatterChanged(a, b Settings, lang wire.Language) bool {
	return a.Formatters[string(lang)] != b.Formatters[string(lang)]
}

// FeaturesChanged reports whether a feature list that applies to a
// language's servers differs between two settings.
func FeaturesChanged(a, b Settings, lang wire.Language) bool {
	ids := b.ServerList(lang)
	if len(ids) == 0 {
		// None chosen: the language's default and the servers beside it,
		// whose features a user limits by their ids all the same.
		if info, ok := wire.Lookup(string(lang)); ok && len(info.Servers) > 0 {
			ids = append([]string{info.Servers[0]}, info.BesideDefault...)
		}
	}
	for _, id := range ids {
		x, y := a.Features[id], b.Features[id]
		if (x == nil) != (y == nil) || len(x) != len(y) {
			return true
		}
		for i := range x {
			if x[i] != y[i] {
				return true
			}
		}
	}
	return false
}

var null = jsonlite.Raw("null")

func isNull(v []byte) bool { return len(v) == 0 || string(v) == "null" }

// errMalformed reports user settings of the wrong shape.
var errMalformed = errors.New("settings: malformed user settings")

// decode reads the lsp_* fields; ok is false where encoding/json would have
// failed to decode them into Settings.
func decode(v jsonlite.Value) (s Settings, ok bool) {
	if !v.DecodeObject() {
		return Settings{}, false
	}
	for _, f := range []struct {
		key string
		dst *[]string
	}{{"lsp_auto_start_languages", &s.AutoStart}, {"lsp_auto_install_languages", &s.AutoInstall}} {
		list := v.Get(f.key)
		if !list.DecodeArray() {
			return Settings{}, false
		}
		if list.Kind() != jsonlite.Array {
			continue
		}
		*f.dst = []string{}
		for _, e := range list.Elems() {
			str, ok := e.DecodeString()
			if !ok {
				return Settings{}, false
			}
			*f.dst = append(*f.dst, str)
		}
	}
	if c := v.Get("lsp_server_configs"); c.Kind() == jsonlite.Object {
		s.Configs = make(map[string]jsonlite.Raw)
		for k, cfg := range c.Members() {
			s.Configs[k] = cfg.Raw()
		}
	} else if !c.DecodeObject() {
		return Settings{}, false
	}
	if m := v.Get("lsp_language_servers"); m.Kind() == jsonlite.Object {
		s.Servers = make(map[string][]string)
		for lang, ids := range m.Members() {
			if ids.Kind() != jsonlite.Array {
				return Settings{}, false
			}
			for _, e := range ids.Elems() {
				id, ok := e.Str()
				if !ok {
					return Settings{}, false
				}
				s.Servers[lang] = append(s.Servers[lang], id)
			}
		}
	} else if !m.DecodeObject() {
		return Settings{}, false
	}
	if m := v.Get("lsp_formatters"); m.Kind() == jsonlite.Object {
		s.Formatters = make(map[string]string)
		for lang, id := range m.Members() {
			str, ok := id.Str()
			if !ok {
				return Settings{}, false
			}
			s.Formatters[lang] = str
		}
	} else if !m.DecodeObject() {
		return Settings{}, false
	}
	if m := v.Get("lsp_server_features"); m.Kind() == jsonlite.Object {
		s.Features = make(map[string][]string)
		for id, list := range m.Members() {
			if list.Kind() != jsonlite.Array {
				return Settings{}, false
			}
			s.Features[id] = []string{}
			for _, e := range list.Elems() {
				f, ok := e.Str()
				if !ok {
					return Settings{}, false
				}
				s.Features[id] = append(s.Features[id], f)
			}
		}
	} else if !m.DecodeObject() {
		return Settings{}, false
	}
	var ok2 bool
	if s.StatusLocation, ok2 = v.Get("lsp_status_location").DecodeString(); !ok2 {
		return Settings{}, false
	}
	return s, true
}

// Section answers one workspace/configuration item from a language's
// configuration object: no section is the whole object; a dotted section
// ("gopls", "python.analysis") walks that path of nested objects; anything
// missing is null. The whole object is never the answer for a named section
// it does not contain.
func Section(config []byte, section string) jsonlite.Raw {
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
		obj, err := jsonlite.Parse(cur)
		if err != nil || !obj.DecodeObject() {
			return null
		}
		next := obj.Get(part)
		if !next.Exists() {
			return null
		}
		cur = next.Raw()
	}
	return cur
}
