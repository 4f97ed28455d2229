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
// let env search the PATH it is given, so a node planted in a workspace
// directory on that PATH (node_modules/.bin, a tools folder) would run the
// server; started as "NAME-path script args", it cannot.
//
// It returns "" and no error for anything else — a binary, a script with
// an absolute interpreter or env flags, a Windows host (whose launchers are
// .cmd shims run by cmd.exe) — which then runs as it is, with the confined
// PATH of ServerList. A launcher whose NAME is found nowhere outside the
// workspace is an error wrapping ErrNotFound: the interpreter is missing
// from the task host, and the launcher must not run at all, since any PATH
// search left to it could only find the repository's.
func (e *Env) Interpreter(path string) (string, error) {
	if e.GOOS == "windows" {
		return "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", nil // the start itself reports a file that will not open
	}
	defer f.Close()
	head := make([]byte, maxShebang)
	n, _ := io.ReadFull(f, head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("#!"))
	if !ok {
		return "", nil
	}
	fields := bytes.Fields(rest)
	if len(fields) != 2 || string(fields[0]) != "/usr/bin/env" || bytes.HasPrefix(fields[1], []byte("-")) || bytes.ContainsRune(fields[1], '/') {
		return "", nil
	}
	return e.LookPath(string(fields[1]))
}
