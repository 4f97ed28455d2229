package catalogfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// NPMLock is the npm project of an npm recipe: what an install writes into
// its staging directory and hands to `npm ci --ignore-scripts`, which
// installs exactly the locked tree or fails.
type NPMLock struct {
	// PackageJSON depends on exactly the recipe's packages.
	PackageJSON []byte
	// PackageLock is the package-lock.json (lockfileVersion 2 or 3) of
	// that package.json.
	PackageLock []byte
}

// lockfile is the part of a package-lock.json checked here.
type lockfile struct {
	LockfileVersion int                    `json:"lockfileVersion"`
	Packages        map[string]lockPackage `json:"packages"`
}

type lockPackage struct {
	Version      string            `json:"version"`
	Resolved     string            `json:"resolved"`
	Integrity    string            `json:"integrity"`
	Link         bool              `json:"link"`
	InBundle     bool              `json:"inBundle"`
	Dependencies map[string]string `json:"dependencies"`
	Bin          json.RawMessage   `json:"bin"`
	OS           []string          `json:"os"`
	CPU          []string          `json:"cpu"`
}

// npmOS and npmCPU map npm's os and cpu names to Go's.
var (
	npmOS  = map[string]string{"linux": "linux", "darwin": "darwin", "win32": "windows", "freebsd": "freebsd"}
	npmCPU = map[string]string{"x64": "amd64", "arm64": "arm64", "ia32": "386", "arm": "arm"}
)

// ExecutablePlatforms returns the "goos/goarch" platforms the locked
// package holding executable runs on, by its os and cpu fields (npm's
// names mapped to Go's, sorted), or nil when it names none: a native
// binary's package is made for one platform.
func ExecutablePlatforms(lock *NPMLock, executable string) []string {
	var lf lockfile
	if lock == nil || executable == "" || json.Unmarshal(lock.PackageLock, &lf) != nil {
		return nil
	}
	for path, p := range lf.Packages {
		name, ok := strings.CutPrefix(path, "node_modules/")
		if !ok || !strings.HasPrefix(executable, name+"/") || len(p.OS) == 0 || len(p.CPU) == 0 {
			continue
		}
		var out []string
		for _, o := range p.OS {
			for _, c := range p.CPU {
				if goos, goarch := npmOS[o], npmCPU[c]; goos != "" && goarch != "" {
					out = append(out, goos+"/"+goarch)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// exactVersion is a semver version without a range: what an exact npm pin
// and a go install version (after its "v") look like.
var exactVersion = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// npmName is an npm package name, scoped or not.
var npmName = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$`)

// SplitNPMSpec splits an exact npm pin "name@version" ("@scope/name@1.2.3"
// too) and reports whether it is one: a valid name and an exact version,
// never a range, tag or URL.
func SplitNPMSpec(spec string) (name, version string, ok bool) {
	i := strings.LastIndexByte(spec, '@')
	if i <= 0 {
		return "", "", false
	}
	name, version = spec[:i], spec[i+1:]
	return name, version, npmName.MatchString(name) && len(name) <= 214 && exactVersion.MatchString(version)
}

// CheckLock checks that lock pins the whole tree of packages (exact
// name@version specs) and provides command: package.json depends on
// exactly the specs, the lockfile's root agrees and holds each at its
// version, one of them has command as a bin, and every other package is
// fetched from an https URL with a sha512 integrity — or comes inside its
// parent's tarball (inBundle), which that integrity covers. Links to local
// directories are refused: nothing would check what they hold. With an
// executable (Recipe.Executable), one of the pins holds that file in
// place of a bin.
func CheckLock(lock *NPMLock, packages []string, command, executable string) error {
	if lock == nil {
		return errors.New("no lockfile")
	}
	want := map[string]string{}
	for _, spec := range packages {
		name, version, ok := SplitNPMSpec(spec)
		if !ok {
			return fmt.Errorf("%q is not an exact npm pin (name@1.2.3)", spec)
		}
		want[name] = version
	}
	if len(want) == 0 {
		return errors.New("no packages")
	}
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(lock.PackageJSON, &manifest); err != nil {
		return fmt.Errorf("package.json: %w", err)
	}
	if !maps.Equal(want, manifest.Dependencies) {
		return fmt.Errorf("package.json depends on %v, not exactly the pins %v", manifest.Dependencies, want)
	}
	var lf lockfile
	if err := json.Unmarshal(lock.PackageLock, &lf); err != nil {
		return fmt.Errorf("package-lock.json: %w", err)
	}
	if lf.LockfileVersion != 2 && lf.LockfileVersion != 3 {
		return fmt.Errorf("package-lock.json: lockfileVersion %d, want 2 or 3", lf.LockfileVersion)
	}
	if root := lf.Packages[""]; !maps.Equal(want, root.Dependencies) {
		return fmt.Errorf("package-lock.json: its root depends on %v, not on the pins %v", root.Dependencies, want)
	}
	hasCommand := false
	for name, version := range want {
		p, ok := lf.Packages["node_modules/"+name]
		if !ok || p.Version != version {
			return fmt.Errorf("package-lock.json: %s is locked at %q, not %s", name, p.Version, version)
		}
		var bins map[string]string
		_ = json.Unmarshal(p.Bin, &bins)
		if _, ok := bins[command]; ok && executable == "" {
			hasCommand = true
		}
		if strings.HasPrefix(executable, name+"/") {
			hasCommand = true
		}
	}
	if !hasCommand && executable != "" {
		return fmt.Errorf("package-lock.json: none of %v holds %s", slices.Sorted(maps.Keys(want)), executable)
	}
	if !hasCommand {
		return fmt.Errorf("package-lock.json: none of %v has a %q bin", slices.Sorted(maps.Keys(want)), command)
	}
	for _, path := range slices.Sorted(maps.Keys(lf.Packages)) {
		p := lf.Packages[path]
		switch {
		case path == "":
		case p.Link:
			return fmt.Errorf("package-lock.json: %s is a link to a local directory", path)
		case p.InBundle:
		case !strings.HasPrefix(p.Resolved, "https://"):
			return fmt.Errorf("package-lock.json: %s is not fetched from an https URL (resolved %q)", path, p.Resolved)
		case !strings.HasPrefix(p.Integrity, "sha512-"):
			return fmt.Errorf("package-lock.json: %s has no sha512 integrity (%q)", path, p.Integrity)
		}
	}
	return nil
}
