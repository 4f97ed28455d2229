//go:build js && wasm

// Command lsp is lsp.wasm, the browser client of Kandev LSP. It only wires:
// it installs globalThis.kandevLSP (see package jsbind for the API) and then
// keeps the Go runtime alive for the page's lifetime.
package main

import (
	"github.com/kandev/lsp/wasm/jsbind"
)

// version is set at build time with -ldflags '-X main.version=...'.
var version = "dev"

func main() {
	if err := jsbind.Install(version); err != nil {
		// Nothing can work without the API object: say why, for the page
		// and the loader, rather than panic with a goroutine dump.
		jsbind.StartFailed(err)
		return
	}
	select {}
}
