//go:build js && wasm

package jsbind

import (
	"errors"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/require"
)

// When Install fails, lsp.wasm leaves the reason where the loader reads it;
// an evaluation the page's Content Security Policy refused (an EvalError)
// names the directive that would allow it.
func TestStartFailedSaysWhy(t *testing.T) {
	t.Cleanup(func() { _ = jsGlobal().Delete(StartErrorName) })
	refused := js.Error{Value: jsUnsafe(jsEval(t, `new EvalError("Evaluating a string as JavaScript violates the following Content Security Policy directive")`))}
	StartFailed(wrap("jsbind: newEditorBridge", refused))
	why := str(t, get(t, jsGlobal(), StartErrorName))
	require.Contains(t, why, "lsp.wasm could not start: jsbind: newEditorBridge: ")
	require.Contains(t, why, "must allow 'unsafe-eval' in script-src")

	StartFailed(errors.New("no WebSocket"))
	require.Equal(t, "lsp.wasm could not start: no WebSocket", str(t, get(t, jsGlobal(), StartErrorName)))
}
