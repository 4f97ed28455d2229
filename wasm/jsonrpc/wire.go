package jsonrpc

import (
	"strconv"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// The envelope is read and written by hand (package jsonlite): lsp.wasm
// cannot afford encoding/json's reflection, and an envelope has six
// members. Params and results stay raw; their owners decode them.

// message is every JSON-RPC 2.0 message shape at once, as received. Which
// members are present decides the kind: id+method is a request, method alone
// a notification, id alone a response. Raw members hold their JSON (the
// literal null included); an absent member is nil.
type message struct {
	ID     jsonlite.Raw
	Method string
	Params jsonlite.Raw
	Result jsonlite.Raw
	Error  *Error
}

// parseMessage decodes one incoming message; ok is false for a message that
// is not an object of the expected member types (there is nobody to answer).
// The message is validated and its members read in one pass: a response
// puts its result (a completion list can be tens of kilobytes) before its
// id, and looking each member up on its own would skip over the result once
// per lookup.
func parseMessage(data []byte) (m message, ok bool) {
	var version, method, e jsonlite.Value
	err := jsonlite.ParseObject(data, func(k string, x jsonlite.Value) {
		// The last of a repeated member counts, as with Value.Get.
		switch k {
		case "jsonrpc":
			version = x
		case "method":
			method = x
		case "id":
			m.ID = x.Raw()
		case "params":
			m.Params = x.Raw()
		case "result":
			m.Result = x.Raw()
		case "error":
			e = x
		}
	})
	if err != nil {
		// A literal null decodes to an empty message, as encoding/json
		// would decode it.
		v, err := jsonlite.Parse(data)
		return message{}, err == nil && v.IsNull()
	}
	if _, ok := version.DecodeString(); !ok {
		return message{}, false
	}
	if m.Method, ok = method.DecodeString(); !ok {
		return message{}, false
	}
	if e.Exists() && !e.IsNull() {
		code, ok1 := e.Get("code").DecodeInt(64)
		msg, ok2 := e.Get("message").DecodeString()
		if e.Kind() != jsonlite.Object || !ok1 || !ok2 {
			return message{}, false
		}
		m.Error = &Error{Code: code, Message: msg, Data: e.Get("data").Raw()}
	}
	return m, true
}

// appendRequest writes a request, or a notification when id is nil. nil
// params are omitted.
func appendRequest(b []byte, id *int64, method string, params jsonlite.Raw) []byte {
	b = jsonlite.AppendLit(b, `{"jsonrpc":"2.0"`)
	if id != nil {
		b = jsonlite.AppendLit(b, `,"id":`)
		b = strconv.AppendInt(b, *id, 10)
	}
	b = jsonlite.AppendLit(b, `,"method":`)
	b = jsonlite.AppendString(b, method)
	if params != nil {
		b = jsonlite.AppendLit(b, `,"params":`)
		b = append(b, params...)
	}
	return append(b, '}')
}

// appendResponse writes a response: the error when there is one, else the
// result, which is always present (null when nil), as JSON-RPC 2.0 requires.
func appendResponse(b []byte, id jsonlite.Raw, result jsonlite.Raw, e *Error) []byte {
	b = jsonlite.AppendLit(b, `{"jsonrpc":"2.0","id":`)
	b = jsonlite.AppendRaw(b, id)
	if e != nil {
		b = jsonlite.AppendLit(b, `,"error":`)
		b = e.AppendJSON(b)
	} else {
		b = jsonlite.AppendLit(b, `,"result":`)
		b = jsonlite.AppendRaw(b, result)
	}
	return append(b, '}')
}

// isNullID reports whether a raw id is absent or JSON null.
func isNullID(id jsonlite.Raw) bool {
	return len(id) == 0 || string(id) == "null"
}

// callID parses the id of a response to one of our calls. Calls use integer
// ids, so anything else cannot be ours.
func callID(id jsonlite.Raw) (int64, bool) {
	return jsonlite.ParseInt(string(id), 64)
}

// marshalParams encodes params, leaving nil (and an empty Raw) as "omitted".
func marshalParams(params jsonlite.Appender) jsonlite.Raw {
	if params == nil {
		return nil
	}
	if raw, ok := params.(jsonlite.Raw); ok {
		return raw
	}
	return params.AppendJSON(nil)
}
