package taskenv

import (
	"bytes"
	"io"
	"os"
)

// maxShebang bounds the first line read from a launcher: a script header,
// not the script.
const maxShebang = 256

// Interpreter returns the interpreter of a launcher script whose first line
// is "#!/usr/bin/env NAME" (npm's launchers are such scripts: "#!/usr/bin/env
// node"), found like a server is: in the task PATH, skipping relative entries
// and entries inside the task workspace. Started as it is, the kernel would
// let env search the whole task PATH, so a node planted in a workspace
// directory on that PATH (node_modules/.bin, a tools folder) would run the
// server; started as "NAME-path script args", it cannot.
//
// ok is false for anything else — a binary, a script with an absolute
// interpreter or env flags, a Windows host (whose launchers are .cmd shims
// run by cmd.exe), or a NAME not found — and the launcher then runs as it is.
func (e *Env) Interpreter(path string) (string, bool) {
	if e.GOOS == "windows" {
		return "", false
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, maxShebang)
	n, _ := io.ReadFull(f, head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("#!"))
	if !ok {
		return "", false
	}
	fields := bytes.Fields(rest)
	if len(fields) != 2 || string(fields[0]) != "/usr/bin/env" || bytes.HasPrefix(fields[1], []byte("-")) || bytes.ContainsRune(fields[1], '/') {
		return "", false
	}
	interp, err := e.LookPath(string(fields[1]))
	if err != nil {
		return "", false
	}
	return interp, true
}
