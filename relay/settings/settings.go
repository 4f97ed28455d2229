// Package settings holds the user's global LSP policy — the four lsp_*
// fields of the spec's user-settings table and lsp_language_servers, the
// choice among the built-in catalog's servers — with its validation, its
// normalization and its storage (Store; SQLite in production).
//
// The HTTP handler in package relay only decodes a request with
// DecodePatch, hands the patch to Store.Update and encodes the result: every
// rule about what may be saved lives here, next to the type it guards.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/kandev/lsp/internal/wire"
)

// Settings is the user's LSP policy as the API carries it. A value from
// Default, Store.Load or Store.Update is always normalized: both lists are
// non-nil, known-language, duplicate-free; ServerConfigs is non-nil and
// every value a JSON object; StatusLocation is toolbar or status_bar;
// LanguageServers is non-nil and maps known languages to built-in servers
// of theirs, without repeats; Formatters and ServerFeatures are non-nil.
type Settings struct {
	// AutoStartLanguages connect when a matching file opens.
	AutoStartLanguages []string `json:"lsp_auto_start_languages"`
	// AutoInstallLanguages may be installed by the task host when their
	// server is missing. Never filtered by the relay's own OS: the task
	// host is the final authority (it answers 4007 where it cannot).
	AutoInstallLanguages []string `json:"lsp_auto_install_languages"`
	// ServerConfigs is per-language JSON objects, as saved (key order
	// kept; a store may compact white space): the browser returns them
	// through workspace/configuration. A key is a language id (its default
	// server's configuration) or a built-in server id (that server's,
	// when chosen in LanguageServers).
	ServerConfigs map[string]json.RawMessage `json:"lsp_server_configs"`
	// StatusLocation is wire.StatusLocationToolbar or
	// wire.StatusLocationStatusBar.
	StatusLocation string `json:"lsp_status_location"`
	// LanguageServers chooses, per language, the built-in catalog's
	// servers it uses, in order ({"typescript": ["tsgo", "eslint"]}); a
	// language it does not name uses its default.
	LanguageServers map[string][]string `json:"lsp_language_servers"`
	// Formatters names, per language, the server that formats its files;
	// a language it does not name is formatted by its first capable one.
	Formatters map[string]string `json:"lsp_formatters"`
	// ServerFeatures limits, per server id, what it is used for
	// (wire.Feature* values).
	ServerFeatures map[string][]string `json:"lsp_server_features"`
}

// Default is what a user who never saved anything has.
func Default() Settings {
	return Settings{
		AutoStartLanguages:   []string{},
		AutoInstallLanguages: []string{},
		ServerConfigs:        map[string]json.RawMessage{},
		StatusLocation:       wire.StatusLocationToolbar,
		LanguageServers:      map[string][]string{},
		Formatters:           map[string]string{},
		ServerFeatures:       map[string][]string{},
	}
}

// Server returns the server the user chose for lang, or "" for its
// default. The relay asks the task host for it when the browser names none.
func (s Settings) Server(lang string) string {
	if l := s.LanguageServers[lang]; len(l) > 0 {
		return l[0]
	}
	return ""
}

// AutoInstall reports whether the user lets the task host install lang's
// server. The relay sets the agent's autoInstall parameter from this; the
// browser never chooses.
func (s Settings) AutoInstall(lang string) bool {
	return slices.Contains(s.AutoInstallLanguages, lang)
}

// NormalizeStatusLocation maps anything but the two known locations —
// missing, empty, another string — to toolbar, as the spec asks.
func NormalizeStatusLocation(v string) string {
	if v == wire.StatusLocationStatusBar {
		return v
	}
	return wire.StatusLocationToolbar
}

// Patch is a partial update: a nil field is left as stored. PUT is a
// partial update on purpose — the Editors settings page saves one control
// at a time, and a full replace would make two tabs (or two controls saved
// in quick succession) overwrite each other's fields. Within a field the
// value is replaced whole: lsp_server_configs is not merged key by key, so
// a language's configuration is removed by saving the map without it.
type Patch struct {
	AutoStartLanguages   *[]string
	AutoInstallLanguages *[]string
	ServerConfigs        *map[string]json.RawMessage
	StatusLocation       *string
	LanguageServers      *map[string][]string
	Formatters           *map[string]string
	ServerFeatures       *map[string][]string
}

// Empty reports whether the patch changes nothing.
func (p Patch) Empty() bool {
	return p.AutoStartLanguages == nil && p.AutoInstallLanguages == nil &&
		p.ServerConfigs == nil && p.StatusLocation == nil && p.LanguageServers == nil &&
		p.Formatters == nil && p.ServerFeatures == nil
}

// Apply returns s with the patch's fields replaced. p must come from
// DecodePatch (validated and normalized).
func (s Settings) Apply(p Patch) Settings {
	if p.AutoStartLanguages != nil {
		s.AutoStartLanguages = *p.AutoStartLanguages
	}
	if p.AutoInstallLanguages != nil {
		s.AutoInstallLanguages = *p.AutoInstallLanguages
	}
	if p.ServerConfigs != nil {
		s.ServerConfigs = *p.ServerConfigs
	}
	if p.StatusLocation != nil {
		s.StatusLocation = *p.StatusLocation
	}
	if p.LanguageServers != nil {
		s.LanguageServers = *p.LanguageServers
	}
	if p.Formatters != nil {
		s.Formatters = *p.Formatters
	}
	if p.ServerFeatures != nil {
		s.ServerFeatures = *p.ServerFeatures
	}
	return s
}

// FieldError is a rejected update. Field is always one of the
// top-level wire.Setting* names (what a settings form maps to a control);
// Message says what is wrong and, for list items and map keys, which one.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// ErrNotObject is returned (wrapped) when the body is not one JSON object.
var ErrNotObject = errors.New("settings: body must be one JSON object")

// DecodePatch reads one JSON object and validates it as a partial update.
//
// Rules (each failure is a *FieldError naming the field):
//   - Unknown top-level fields are rejected, not ignored: this API holds
//     only the lsp_* fields, so an unknown name is a typo (say
//     "lsp_auto_start_language") that would otherwise be silently lost.
//   - The two language lists take known language ids (wire.Languages);
//     null means empty; duplicates are dropped, first occurrence kept.
//   - lsp_auto_install_languages takes only languages that are
//     auto-installable on some task host (not Kotlin). It is not checked
//     against the relay's own OS.
//   - lsp_server_configs maps known language ids, or built-in server ids,
//     to JSON objects; null means empty.
//   - lsp_status_location is never an error: anything but "status_bar"
//     (a number, null, "sidebar") is stored as "toolbar".
//   - lsp_language_servers maps known language ids to lists of server
//     ids the built-in catalog lists for that language (an operator's
//     entries are the task host's, unknown here), each once; null means
//     empty, and an empty list, like a missing language, means the
//     default.
//   - lsp_formatters maps known language ids to a built-in server id of
//     that language; lsp_server_features maps built-in server ids to
//     lists of feature names (wire.Features).
func DecodePatch(r io.Reader) (Patch, error) { return Servers(nil).DecodePatch(r) }

// Servers are the servers a user may choose besides the built-in
// catalog's: an operator's catalog entries (the file the task hosts' agents
// are given, which the relay is given too), by id, with the languages each
// serves. Nil is the built-in catalog alone.
type Servers map[string][]string

// Serves reports whether id is a server of lang: built in, or the
// operator's.
func (s Servers) Serves(lang, id string) bool {
	return wire.BuiltinServes(wire.Language(lang), id) || slices.Contains(s[id], lang)
}

// Known reports whether id is a server of the catalog.
func (s Servers) Known(id string) bool {
	_, builtin := wire.BuiltinServer(id)
	return builtin || len(s[id]) > 0
}

// Of lists lang's servers: the built-in ones, its default first, then the
// operator's in id order.
func (s Servers) Of(lang string) []string {
	info, _ := wire.Lookup(lang)
	out := slices.Clone(info.Servers)
	for _, id := range slices.Sorted(maps.Keys(s)) {
		if slices.Contains(s[id], lang) {
			out = append(out, id)
		}
	}
	return out
}

// Clean drops from settings a store read back the servers this catalog
// lacks: a store keeps every well-formed id (it does not know the
// operator's entries), the relay answers and streams with what it serves.
func (s Servers) Clean(st Settings) Settings {
	servers := make(map[string][]string, len(st.LanguageServers))
	for lang, ids := range st.LanguageServers {
		keep := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return !s.Serves(lang, id) })
		if len(keep) > 0 {
			servers[lang] = keep
		}
	}
	formatters := make(map[string]string, len(st.Formatters))
	for lang, id := range st.Formatters {
		if s.Serves(lang, id) {
			formatters[lang] = id
		}
	}
	features := make(map[string][]string, len(st.ServerFeatures))
	for id, list := range st.ServerFeatures {
		if s.Known(id) {
			features[id] = list
		}
	}
	cfgs := make(map[string]json.RawMessage, len(st.ServerConfigs))
	for key, cfg := range st.ServerConfigs {
		if s.configKey(key) {
			cfgs[key] = cfg
		}
	}
	st.LanguageServers, st.Formatters, st.ServerFeatures, st.ServerConfigs = servers, formatters, features, cfgs
	return st
}

// DecodePatch is the package's DecodePatch, a server of the catalog
// being one of the built-in ones or of s.
func (s Servers) DecodePatch(r io.Reader) (Patch, error) {
	dec := json.NewDecoder(r)
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return Patch{}, fmt.Errorf("%w: %w", ErrNotObject, err)
	}
	if raw == nil { // the body was "null"
		return Patch{}, ErrNotObject
	}
	if _, err := dec.Token(); err != io.EOF {
		return Patch{}, fmt.Errorf("%w: data after the object", ErrNotObject)
	}
	// Report unknown fields in a stable order.
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	slices.Sort(names)

	var p Patch
	for _, name := range names {
		v := raw[name]
		switch name {
		case wire.SettingAutoStartLanguages:
			langs, err := decodeLanguages(name, v, false)
			if err != nil {
				return Patch{}, err
			}
			p.AutoStartLanguages = &langs
		case wire.SettingAutoInstallLanguages:
			langs, err := decodeLanguages(name, v, true)
			if err != nil {
				return Patch{}, err
			}
			p.AutoInstallLanguages = &langs
		case wire.SettingServerConfigs:
			cfgs, err := s.decodeServerConfigs(v)
			if err != nil {
				return Patch{}, err
			}
			p.ServerConfigs = &cfgs
		case wire.SettingStatusLocation:
			var s string
			_ = json.Unmarshal(v, &s) // not a string: normalized below
			s = NormalizeStatusLocation(s)
			p.StatusLocation = &s
		case wire.SettingLanguageServers:
			servers, err := s.decodeLanguageServers(v)
			if err != nil {
				return Patch{}, err
			}
			p.LanguageServers = &servers
		case wire.SettingFormatters:
			f, err := s.decodeFormatters(v)
			if err != nil {
				return Patch{}, err
			}
			p.Formatters = &f
		case wire.SettingServerFeatures:
			f, err := s.decodeServerFeatures(v)
			if err != nil {
				return Patch{}, err
			}
			p.ServerFeatures = &f
		default:
			return Patch{}, &FieldError{Field: name, Message: "unknown field"}
		}
	}
	return p, nil
}

func decodeLanguages(field string, v json.RawMessage, install bool) ([]string, error) {
	var list []string
	if err := json.Unmarshal(v, &list); err != nil {
		return nil, &FieldError{Field: field, Message: "must be an array of language ids"}
	}
	out := make([]string, 0, len(list))
	for _, lang := range list {
		info, ok := wire.Lookup(lang)
		switch {
		case !ok:
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("unknown language %q", lang)}
		case install && !info.AutoInstallable:
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("%q cannot be auto-installed; install its server on the task host", lang)}
		}
		if !slices.Contains(out, lang) {
			out = append(out, lang)
		}
	}
	return out, nil
}

func (s Servers) decodeServerConfigs(v json.RawMessage) (map[string]json.RawMessage, error) {
	const field = wire.SettingServerConfigs
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, &FieldError{Field: field, Message: "must be an object keyed by language or server id"}
	}
	out := make(map[string]json.RawMessage, len(m))
	for key, cfg := range m {
		if !s.configKey(key) {
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("unknown language or server %q", key)}
		}
		if !isObject(cfg) {
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("%q: must be a JSON object", key)}
		}
		out[key] = cfg
	}
	return out, nil
}

// configKey reports whether lsp_server_configs may hold key: a language
// id, or the id of a built-in server (no server id is a language id).
func (s Servers) configKey(key string) bool {
	if _, ok := wire.Lookup(key); ok {
		return true
	}
	return s.Known(key)
}

// storedID reports whether a stored id may stay when read back: a server
// of lang (built in), or an id of the right shape that is no built-in
// server's — an operator's entry, which a store does not know; a stream
// naming one the task host lacks is refused there.
func storedID(lang, id string) bool {
	if wire.BuiltinServes(wire.Language(lang), id) {
		return true
	}
	_, builtin := wire.BuiltinServer(id)
	return !builtin && wire.ValidServerID(id)
}

func (s Servers) decodeLanguageServers(v json.RawMessage) (map[string][]string, error) {
	const field = wire.SettingLanguageServers
	var m map[string][]string
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, &FieldError{Field: field, Message: "must be an object of language ids to arrays of server ids"}
	}
	out := make(map[string][]string, len(m))
	for _, lang := range slices.Sorted(maps.Keys(m)) {
		ids := m[lang]
		if _, ok := wire.Lookup(lang); !ok {
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("unknown language %q", lang)}
		}
		if len(ids) == 0 {
			continue // the default
		}
		for i, id := range ids {
			switch {
			case !s.Serves(lang, id):
				return nil, &FieldError{Field: field, Message: fmt.Sprintf("%q: unknown server %q (one of %s)", lang, id, strings.Join(s.Of(lang), ", "))}
			case slices.Contains(ids[:i], id):
				return nil, &FieldError{Field: field, Message: fmt.Sprintf("%q: server %q is listed twice", lang, id)}
			}
		}
		out[lang] = slices.Clone(ids)
	}
	return out, nil
}

func (s Servers) decodeFormatters(v json.RawMessage) (map[string]string, error) {
	const field = wire.SettingFormatters
	var m map[string]string
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, &FieldError{Field: field, Message: "must be an object of language ids to server ids"}
	}
	out := make(map[string]string, len(m))
	for _, lang := range slices.Sorted(maps.Keys(m)) {
		_, ok := wire.Lookup(lang)
		switch {
		case !ok:
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("unknown language %q", lang)}
		case m[lang] == "":
			continue // the first capable server
		case !s.Serves(lang, m[lang]):
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("%q: unknown server %q (one of %s)", lang, m[lang], strings.Join(s.Of(lang), ", "))}
		}
		out[lang] = m[lang]
	}
	return out, nil
}

func (s Servers) decodeServerFeatures(v json.RawMessage) (map[string][]string, error) {
	const field = wire.SettingServerFeatures
	var m map[string][]string
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, &FieldError{Field: field, Message: "must be an object of server ids to arrays of feature names"}
	}
	out := make(map[string][]string, len(m))
	for _, id := range slices.Sorted(maps.Keys(m)) {
		if !s.Known(id) {
			return nil, &FieldError{Field: field, Message: fmt.Sprintf("unknown server %q", id)}
		}
		list := []string{}
		for _, f := range m[id] {
			if !wire.IsFeature(f) {
				return nil, &FieldError{Field: field, Message: fmt.Sprintf("%q: unknown feature %q (one of %s)", id, f, strings.Join(wire.Features, ", "))}
			}
			if !slices.Contains(list, f) {
				list = append(list, f)
			}
		}
		out[id] = list
	}
	return out, nil
}

// isObject reports whether v (valid JSON, as json.Unmarshal left it) is an
// object.
func isObject(v json.RawMessage) bool {
	v = bytes.TrimLeft(v, " \t\r\n")
	return len(v) > 0 && v[0] == '{'
}

// normalize repairs values read back from storage, where a hand-edited or
// older database may hold anything: unknown languages are dropped rather
// than failing every later read.
func (s Settings) normalize() Settings {
	keep := func(list []string, install bool) []string {
		out := make([]string, 0, len(list))
		for _, l := range list {
			info, ok := wire.Lookup(l)
			if ok && (!install || info.AutoInstallable) && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
		return out
	}
	s.AutoStartLanguages = keep(s.AutoStartLanguages, false)
	s.AutoInstallLanguages = keep(s.AutoInstallLanguages, true)
	cfgs := make(map[string]json.RawMessage, len(s.ServerConfigs))
	for key, cfg := range s.ServerConfigs {
		if (Servers(nil).configKey(key) || wire.ValidServerID(key)) && isObject(cfg) {
			cfgs[key] = cfg
		}
	}
	s.ServerConfigs = cfgs
	s.StatusLocation = NormalizeStatusLocation(s.StatusLocation)
	servers := make(map[string][]string, len(s.LanguageServers))
	for lang, ids := range s.LanguageServers {
		var keep []string
		for _, id := range ids {
			if storedID(lang, id) && !slices.Contains(keep, id) {
				keep = append(keep, id)
			}
		}
		if len(keep) > 0 {
			servers[lang] = keep
		}
	}
	s.LanguageServers = servers
	formatters := make(map[string]string, len(s.Formatters))
	for lang, id := range s.Formatters {
		if _, known := wire.Lookup(lang); known && storedID(lang, id) {
			formatters[lang] = id
		}
	}
	s.Formatters = formatters
	features := make(map[string][]string, len(s.ServerFeatures))
	for id, list := range s.ServerFeatures {
		if wire.ValidServerID(id) && list != nil {
			features[id] = slices.DeleteFunc(slices.Clone(list), func(f string) bool { return !wire.IsFeature(f) })
		}
	}
	s.ServerFeatures = features
	return s
}

// decodeField sets the field stored under name from its JSON value. A value
// that no longer decodes keeps its default, and an unknown name (a newer
// program's field) is ignored: one bad field must not make every read
// fail. normalize repairs the rest.
func (s *Settings) decodeField(name string, value []byte) {
	switch name {
	case wire.SettingAutoStartLanguages:
		_ = json.Unmarshal(value, &s.AutoStartLanguages)
	case wire.SettingAutoInstallLanguages:
		_ = json.Unmarshal(value, &s.AutoInstallLanguages)
	case wire.SettingServerConfigs:
		_ = json.Unmarshal(value, &s.ServerConfigs)
	case wire.SettingStatusLocation:
		_ = json.Unmarshal(value, &s.StatusLocation)
	case wire.SettingLanguageServers:
		_ = json.Unmarshal(value, &s.LanguageServers)
	case wire.SettingFormatters:
		_ = json.Unmarshal(value, &s.Formatters)
	case wire.SettingServerFeatures:
		_ = json.Unmarshal(value, &s.ServerFeatures)
	}
}

// patchField is one field a patch sets: its stored name and its value.
type patchField struct {
	name  string
	value any
}

// fields lists the fields p sets, in the wire's order.
func (p Patch) fields() []patchField {
	var out []patchField
	add := func(name string, set bool, v any) {
		if set {
			out = append(out, patchField{name, v})
		}
	}
	add(wire.SettingAutoStartLanguages, p.AutoStartLanguages != nil, p.AutoStartLanguages)
	add(wire.SettingAutoInstallLanguages, p.AutoInstallLanguages != nil, p.AutoInstallLanguages)
	add(wire.SettingServerConfigs, p.ServerConfigs != nil, p.ServerConfigs)
	add(wire.SettingStatusLocation, p.StatusLocation != nil, p.StatusLocation)
	add(wire.SettingLanguageServers, p.LanguageServers != nil, p.LanguageServers)
	add(wire.SettingFormatters, p.Formatters != nil, p.Formatters)
	add(wire.SettingServerFeatures, p.ServerFeatures != nil, p.ServerFeatures)
	return out
}
