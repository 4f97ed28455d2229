// Package lspconform checks JSON-RPC messages against the Language Server
// Protocol's own types, as its published meta model gives them: every
// request and notification with its direction, params and result type, and
// every structure, enumeration and type alias of the specification. The
// meta model is read at test time (Find), never built into anything.
//
// A Conn follows one connection: it checks each message by its method,
// remembers the requests of each side so that a response is checked
// against its request's result type, and reports what does not match as
// an error naming the message and the path inside it. What the client
// under test sends is held to the letter — a property the type does not
// declare is an error, as a misspelt capability is one no server complains
// about; what a server sends may carry more (servers add their own
// members), and is otherwise checked alike.
package lspconform

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// MetaModelEnv names a meta model file to use instead of the one Find
// looks for beside the project.
const MetaModelEnv = "KANDEV_LSP_META_MODEL"

// metaName is the meta model's file name where the project's machines
// keep it: lsp/ in the shared folder beside the project's root.
const metaName = "metaModel-3.18.0.json"

// Find returns the meta model's path: $KANDEV_LSP_META_MODEL, else
// shared/lsp/metaModel-3.18.0.json in the folder that holds the root of
// the Go module the working directory is in. ok is false when there is
// none.
func Find() (path string, ok bool) {
	if p := os.Getenv(MetaModelEnv); p != "" {
		return p, true
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "..", "shared", "lsp", metaName)
			_, err := os.Stat(p)
			return p, err == nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// Model is a loaded meta model.
type Model struct {
	Version       string
	requests      map[string]*message
	notifications map[string]*message
	structures    map[string]*structure
	enumerations  map[string]*enumeration
	aliases       map[string]*typ
}

type message struct {
	Method    string `json:"method"`
	Direction string `json:"messageDirection"`
	Params    *typ   `json:"params"`
	Result    *typ   `json:"result"`
}

type property struct {
	Name     string `json:"name"`
	Type     *typ   `json:"type"`
	Optional bool   `json:"optional"`
}

type structure struct {
	Name       string     `json:"name"`
	Properties []property `json:"properties"`
	Extends    []*typ     `json:"extends"`
	Mixins     []*typ     `json:"mixins"`
}

type enumeration struct {
	Name   string `json:"name"`
	Type   *typ   `json:"type"`
	Values []struct {
		Value json.RawMessage `json:"value"`
	} `json:"values"`
	Custom bool `json:"supportsCustomValues"`
}

// typ is one of the meta model's type forms, by Kind: base (Name),
// reference (Name), array (Element), map (Key, Value), and, or, tuple
// (Items), literal (Value: a structure literal's properties),
// stringLiteral, integerLiteral, booleanLiteral (Value: the literal).
type typ struct {
	Kind    string          `json:"kind"`
	Name    string          `json:"name"`
	Element *typ            `json:"element"`
	Key     *typ            `json:"key"`
	Items   []*typ          `json:"items"`
	Raw     json.RawMessage `json:"value"`
	// ValueType is a map's value type (the meta model's "value", which a
	// literal uses for its properties: decoded apart, see UnmarshalJSON).
	ValueType *typ
	// Literal holds a structure literal's properties.
	Literal []property
}

func (t *typ) UnmarshalJSON(b []byte) error {
	type plain typ
	if err := json.Unmarshal(b, (*plain)(t)); err != nil {
		return err
	}
	switch t.Kind {
	case "map":
		t.ValueType = new(typ)
		return json.Unmarshal(t.Raw, t.ValueType)
	case "literal":
		var lit struct {
			Properties []property `json:"properties"`
		}
		if err := json.Unmarshal(t.Raw, &lit); err != nil {
			return err
		}
		t.Literal = lit.Properties
	}
	return nil
}

// Load reads a meta model file.
func Load(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw struct {
		MetaData struct {
			Version string `json:"version"`
		} `json:"metaData"`
		Requests      []*message     `json:"requests"`
		Notifications []*message     `json:"notifications"`
		Structures    []*structure   `json:"structures"`
		Enumerations  []*enumeration `json:"enumerations"`
		TypeAliases   []struct {
			Name string `json:"name"`
			Type *typ   `json:"type"`
		} `json:"typeAliases"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("lspconform: %s: %w", path, err)
	}
	if len(raw.Requests) == 0 || len(raw.Structures) == 0 {
		return nil, errors.New("lspconform: " + path + " is no meta model")
	}
	m := &Model{Version: raw.MetaData.Version, requests: map[string]*message{}, notifications: map[string]*message{},
		structures: map[string]*structure{}, enumerations: map[string]*enumeration{}, aliases: map[string]*typ{}}
	for _, r := range raw.Requests {
		m.requests[r.Method] = r
	}
	for _, n := range raw.Notifications {
		m.notifications[n.Method] = n
	}
	for _, s := range raw.Structures {
		m.structures[s.Name] = s
	}
	for _, e := range raw.Enumerations {
		m.enumerations[e.Name] = e
	}
	for _, a := range raw.TypeAliases {
		m.aliases[a.Name] = a.Type
	}
	return m, nil
}
