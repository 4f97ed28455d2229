package jsonrpc

import (
	"errors"
	"strconv"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// Error is a JSON-RPC error object. Two Errors match under errors.Is when
// their codes are equal, so callers test for categories with the package
// values: errors.Is(err, jsonrpc.ErrMethodNotFound).
type Error struct {
	Code    int64        `json:"code"`
	Message string       `json:"message"`
	Data    jsonlite.Raw `json:"data,omitempty"`
}

// NewError returns an Error with the given code and message.
func NewError(code int64, message string) *Error {
	return &Error{Code: code, Message: message}
}

func (e *Error) Error() string {
	return "jsonrpc: " + e.Message + " (" + strconv.FormatInt(e.Code, 10) + ")"
}

// AppendJSON appends the error object.
func (e *Error) AppendJSON(b []byte) []byte {
	b = jsonlite.AppendLit(b, `{"code":`)
	b = strconv.AppendInt(b, e.Code, 10)
	b = jsonlite.AppendLit(b, `,"message":`)
	b = jsonlite.AppendString(b, e.Message)
	if len(e.Data) > 0 {
		b = jsonlite.AppendLit(b, `,"data":`)
		b = append(b, e.Data...)
	}
	return append(b, '}')
}

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// JSON-RPC 2.0 and LSP error codes.
var (
	ErrParse          = NewError(-32700, "parse error")
	ErrInvalidRequest = NewError(-32600, "invalid request")
	ErrMethodNotFound = NewError(-32601, "method not found")
	ErrInvalidParams  = NewError(-32602, "invalid params")
	ErrInternal       = NewError(-32603, "internal error")
	// ErrServerNotInitialized is LSP's code for a request before initialize.
	ErrServerNotInitialized = NewError(-32002, "server not initialized")
	// ErrRequestCancelled is LSP's code for a request cancelled by the client.
	ErrRequestCancelled = NewError(-32800, "request cancelled")
	// ErrContentModified is LSP's code for a request whose answer the
	// server dropped because the document changed meanwhile.
	ErrContentModified = NewError(-32801, "content modified")
)

// ErrClosed is returned by calls on a connection whose transport has ended.
// The transport's own error, if any, is available from Conn.Err.
var ErrClosed = errors.New("jsonrpc: connection closed")

// toWireError turns a handler error into the error object sent to the peer.
// An *Error passes through; anything else becomes an internal error that
// keeps its text.
func toWireError(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return &Error{Code: ErrInternal.Code, Message: err.Error()}
}
