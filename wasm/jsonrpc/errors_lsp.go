package jsonrpc

// ErrServerCancelled is LSP's code (3.17) for a request the server
// cancelled itself; its data may say whether the client should ask again
// (DiagnosticServerCancellationData.retriggerRequest).
var ErrServerCancelled = NewError(-32802, "server cancelled")
