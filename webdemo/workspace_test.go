package webdemo

import (
	"os"
	"path/filepath"
	"testing"
)

// The sample's node_modules (its pinned eslint) is linked, not copied: the
// workspace's node_modules is a symlink to the sample's, by absolute path,
// even when the sample is named by a relative one, so the packages resolve
// from the workspace copy; the sample's own files are still copies.
func TestNewWorkspaceLinksNodeModules(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "sample")
	pkg := filepath.Join(src, "node_modules", "eslint")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"eslint"}`), 0o644)
	os.WriteFile(filepath.Join(src, "eslint.config.js"), []byte("export default [];\n"), 0o644)
	t.Chdir(root)
	ws, err := NewWorkspace("sample")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(ws)

	link := filepath.Join(ws, "node_modules")
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("node_modules is not a link: %v, %v", fi, err)
	}
	if target, _ := os.Readlink(link); target != filepath.Join(src, "node_modules") {
		t.Fatalf("node_modules -> %q, not the sample's by absolute path", target)
	}
	if b, err := os.ReadFile(filepath.Join(link, "eslint", "package.json")); err != nil || string(b) != `{"name":"eslint"}` {
		t.Fatalf("a package through the link: %q, %v", b, err)
	}
	if fi, err := os.Lstat(filepath.Join(ws, "eslint.config.js")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("eslint.config.js is not a copy: %v, %v", fi, err)
	}
}
