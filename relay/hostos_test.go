package relay

import (
	"bufio"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// osDependentRelayFiles are the files of the relay's build that may depend
// on the OS (or architecture) the relay runs on, by path from the module
// root, each with what it does there. None decides anything about a task
// host: the OS that decides auto-install is the task host's, which only
// its agent knows.
var osDependentRelayFiles = map[string]string{
	// Task stop of an agent the relay started itself: SIGTERM, or the
	// agent's stop route where the relay's OS cannot deliver SIGTERM.
	"relay/executor/process.go": "runtime.GOOS",
	// How the relay starts such an agent: a process group, and on Linux
	// death with the relay.
	"relay/executor/procattr_linux.go":  "built for some platforms only",
	"relay/executor/procattr_other.go":  "built for some platforms only",
	"relay/executor/procattr_nounix.go": "built for some platforms only",
}

// platforms are the GOOS/GOARCH pairs a relay file is checked against: a
// file built for some of them and not others depends on the relay's OS.
var platforms = [][2]string{
	{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"}, {"freebsd", "amd64"}, {"openbsd", "amd64"},
	{"netbsd", "amd64"}, {"dragonfly", "amd64"}, {"solaris", "amd64"}, {"illumos", "amd64"},
	{"aix", "ppc64"}, {"plan9", "amd64"}, {"android", "arm64"}, {"ios", "arm64"},
	{"js", "wasm"}, {"wasip1", "wasm"},
}

// Spec: Rust auto-install is decided by the task host's OS, not the
// backend's. TestAutoInstallComesFromSettings shows the relay passing the
// preference on unchanged, but only on the OS the tests run on, where
// rust-analyzer can be installed anyway; a relay on Windows is not run
// here. So this checks the source instead: no code the relay is built from
// (every package under relay/ and every package of this module they
// import, whatever the platform) reads runtime.GOOS or runtime.GOARCH, or
// is compiled for some platforms only, except osDependentRelayFiles. A
// relay on Windows is then built from the same preference code as this
// one, and answers as TestAutoInstallComesFromSettings shows.
func TestRelayBuildNeverReadsItsOS(t *testing.T) {
	t.Parallel()
	root, module := moduleRoot(t)

	var queue []string
	require.NoError(t, filepath.WalkDir(filepath.Join(root, "relay"), func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			return filepath.SkipDir
		}
		queue = append(queue, p)
		return nil
	}))
	seen := map[string]bool{}
	found := map[string]string{}
	fset := token.NewFileSet()
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		rel, err := filepath.Rel(root, dir)
		require.NoError(t, err)
		rel = filepath.ToSlash(rel)
		if seen[rel] {
			continue
		}
		seen[rel] = true
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			builtFor := buildsFor(t, dir, name)
			if builtFor == 0 {
				continue // a generator (//go:build ignore): not the relay's code
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			var what []string
			if builtFor < len(platforms) {
				what = append(what, "built for some platforms only")
			}
			what = append(what, platformReads(f)...)
			if len(what) > 0 {
				found[rel+"/"+name] = strings.Join(what, ", ")
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if sub, ok := strings.CutPrefix(p, module+"/"); ok {
					queue = append(queue, filepath.Join(root, filepath.FromSlash(sub)))
				}
			}
		}
	}
	// The walk reached the code that decides: the stream route, the
	// settings store and the language table the runtime route serves.
	for _, dir := range []string{"relay", "relay/settings", "internal/wire"} {
		require.True(t, seen[dir], "%s is part of the relay's build", dir)
	}
	require.Equal(t, osDependentRelayFiles, found,
		"a relay file that depends on the relay's own OS: the task host's OS decides, and only its agent knows it")
}

// moduleRoot returns the module's root directory and path, from go.mod
// one level up from the relay package.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := filepath.Abs("..")
	require.NoError(t, err)
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return dir, strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod names no module")
	return "", ""
}

// buildsFor counts the platforms whose build includes the file, by Go's
// own rules: file name suffixes and //go:build lines. Cgo counts as
// available, so no file is left out for wanting it.
func buildsFor(t *testing.T, dir, name string) int {
	t.Helper()
	n := 0
	for _, p := range platforms {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = p[0], p[1], true
		ok, err := ctx.MatchFile(dir, name)
		require.NoError(t, err)
		if ok {
			n++
		}
	}
	return n
}

// platformReads lists the file's reads of runtime.GOOS and runtime.GOARCH,
// under whatever name it imports runtime; a dot import of runtime counts
// as a read, since GOOS then needs no qualifier.
func platformReads(f *ast.File) []string {
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "runtime" {
			local = "runtime"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	switch local {
	case "", "_":
		return nil
	case ".":
		return []string{"dot import of runtime"}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && (sel.Sel.Name == "GOOS" || sel.Sel.Name == "GOARCH") {
			out = append(out, "runtime."+sel.Sel.Name)
		}
		return true
	})
	return out
}
