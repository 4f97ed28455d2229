//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sameMemory runs same-memory.mjs on two modules, returning its output.
func sameMemory(t *testing.T, a, b []byte) (string, error) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.wasm"), filepath.Join(dir, "b.wasm")
	if err := os.WriteFile(pa, a, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "same-memory.mjs", pa, pb).CombinedOutput()
	return string(out), err
}

// The start function, run by a WebAssembly engine, writes the table back.
func TestStartFunctionRunsInNode(t *testing.T) {
	mem, _ := testMemory()
	in := testWasm(mem)
	out, err := rewrite(in)
	if err != nil {
		t.Fatal(err)
	}
	if msg, err := sameMemory(t, in, out); err != nil {
		t.Fatalf("same-memory.mjs: %v\n%s", err, msg)
	}
	// And the check sees a module whose table is missing.
	var noStart []section
	secs, _ := parseModule(out)
	for _, s := range secs {
		if s.id != secStart {
			noStart = append(noStart, s)
		}
	}
	if _, err := sameMemory(t, in, encodeModule(noStart)); err == nil {
		t.Fatal("same-memory.mjs passed a module without the table")
	}
}
