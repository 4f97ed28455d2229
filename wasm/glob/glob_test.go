package glob

import "testing"

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		// Literals.
		{"main.go", "main.go", true},
		{"main.go", "main.gox", false},
		{"main.go", "Main.go", false}, // case-sensitive
		{"", "", true},
		{"", "a", false},

		// * stays within a segment.
		{"*.go", "main.go", true},
		{"*.go", ".go", true},
		{"*.go", "cmd/main.go", false},
		{"cmd/*", "cmd/main.go", true},
		{"cmd/*", "cmd/sub/main.go", false},
		{"*", "", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY/c", false},
		{"a***b", "aXb", true},

		// ? is one character, never "/", counted in runes.
		{"?.go", "a.go", true},
		{"?.go", "ab.go", false},
		{"a?b", "a/b", false},
		{"?.go", "ü.go", true},
		{"??.go", "ü.go", false},

		// ** is any number of whole segments.
		{"**/*.go", "main.go", true},
		{"**/*.go", "a/b/c/main.go", true},
		{"**/*.go", "/abs/task/main.go", true},
		{"**/*.go", "main.ts", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"a/**", "a/x", true},
		{"a/**", "a/x/y", true},
		{"a/**", "b/x", false},
		{"**", "anything/at/all", true},
		{"**", "", true},
		{"x**y", "xABy", true},   // not a whole segment: a "*"
		{"x**y", "xA/By", false}, // so it stays in the segment
		{"**/node_modules/**", "web/node_modules/react/index.js", true},
		{"**/.git/**", "repo/.git/HEAD", true},

		// {a,b} groups, with globs inside and nested.
		{"**/*.{go,mod,sum,work,tmpl}", "greet/greet.go", true},
		{"**/*.{go,mod,sum,work,tmpl}", "go.mod", true},
		{"**/*.{go,mod,sum,work,tmpl}", "go.modx", false},
		{"**/*.{go,mod,sum,work,tmpl}", "README.md", false},
		{"{src,lib}/**/*.ts", "lib/a/b.ts", true},
		{"{src,lib}/**/*.ts", "test/a.ts", false},
		{"{**/*.py,pyproject.toml}", "pkg/mod.py", true},
		{"{**/*.py,pyproject.toml}", "pyproject.toml", true},
		{"*.{ts,{js,jsx}}", "a.jsx", true},
		{"*.{ts,{js,jsx}}", "a.tsx", false},
		{"{,x}a", "a", true},   // an empty alternative
		{"{a,b", "{a,b", true}, // never closed: literal
		{"{a,b", "a", false},

		// [...] classes, ranges and negation.
		{"file[0-9].txt", "file7.txt", true},
		{"file[0-9].txt", "fileA.txt", false},
		{"file[!0-9].txt", "fileA.txt", true},
		{"file[!0-9].txt", "file7.txt", false},
		{"file[^0-9].txt", "file7.txt", false},
		{"[abc]", "b", true},
		{"[abc]", "d", false},
		{"[a-cx-z]", "y", true},
		{"[]]", "]", true},
		{"[!]]", "a", true},
		{"[ä-ö]", "ö", true},
		{"a[/]b", "a/b", false}, // never matches a separator
		{"[ab", "[ab", true},    // never closed: literal
	}
	for _, c := range cases {
		if got := Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

// Patterns as gopls and the TypeScript server register them, against the
// paths a task host reports.
func TestServerPatterns(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"/srv/task/**/*.{go,mod,sum,work,tmpl}", "/srv/task/greet/greet.go", true},
		{"/srv/task/**/*.{go,mod,sum,work,tmpl}", "/srv/other/greet.go", false},
		{"**/*.{ts,tsx,js,jsx,mjs,cjs,json}", "ts/greet.ts", true},
		{"**/*", "ts/greet.ts", true},
		{"**/*", "greet.ts", true},
	} {
		if got := Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("**/*.{go,mod}", "a/b.go")
	f.Add("[!a-z]?{x,{y,z}}*", "1qz")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if len(pattern) > 64 || len(name) > 64 {
			return // bounded: patterns are short, and * backtracks
		}
		_ = Match(pattern, name) // never panics
		if literalSafe(name) && !Match(name, name) {
			t.Errorf("a pattern without glob characters must match itself: %q", name)
		}
	})
}

// literalSafe reports whether s has no glob syntax, so it matches itself.
func literalSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '{', '}', ',', ']':
			return false
		}
	}
	return true
}
