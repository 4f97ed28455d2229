package client

import (
	"errors"
	"strconv"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
)

// Message is a window/showMessage or window/showMessageRequest from a
// server, for the people using the editor. A request waits for their choice
// (Client.Respond) while the connection lives; the other messages of the
// connection are handled meanwhile.
type Message struct {
	// ID names a request for Respond; "" for a plain showMessage.
	ID        string
	SessionID string
	Language  string
	// Type is LSP's MessageType: 1 error, 2 warning, 3 info, 4 log (and
	// 5 debug in later versions).
	Type int
	// Text is the server's message, verbatim.
	Text string
	// Actions are the titles of a request's MessageActionItems, in order.
	Actions []string
}

// TypeName names Type for pages: "error", "warning", "info" or "log".
func (m Message) TypeName() string {
	switch m.Type {
	case 1:
		return "error"
	case 2:
		return "warning"
	case 3:
		return "info"
	}
	return "log"
}

// errMalformedMessage reports showMessage params of the wrong shape.
var errMalformedMessage = errors.New("malformed showMessage params")

// parseShowMessage decodes ShowMessageParams or ShowMessageRequestParams.
func parseShowMessage(params []byte) (typ int, text string, actions []string, err error) {
	v, err := jsonlite.Parse(params)
	if err != nil {
		return 0, "", nil, err
	}
	t, ok1 := v.Get("type").DecodeInt(32)
	text, ok2 := v.Get("message").DecodeString()
	acts := v.Get("actions")
	if !v.DecodeObject() || !ok1 || !ok2 || !acts.DecodeArray() {
		return 0, "", nil, errMalformedMessage
	}
	if acts.Kind() == jsonlite.Array {
		for _, a := range acts.Elems() {
			title, ok := a.Get("title").DecodeString()
			if !a.DecodeObject() || !ok {
				return 0, "", nil, errMalformedMessage
			}
			actions = append(actions, title)
		}
	}
	return int(t), text, actions, nil
}

// showMessage hands a server message to Config.OnMessage. For a request it
// returns the answer, computed later: the chosen action ({"title":...}) or
// null when the person dismissed it, nobody listens, or the connection
// ended first.
func (c *connection) showMessage(req *jsonrpc.Request) (jsonlite.Appender, error) {
	typ, text, actions, err := parseShowMessage(req.Params)
	if err != nil {
		if req.IsNotification() {
			c.cl.cfg.Logf("lsp: %s: %v", req.Method, err)
		}
		return nil, jsonrpc.NewError(jsonrpc.ErrInvalidParams.Code, err.Error())
	}
	cl := c.cl
	m := Message{SessionID: c.p.key.sessionID, Language: string(c.p.key.language), Type: typ, Text: text, Actions: actions}
	if req.IsNotification() {
		if cl.cfg.OnMessage != nil {
			cl.cfg.OnMessage(m)
		}
		return nil, nil
	}
	if cl.cfg.OnMessage == nil {
		return nil, nil // nobody to choose
	}
	choice := make(chan pick, 1)
	cl.mu.Lock()
	cl.msgSeq++
	m.ID = "m" + strconv.FormatUint(cl.msgSeq, 10)
	cl.asks[m.ID] = ask{choice: choice, actions: actions}
	cl.mu.Unlock()
	cl.cfg.OnMessage(m)
	return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
		defer func() {
			cl.mu.Lock()
			delete(cl.asks, m.ID)
			cl.mu.Unlock()
		}()
		var p pick
		select {
		case p = <-choice:
		case <-ctx.Done():
		case <-c.ctx.Done():
		}
		if !p.chosen {
			return nil, nil // dismissed: null
		}
		b := jsonlite.AppendString([]byte(`{"title":`), p.title)
		return jsonlite.Raw(append(b, '}')), nil
	}), nil
}

// ask is a showMessageRequest waiting for a choice.
type ask struct {
	choice  chan<- pick
	actions []string
}

// pick is the answer to an ask: an offered action, or none.
type pick struct {
	_      [0]func() // incomparable: spares lsp.wasm an equality function
	title  string
	chosen bool
}

// Respond answers the showMessageRequest id with the action titled title
// (chosen), or dismisses it (not chosen, or a title the server did not
// offer). It reports whether the request was still waiting.
func (c *Client) Respond(id, title string, chosen bool) bool {
	c.mu.Lock()
	a, ok := c.asks[id]
	delete(c.asks, id)
	c.mu.Unlock()
	if !ok {
		return false
	}
	offered := false
	for _, t := range a.actions {
		offered = offered || chosen && t == title
	}
	a.choice <- pick{title: title, chosen: offered}
	return true
}
