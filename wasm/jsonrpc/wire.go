package jsonrpc

import (
	"encoding/json"
	"strconv"
)

// message is every JSON-RPC 2.0 message shape at once, for decoding. Which
// fields are present decides the kind: id+method is a request, method alone a
// notification, id alone a response.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// outRequest is a request or a notification (ID nil) as sent.
type outRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int64          `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// outResponse is a response as sent. Result is always present on success,
// even when it is null, as JSON-RPC 2.0 requires.
type outResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

var null = json.RawMessage("null")

// isNullID reports whether a raw id is absent or JSON null.
func isNullID(id json.RawMessage) bool {
	return len(id) == 0 || string(id) == "null"
}

// callID parses the id of a response to one of our calls. Calls use integer
// ids, so anything else cannot be ours.
func callID(id json.RawMessage) (int64, bool) {
	n, err := strconv.ParseInt(string(id), 10, 64)
	return n, err == nil
}

// marshalParams encodes params, leaving nil as "omitted".
func marshalParams(params any) (json.RawMessage, error) {
	if params == nil {
		return nil, nil
	}
	if raw, ok := params.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(params)
}
