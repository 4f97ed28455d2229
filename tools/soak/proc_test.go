//go:build linux

package soak

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTailSince(t *testing.T) {
	tl := &tail{max: 8}
	_, _ = tl.Write([]byte("abcdef"))
	from := tl.Len()
	_, _ = tl.Write([]byte("ghij"))
	require.Equal(t, "ghij", tl.Since(from))
	require.Equal(t, "cdefghij", tl.String())
	// More after from than the tail holds: what it still has.
	_, _ = tl.Write([]byte("klmnopqrst"))
	require.Equal(t, "mnopqrst", tl.Since(from))
	require.Equal(t, "", tl.Since(tl.Len()))
}

// A Go program ended by Stacks writes its goroutines' stacks.
func TestStacksOfAGoProgram(t *testing.T) {
	goExe, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	dir := t.TempDir()
	src := dir + "/main.go"
	require.NoError(t, os.WriteFile(src, []byte(`package main

import "fmt"

func parked() { <-make(chan int) }

func main() {
	go parked()
	fmt.Println("listening on http://127.0.0.1:1")
	select {}
}
`), 0o644))
	bin := dir + "/prog"
	out, err := exec.Command(goExe, "build", "-o", bin, src).CombinedOutput()
	require.NoError(t, err, string(out))
	p, err := Start("prog", bin, nil, nil)
	require.NoError(t, err)
	stacks := p.Stacks(10 * time.Second)
	require.True(t, p.Exited())
	require.True(t, strings.Contains(stacks, "main.parked"), stacks)
}
