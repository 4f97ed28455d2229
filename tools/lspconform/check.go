package lspconform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Side is who sent a message.
type Side int

// The two sides of a connection.
const (
	// Client: the client under test, held to the letter.
	Client Side = iota
	// Server: the language server (or a test playing one).
	Server
)

func (s Side) String() string {
	if s == Client {
		return "client"
	}
	return "server"
}

// Conn checks the messages of one connection in the order they pass.
// It is safe for concurrent use.
type Conn struct {
	// Replays: the connection may resume on another socket and send again
	// what the other side missed, so an answer to no known request is
	// passed over rather than an error.
	Replays bool

	m       *Model
	mu      sync.Mutex
	pending [2]map[string]string // by the requesting side: id → method
	// asked are the server's own notifications "P/request" seen so far:
	// the client may answer one with "P/response" (Vue's tsserver/request
	// and tsserver/response), a protocol of that server's, not of LSP.
	asked map[string]bool
}

// NewConn starts checking a connection.
func (m *Model) NewConn() *Conn {
	return &Conn{m: m, pending: [2]map[string]string{{}, {}}, asked: map[string]bool{}}
}

// Check checks one message sent by from: a request or notification by its
// method (known to the protocol, in a direction from may send it, params
// of its type), a response by the result type of the request it answers.
// A frame that is no JSON-RPC message (no "jsonrpc" member: the task
// host's own frames) is not the protocol's and passes. The error names
// the method and the path inside the message.
func (c *Conn) Check(from Side, frame []byte) error {
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(frame, &msg); err != nil {
		return fmt.Errorf("%s sent no JSON object: %v", from, err)
	}
	if msg.JSONRPC == "" {
		return nil
	}
	if msg.JSONRPC != "2.0" {
		return fmt.Errorf("%s sent jsonrpc %q", from, msg.JSONRPC)
	}
	strict := from == Client
	id := string(msg.ID)
	switch {
	case msg.Method != nil && id != "":
		method := *msg.Method
		c.mu.Lock()
		c.pending[from][id] = method
		c.mu.Unlock()
		r := c.m.requests[method]
		if r == nil {
			if strings.HasPrefix(method, "$/") || !strict {
				return nil // implementation-dependent, or a server's own
			}
			return fmt.Errorf("%s request %s: no such request in LSP %s", from, method, c.m.Version)
		}
		if err := direction(from, r); err != nil {
			return fmt.Errorf("%s request %s: %v", from, method, err)
		}
		return c.params(from, "request "+method, r.Params, msg.Params, strict)
	case msg.Method != nil:
		method := *msg.Method
		n := c.m.notifications[method]
		if n == nil {
			c.mu.Lock()
			defer c.mu.Unlock()
			if p, ok := strings.CutSuffix(method, "/request"); ok && !strict {
				c.asked[p] = true
			}
			if p, ok := strings.CutSuffix(method, "/response"); ok && strict && c.asked[p] {
				return nil // the answer to the server's own request
			}
			if strings.HasPrefix(method, "$/") || !strict {
				return nil
			}
			return fmt.Errorf("%s notification %s: no such notification in LSP %s", from, method, c.m.Version)
		}
		if err := direction(from, n); err != nil {
			return fmt.Errorf("%s notification %s: %v", from, method, err)
		}
		return c.params(from, "notification "+method, n.Params, msg.Params, strict)
	default:
		asker := Server
		if from == Server {
			asker = Client
		}
		c.mu.Lock()
		method, ok := c.pending[asker][id]
		delete(c.pending[asker], id)
		c.mu.Unlock()
		if msg.Error != nil {
			var e struct {
				Code    *float64 `json:"code"`
				Message *string  `json:"message"`
			}
			if json.Unmarshal(msg.Error, &e) != nil || e.Code == nil || e.Message == nil {
				return fmt.Errorf("%s error response to %s: an error needs a code and a message: %s", from, method, msg.Error)
			}
			return nil
		}
		if !ok {
			if strict && !c.Replays {
				return fmt.Errorf("%s response %s answers no request", from, id)
			}
			return nil
		}
		r := c.m.requests[method]
		if r == nil || r.Result == nil {
			return nil // a method the protocol does not know: nothing to hold it to
		}
		if msg.Result == nil {
			return fmt.Errorf("%s response to %s: neither result nor error", from, method)
		}
		if !strict && string(msg.Result) == "null" {
			// A server's null where the result is an array (Vue's server
			// for documentColor) reads as none, like its optional nulls.
			return nil
		}
		v := checker{m: c.m, strict: strict}
		if err := v.value(r.Result, msg.Result, "result"); err != nil {
			return fmt.Errorf("%s response to %s: %v", from, method, err)
		}
		return nil
	}
}

// Record notes a request from sent past Check (a test's deliberately
// malformed one), so that the answer to it is checked all the same.
func (c *Conn) Record(from Side, frame []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if json.Unmarshal(frame, &msg) == nil && msg.Method != nil && msg.ID != nil {
		c.mu.Lock()
		c.pending[from][string(msg.ID)] = *msg.Method
		c.mu.Unlock()
	}
}

func direction(from Side, m *message) error {
	switch {
	case m.Direction == "both",
		from == Client && m.Direction == "clientToServer",
		from == Server && m.Direction == "serverToClient":
		return nil
	}
	return fmt.Errorf("only sent %s", m.Direction)
}

func (c *Conn) params(from Side, what string, want *typ, got json.RawMessage, strict bool) error {
	if want == nil {
		if len(got) > 0 && !bytes.Equal(got, []byte("null")) && strict {
			return fmt.Errorf("%s %s: takes no params, got %s", from, what, abbrev(got))
		}
		return nil
	}
	if got == nil {
		return fmt.Errorf("%s %s: params missing", from, what)
	}
	v := checker{m: c.m, strict: strict}
	if err := v.value(want, got, "params"); err != nil {
		return fmt.Errorf("%s %s: %v", from, what, err)
	}
	return nil
}

// checker holds one value to a type.
type checker struct {
	m      *Model
	strict bool
}

func (v checker) value(t *typ, raw json.RawMessage, path string) error {
	switch t.Kind {
	case "base":
		return v.base(t.Name, raw, path)
	case "reference":
		if s := v.m.structures[t.Name]; s != nil {
			return v.object(v.props(s), raw, path, t.Name)
		}
		if e := v.m.enumerations[t.Name]; e != nil {
			return v.enum(e, raw, path)
		}
		if a := v.m.aliases[t.Name]; a != nil {
			return v.value(a, raw, path)
		}
		return fmt.Errorf("%s: the model has no type %s", path, t.Name)
	case "array":
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil || items == nil {
			return fmt.Errorf("%s: want an array, got %s", path, abbrev(raw))
		}
		for i, it := range items {
			if err := v.value(t.Element, it, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case "tuple":
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil || len(items) != len(t.Items) {
			return fmt.Errorf("%s: want a tuple of %d, got %s", path, len(t.Items), abbrev(raw))
		}
		for i, it := range items {
			if err := v.value(t.Items[i], it, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case "map":
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || obj == nil {
			return fmt.Errorf("%s: want an object, got %s", path, abbrev(raw))
		}
		for _, k := range sortedKeys(obj) {
			if err := v.value(t.ValueType, obj[k], path+"."+k); err != nil {
				return err
			}
		}
		return nil
	case "literal":
		return v.object(t.Literal, raw, path, "literal")
	case "stringLiteral", "integerLiteral", "booleanLiteral":
		if !jsonEqual(raw, t.Raw) {
			return fmt.Errorf("%s: want %s, got %s", path, t.Raw, abbrev(raw))
		}
		return nil
	case "or":
		var first error
		for _, it := range t.Items {
			err := v.value(it, raw, path)
			if err == nil {
				return nil
			}
			if first == nil || deeper(err, first) {
				first = err
			}
		}
		return fmt.Errorf("%s: matches none of %s (nearest: %v)", path, names(t.Items), first)
	case "and":
		// Every part's properties together, each part's rules on them.
		var props []property
		for _, it := range t.Items {
			p, err := v.propsOf(it)
			if err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			props = append(props, p...)
		}
		return v.object(props, raw, path, names(t.Items))
	}
	return fmt.Errorf("%s: unknown type kind %q", path, t.Kind)
}

func (v checker) base(name string, raw json.RawMessage, path string) error {
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	ok := false
	switch name {
	case "string", "URI", "DocumentUri", "RegExp":
		_, ok = x.(string)
	case "boolean":
		_, ok = x.(bool)
	case "null":
		ok = x == nil
	case "decimal":
		_, ok = x.(float64)
	case "integer":
		f, isNum := x.(float64)
		ok = isNum && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32
	case "uinteger":
		f, isNum := x.(float64)
		ok = isNum && f == math.Trunc(f) && f >= 0 && f <= math.MaxInt32
	default:
		return fmt.Errorf("%s: unknown base type %s", path, name)
	}
	if !ok {
		return fmt.Errorf("%s: want %s, got %s", path, name, abbrev(raw))
	}
	return nil
}

func (v checker) enum(e *enumeration, raw json.RawMessage, path string) error {
	if err := v.base(e.Type.Name, raw, path); err != nil {
		return fmt.Errorf("%s (%s)", err, e.Name)
	}
	if e.Custom {
		return nil
	}
	for _, x := range e.Values {
		if jsonEqual(raw, x.Value) {
			return nil
		}
	}
	return fmt.Errorf("%s: %s is no %s", path, abbrev(raw), e.Name)
}

// props is a structure's properties with those of what it extends and
// mixes in.
func (v checker) props(s *structure) []property {
	out := slices.Clone(s.Properties)
	for _, t := range append(slices.Clone(s.Extends), s.Mixins...) {
		p, _ := v.propsOf(t)
		out = append(out, p...)
	}
	return out
}

func (v checker) propsOf(t *typ) ([]property, error) {
	switch t.Kind {
	case "reference":
		if s := v.m.structures[t.Name]; s != nil {
			return v.props(s), nil
		}
		if a := v.m.aliases[t.Name]; a != nil {
			return v.propsOf(a)
		}
	case "literal":
		return t.Literal, nil
	}
	return nil, fmt.Errorf("%s is no structure", names([]*typ{t}))
}

// object holds a JSON object to properties: each present one to its type,
// every required one present, and (strict) no other.
func (v checker) object(props []property, raw json.RawMessage, path, name string) error {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return fmt.Errorf("%s: want %s (an object), got %s", path, name, abbrev(raw))
	}
	// A structure's own declaration of a property comes first in props
	// and narrows an inherited one: the first of each name is the rule.
	done := map[string]bool{}
	for _, p := range props {
		if done[p.Name] {
			continue
		}
		done[p.Name] = true
		got, ok := obj[p.Name]
		if !ok {
			if !p.Optional {
				return fmt.Errorf("%s.%s: missing (required by %s)", path, p.Name, name)
			}
			continue
		}
		if !v.strict && p.Optional && string(got) == "null" {
			// A server's optional property sent as null (pylsp's
			// containerName) reads as absent in every client, lsp.wasm's
			// included; what lsp.wasm sends is held to the letter.
			continue
		}
		if err := v.value(p.Type, got, path+"."+p.Name); err != nil {
			return err
		}
	}
	if v.strict {
		declared := map[string]bool{}
		for _, p := range props {
			declared[p.Name] = true
		}
		for _, k := range sortedKeys(obj) {
			if !declared[k] {
				return fmt.Errorf("%s.%s: %s declares no such property", path, k, name)
			}
		}
	}
	return nil
}

func names(ts []*typ) string {
	var out []string
	for _, t := range ts {
		switch t.Kind {
		case "base", "reference":
			out = append(out, t.Name)
		case "array":
			out = append(out, names([]*typ{t.Element})+"[]")
		default:
			out = append(out, t.Kind)
		}
	}
	return strings.Join(out, " | ")
}

// deeper prefers the error that got further into the value: the nearest
// alternative of an or is the one to report.
func deeper(a, b error) bool {
	return strings.Count(a.Error(), ".")+strings.Count(a.Error(), "[") > strings.Count(b.Error(), ".")+strings.Count(b.Error(), "[")
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func abbrev(raw json.RawMessage) string {
	if len(raw) > 80 {
		return string(raw[:77]) + "…"
	}
	return string(raw)
}
