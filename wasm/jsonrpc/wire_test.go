package jsonrpc

import (
	"encoding/json"
	"testing"
)

// parseMessage drops exactly what decoding the envelope with encoding/json
// would have rejected, and keeps raw members as encoding/json.RawMessage does.
func TestParseMessageMatchesEncodingJSON(t *testing.T) {
	type envelope struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   *Error          `json:"error"`
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1]}}`,
		`{"jsonrpc":"2.0","method":"n","params":null}`,
		`{"jsonrpc":"2.0","id":"x","result":null}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no","data":{"d":1}}}`,
		`{"jsonrpc":"2.0","id":3,"error":null}`,
		`{"jsonrpc":2,"id":1}`, `{"method":5}`, `{"error":{"code":"x"}}`, `{"error":[]}`,
		`[]`, `null`, `{`, `{"id":1,"result":[1,2]} `,
		`{"jsonrpc":"2.0","result":{"items":[{"label":"x"}]},"id":7}`, `{"id":1,"id":2,"jsonrpc":"2.0","result":1}`,
		`{"jso\u006erpc":"2.0","id":1,"result":2}`, ` { "jsonrpc" : "2.0" , "method" : "m" } `, `{"jsonrpc":"2.0","result":[1,}`, `{"id":1}x`, `{"id" 1}`, `{,}`,
	} {
		var want envelope
		werr := json.Unmarshal([]byte(s), &want)
		got, ok := parseMessage([]byte(s))
		if ok != (werr == nil) {
			t.Errorf("parseMessage(%s) ok = %v; encoding/json: %v", s, ok, werr)
			continue
		}
		if !ok {
			continue
		}
		if string(got.ID) != string(want.ID) || got.Method != want.Method || string(got.Params) != string(want.Params) || string(got.Result) != string(want.Result) {
			t.Errorf("parseMessage(%s) = %+v, want %+v", s, got, want)
		}
		if (got.Error == nil) != (want.Error == nil) || got.Error != nil && (got.Error.Code != want.Error.Code || got.Error.Message != want.Error.Message || string(got.Error.Data) != string(want.Error.Data)) {
			t.Errorf("parseMessage(%s) error = %+v, want %+v", s, got.Error, want.Error)
		}
	}
}

func TestAppendEnvelopes(t *testing.T) {
	id := int64(4)
	for got, want := range map[string]string{
		string(appendRequest(nil, &id, "a/b", []byte(`{"x":1}`))):                      `{"jsonrpc":"2.0","id":4,"method":"a/b","params":{"x":1}}`,
		string(appendRequest(nil, nil, "n", nil)):                                      `{"jsonrpc":"2.0","method":"n"}`,
		string(appendResponse(nil, []byte(`"s"`), nil, nil)):                           `{"jsonrpc":"2.0","id":"s","result":null}`,
		string(appendResponse(nil, []byte(`1`), []byte(`[1]`), nil)):                   `{"jsonrpc":"2.0","id":1,"result":[1]}`,
		string(appendResponse(nil, []byte(`1`), nil, NewError(-32601, "no \"such\""))): `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no \"such\""}}`,
	} {
		if got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
	if got := (&Error{Code: 1, Message: "m", Data: []byte(`{"k":true}`)}).AppendJSON(nil); string(got) != `{"code":1,"message":"m","data":{"k":true}}` {
		t.Errorf("Error.AppendJSON = %s", got)
	}
}
