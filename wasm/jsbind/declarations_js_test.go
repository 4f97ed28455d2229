//go:build js && wasm

package jsbind

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/stretchr/testify/require"
)

// declarationsFile is the TypeScript declarations of the ES module
// package (wasm/js), which integrators type-check their code against.
const declarationsFile = "../js/index.d.ts"

// declared parses the interfaces of the declarations file: for each
// `export interface Name {`, its members up to the `}` that closes it at
// the start of a line, and which of them are optional (`name?:`).
func declared(t *testing.T) map[string]map[string]bool {
	t.Helper()
	src, err := os.ReadFile(declarationsFile)
	require.NoError(t, err)
	head := regexp.MustCompile(`^export interface (\w+)`)
	member := regexp.MustCompile(`^  (?:readonly )?(\w+)(\??)[:(]`)
	out := map[string]map[string]bool{}
	var cur map[string]bool
	for _, line := range strings.Split(string(src), "\n") {
		switch m := head.FindStringSubmatch(line); {
		case m != nil:
			cur = map[string]bool{}
			out[m[1]] = cur
		case strings.HasPrefix(line, "}"):
			cur = nil
		case cur != nil:
			if m := member.FindStringSubmatch(line); m != nil {
				cur[m[1]] = m[2] == "?"
			}
		}
	}
	return out
}

// recorder wraps an object in a Proxy that records every property the Go
// side reads: what an options object must declare.
const recorder = `(function (target) {
	const seen = [];
	const proxy = new Proxy(target, { get(t, k, r) { if (typeof k === 'string' && !seen.includes(k)) seen.push(k); return Reflect.get(t, k, r); } });
	return { proxy, seen };
})`

func strings_(t *testing.T, v jsValue) []string {
	t.Helper()
	var out []string
	for i := range length(t, v) {
		out = append(out, str(t, index(t, v, i)))
	}
	return out
}

func keys(t *testing.T, v jsValue) []string {
	t.Helper()
	o, err := jsGlobal().Get("Object")
	require.NoError(t, err)
	return strings_(t, call(t, o, "keys", v))
}

// record calls method with a recording proxy of options and returns the
// result and the properties the Go side read.
func record(t *testing.T, lsp jsValue, method string, options map[string]any) (jsValue, []string) {
	t.Helper()
	r, err := jsEval(t, recorder).Invoke(jsUnsafe(obj(t, options)))
	require.NoError(t, err)
	res := call(t, lsp, method, get(t, r, "proxy"))
	return res, strings_(t, get(t, r, "seen"))
}

// TestDeclarationsCoverTheAPI fails when lsp.wasm exports a function, reads
// an option or returns a field that wasm/js/index.d.ts does not declare
// (or declares one that is gone). It asks the running API itself — the
// object's own keys, the properties configure, openDocument and surface
// read, the fields view and surface answer — so a new function or option
// needs no list kept here: only its declaration, in the interface named
// by the failure.
func TestDeclarationsCoverTheAPI(t *testing.T) {
	decl := declared(t)
	ctor := jsEval(t, fakeWebSocket)
	a := newAPI("v", func() (jsValue, error) { return ctor, nil }, func() (jsValue, error) { return jsEval(t, fakeStorage), nil })
	a.clock = &clocktest.Manual{}
	lsp, err := a.object()
	require.NoError(t, err)

	// exact: the interface declares these and nothing else. Optional
	// members may be absent from an answer (StatusView.message), but an
	// options interface declares only what the Go side reads.
	exact := func(iface string, got []string, answer bool) {
		t.Helper()
		members, ok := decl[iface]
		require.True(t, ok, "%s declares no interface %s", declarationsFile, iface)
		for _, k := range got {
			require.Contains(t, members, k, "lsp.wasm has %q, but interface %s in %s does not declare it: add it there", k, iface, declarationsFile)
		}
		for k, optional := range members {
			require.True(t, (answer && optional) || slices.Contains(got, k), "interface %s in %s declares %q, which lsp.wasm does not have", iface, declarationsFile, k)
		}
	}

	exact("KandevLSP", keys(t, lsp), false)

	res, read := record(t, lsp, "configure", map[string]any{"monaco": jsEval(t, fakeMonaco), "relayURL": "ws://h/lsp"})
	require.True(t, mustBool(t, res))
	exact("ConfigureOptions", read, false)

	_, read = record(t, lsp, "openDocument", map[string]any{"sessionId": "demo", "path": "main.go", "model": jsEval(t, fakeModel)})
	exact("OpenDocumentOptions", read, false)

	surface, read := record(t, lsp, "surface", map[string]any{})
	exact("SurfaceOptions", read, false)
	exact("Surface", keys(t, surface), true)

	exact("StatusView", keys(t, call(t, lsp, "view", "demo", "go")), true)
	call(t, lsp, "dispose")
}

// memory() reports the Go runtime's live heap, which a benchmark weighs
// beside the WebAssembly memory's size: positive, and within what the
// runtime took.
func TestMemoryReportsTheGoHeap(t *testing.T) {
	ctor := jsEval(t, fakeWebSocket)
	a := newAPI("v", func() (jsValue, error) { return ctor, nil }, func() (jsValue, error) { return jsEval(t, fakeStorage), nil })
	a.clock = &clocktest.Manual{}
	lsp, err := a.object()
	require.NoError(t, err)
	m := call(t, lsp, "memory")
	num := func(k string) float64 {
		f, err := get(t, m, k).Float()
		require.NoError(t, err, k)
		return f
	}
	inUse, objects, sys := num("goHeapInUse"), num("goHeapObjects"), num("goSys")
	require.Positive(t, inUse)
	require.Positive(t, objects)
	require.GreaterOrEqual(t, sys, inUse)
	call(t, lsp, "dispose")
}
