package workspace

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// repoDepth is how deep RepoSubpaths looks below the workspace: Kandev lays
// out a task as the repository itself or as a directory of checked-out
// repositories, so two levels cover both without walking whole trees.
const repoDepth = 2

// RepoSubpaths returns the repositories in the workspace as sorted
// slash-separated relative paths, "." for the workspace itself. A repository
// is a directory with a .git entry (a directory, or a file for worktrees and
// submodules). Hidden directories and node_modules are not searched, nor is
// the inside of a repository already found.
func (r *Root) RepoSubpaths() []string {
	var repos []string
	_ = fs.WalkDir(r.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != "." && (strings.HasPrefix(d.Name(), ".") || skipDirs[d.Name()]) {
			return fs.SkipDir
		}
		if _, err := r.root.Lstat(path.Join(p, ".git")); err == nil {
			repos = append(repos, p)
			if p != "." {
				return fs.SkipDir
			}
		}
		if p != "." && strings.Count(p, "/")+1 >= repoDepth {
			return fs.SkipDir
		}
		return nil
	})
	sort.Strings(repos)
	return repos
}
