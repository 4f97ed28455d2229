package docsync

import (
	"encoding/json"
	"sync"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// sent is one recorded notification, params re-decoded from JSON.
type sent struct {
	conn   string
	method string
	params map[string]any
	raw    string
}

// recorder records the notifications of every connection in one order.
type recorder struct {
	mu  sync.Mutex
	log []sent
}

func (r *recorder) sender(conn string) Sender {
	return func(method string, params jsonlite.Appender) error {
		b := params.AppendJSON(nil)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		r.mu.Lock()
		r.log = append(r.log, sent{conn: conn, method: method, params: m, raw: string(b)})
		r.mu.Unlock()
		return nil
	}
}

func (r *recorder) take() []sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.log
	r.log = nil
	return out
}

// model is a fake Monaco model: text plus versionId.
type model struct {
	mu      sync.Mutex
	text    string
	version int
}

func (m *model) Text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.text
}
