package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The shell commands the documentation shows (the sh blocks of README.md,
// docs/ and wasm/API.md, and the "$ " lines of its plain blocks) must work
// as written: every task they run exists, every flag of kandev-relay and
// kandev-agent they pass is one the program defines, every variable they
// set is one it reads, every file and package they name is in the tree and
// every image they run is one the tree builds. A command of a kind this
// test does not know fails it, so a new kind of command gets a check
// before it lands. (The README's own two commands are also what CI runs.)
func TestDocumentedCommandsWork(t *testing.T) {
	root := ".."
	tasks := taskNames(t, root)
	flags := map[string][]string{
		"kandev-relay": programFlags(t, root, "./relay/cmd/kandev-relay"),
		"kandev-agent": programFlags(t, root, "./agent/cmd/kandev-agent"),
	}
	taskImage := regexp.MustCompile(`(?m)^\s*TASK_IMAGE:\s*'?([^'\s]+)'?`).FindStringSubmatch(read(t, root, "Taskfile.yml"))
	if taskImage == nil {
		t.Fatal("Taskfile.yml names no TASK_IMAGE")
	}

	docs := []string{"README.md", "wasm/API.md"}
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, m := range more {
		rel, _ := filepath.Rel(root, m)
		docs = append(docs, rel)
	}
	checked := 0
	for _, doc := range docs {
		for _, c := range commands(read(t, root, doc)) {
			checked++
			where := doc + ": " + c.line
			switch args := c.args; {
			case len(args) >= 4 && args[0] == "go" && args[1] == "run" && strings.HasPrefix(args[2], "github.com/go-task/task/v3/cmd/task@"):
				for _, name := range append(args[3:4], c.alsoTasks...) {
					if !slices.Contains(tasks, name) {
						t.Errorf("%s: no task %q in Taskfile.yml", where, name)
					}
				}
			case args[0] == "kandev-relay" || args[0] == "kandev-agent":
				for _, a := range args[1:] {
					if name, ok := strings.CutPrefix(a, "-"); ok && !slices.Contains(flags[args[0]], strings.TrimPrefix(name, "-")) {
						t.Errorf("%s: %s has no flag %s", where, args[0], a)
					}
				}
				for _, v := range c.env {
					if !readsVariable(t, root, v) {
						t.Errorf("%s: nothing reads %s", where, v)
					}
				}
			case args[0] == "go" && args[1] == "build":
				pkg := args[len(args)-1]
				if _, err := os.Stat(filepath.Join(root, pkg)); err != nil {
					t.Errorf("%s: no package %s", where, pkg)
				}
			case args[0] == "docker" && args[1] == "build":
				file := valueOf(args, "-f")
				dockerfile := read(t, root, file)
				if arg := valueOf(args, "--build-arg"); arg != "" && !strings.Contains(dockerfile, "ARG "+strings.SplitN(arg, "=", 2)[0]) {
					t.Errorf("%s: %s has no ARG for %s", where, file, arg)
				}
				c.block.images = append(c.block.images, valueOf(args, "-t"))
			case args[0] == "docker" && (args[1] == "create" || args[1] == "run"):
				image := args[len(args)-1]
				if image != taskImage[1] && !slices.Contains(c.block.images, image) {
					t.Errorf("%s: runs image %s, which neither the tree nor the block builds", where, image)
				}
			case slices.Contains([]string{"export", "mkdir", "cat"}, args[0]):
				// Plain shell: setting a variable, a folder, a heredoc.
			default:
				t.Errorf("%s: a command this test does not check", where)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d documented commands found: the parsing missed the docs", checked)
	}
}

// command is one documented shell command, continuation lines joined.
type command struct {
	line      string
	args      []string
	env       []string // NAME of leading NAME=value assignments
	alsoTasks []string // tasks a trailing "# or a, b" comment names
	block     *block
}

// block is what one fenced block has done so far: the images it built.
type block struct{ images []string }

var (
	fence      = regexp.MustCompile("(?s)```(\\w*)\n(.*?)```")
	assignment = regexp.MustCompile(`^[A-Z][A-Z0-9_]*=`)
)

// commands returns the shell commands of a Markdown document: every line
// of its sh blocks (heredoc bodies skipped) and the "$ " lines of its
// plain blocks.
func commands(doc string) []command {
	var out []command
	for _, m := range fence.FindAllStringSubmatch(doc, -1) {
		lang, body := m[1], m[2]
		if lang != "sh" && lang != "" {
			continue
		}
		b := &block{}
		lines := strings.Split(strings.ReplaceAll(body, "\\\n", " "), "\n")
		for i := 0; i < len(lines); i++ {
			line := strings.TrimSpace(lines[i])
			if lang == "" {
				var ok bool
				if line, ok = strings.CutPrefix(line, "$ "); !ok {
					continue
				}
			}
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if at := strings.Index(line, "<<"); at >= 0 { // skip the heredoc's body
				end := strings.TrimSpace(line[at+2:])
				for i++; i < len(lines) && strings.TrimSpace(lines[i]) != end; i++ {
				}
			}
			c := command{line: line, block: b}
			code, comment, _ := strings.Cut(line, "#")
			if rest, ok := strings.CutPrefix(strings.TrimSpace(comment), "or "); ok {
				for _, name := range strings.Split(rest, ",") {
					c.alsoTasks = append(c.alsoTasks, strings.TrimSpace(name))
				}
			}
			parts := strings.SplitN(code, "&&", 2)
			for _, f := range strings.Fields(parts[len(parts)-1]) {
				if len(c.args) == 0 && assignment.MatchString(f) {
					c.env = append(c.env, strings.SplitN(f, "=", 2)[0])
					continue
				}
				c.args = append(c.args, f)
			}
			if len(parts) == 2 {
				// "mkdir -p ctx && go build …": two commands.
				out = append(out, command{line: line, args: strings.Fields(parts[0]), block: b})
			}
			if len(c.args) > 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// valueOf returns the argument after flag in args, or "".
func valueOf(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// taskNames lists the tasks Taskfile.yml defines.
func taskNames(t *testing.T, root string) []string {
	t.Helper()
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z][a-z0-9:-]*):\s*$`).FindAllStringSubmatch(read(t, root, "Taskfile.yml"), -1) {
		names = append(names, m[1])
	}
	return names
}

// programFlags builds a program and lists the flags its -h prints.
func programFlags(t *testing.T, root, pkg string) []string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	build := exec.Command("go", "build", "-o", bin, pkg)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	out, _ := exec.Command(bin, "-h").CombinedOutput() // -h exits 0 or 2
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(string(out), -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatalf("%s -h printed no flags:\n%s", pkg, out)
	}
	return names
}

// readsVariable reports whether a non-test Go file of the tree names the
// environment variable.
func readsVariable(t *testing.T, root, name string) bool {
	t.Helper()
	found := false
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || found {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			b, _ := os.ReadFile(p)
			found = strings.Contains(string(b), `"`+name+`"`)
		}
		return nil
	})
	return found
}

func read(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
