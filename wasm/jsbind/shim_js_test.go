//go:build js && wasm

package jsbind

import (
	"os"
	"testing"
)

// shimJS is shim.js as it is now: an edit of the file without go generate
// would leave lsp.wasm with the old shim.
func TestShimJSIsShimFile(t *testing.T) {
	src, err := os.ReadFile("shim.js")
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != shimJS {
		t.Error("shimjs.go is older than shim.js: run GOOS=js GOARCH=wasm go generate ./wasm/jsbind")
	}
}
