// Package framing reads and writes the LSP base protocol's Content-Length
// framing over plain io.Reader and io.Writer values, so it works on pipes and
// sockets alike and is tested without either.
//
// The agent never parses JSON-RPC bodies: it only strips framing from a
// language server's stdout and adds it on stdin. That is why this is a small
// package of its own rather than a JSON-RPC library, which would add copies.
//
// Every size is bounded before anything is allocated: a header line, the
// header block and the announced body length (wire.MaxMessageSize). A peer
// announcing a larger body gets ErrTooLarge and no allocation.
package framing
