package catalogfile

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// A built-in file of two languages and three servers: the table parsed,
// comments allowed, AutoInstallable derived, npm lockfiles read from their
// folder.
func TestParseBuiltinFile(t *testing.T) {
	t.Parallel()
	const lock = `{"lockfileVersion":3,"packages":{"":{"dependencies":{"tl":"1.0.0"}},` +
		`"node_modules/tl":{"version":"1.0.0","resolved":"https://registry.npmjs.org/tl/-/tl-1.0.0.tgz","integrity":"sha512-x","bin":{"tl":"bin/tl"}}}}`
	fsys := fstest.MapFS{
		"npm/tl/package.json":      {Data: []byte(`{"dependencies":{"tl":"1.0.0"}}`)},
		"npm/tl/package-lock.json": {Data: []byte(lock)},
	}
	file := `// a comment, and one after a value with "//" in a string
	{"languages": [
	  {"id": "toml", "name": "TOML", "extensions": [".toml"], "fileNames": ["cargo.lock"], "monacoIds": ["toml"],
	   "languageIds": {"cargo.lock": "toml"}, "servers": ["tl", "hand"]}, // url: "https://x"
	  {"id": "ini", "name": "INI", "patterns": ["*.ini"], "monacoIds": ["ini"], "servers": ["hand2"], "experimental": true}],
	 "servers": [
	  {"id": "tl", "languages": ["toml"], "command": "tl", "install": {"kind": "npm", "packages": ["tl@1.0.0"], "lockfile": "npm/tl/package-lock.json"}},
	  {"id": "hand", "languages": ["toml"], "command": "hand", "install": {"kind": "manual"}},
	  {"id": "hand2", "languages": ["ini"], "command": "hand", "install": {"kind": "manual", "guidance": "see https://example.com"}}]}`
	f, err := Parse([]byte(file), Options{Builtin: true, FS: fsys})
	require.NoError(t, err)
	require.Equal(t, []wire.LanguageInfo{
		{Language: "toml", DisplayName: "TOML", Extensions: []string{".toml"}, FileNames: []string{"cargo.lock"}, MonacoIDs: []string{"toml"},
			LanguageIDs: map[string]string{"cargo.lock": "toml"}, Servers: []string{"tl", "hand"}, AutoInstallable: true},
		{Language: "ini", DisplayName: "INI", Patterns: []string{"*.ini"}, MonacoIDs: []string{"ini"}, Servers: []string{"hand2"}, Experimental: true},
	}, f.Languages)
	require.Equal(t, "tl", f.Servers[0].Install.Managed, "the lockfile's folder")
	require.Equal(t, lock, string(f.Servers[0].Install.Lock.PackageLock))
	require.Equal(t, "see https://example.com", f.Servers[2].Install.Guidance, "// inside a string is no comment")

	for _, c := range []struct{ from, to, want string }{
		{`"id": "toml"`, `"id": "TOML"`, `languages[0]: field id: required: a lower-case language id`},
		{`"name": "TOML", `, ``, `language "toml" (languages[0]): field name: required`},
		{`[".toml"]`, `["toml"]`, `language "toml" (languages[0]): field extensions: "toml" is not a lower-case extension`},
		{`["*.ini"]`, `[".toml"]`, `language "ini" (languages[1]): field patterns: ".toml" belongs to "toml" already`},
		{`"monacoIds": ["ini"], `, ``, `language "ini" (languages[1]): field monacoIds: required`},
		{`{"cargo.lock": "toml"}`, `{".ini": "toml"}`, `field languageIds: ".ini" is none of the language's`},
		{`"servers": ["hand2"]`, `"servers": ["nobody"]`, `language "ini" (languages[1]): field servers: "nobody" is no server of the file`},
		{`["tl", "hand"]`, `["tl"]`, `language "toml" (languages[0]): field servers: server "hand" serves it but is not listed`},
		{`"experimental": true`, `"colour": "red"`, `language "ini" (languages[1]): field colour: unknown field`},
		{`"languages": ["ini"]`, `"languages": ["cobol"]`, `server "hand2" (servers[2]): field languages: unknown language "cobol"`},
		{`"lockfile": "npm/tl/package-lock.json"`, `"lockfile": "npm/tl/lock.json"`, `server "tl" (servers[0]): field install.lockfile: required: the path of a package-lock.json`},
		{`"lockfile": "npm/tl/package-lock.json"`, `"lockfile": "npm/xx/package-lock.json"`, `server "tl" (servers[0]): field install.lockfile: open npm/xx/package-lock.json`},
	} {
		require.Contains(t, file, c.from)
		_, err := Parse([]byte(strings.Replace(file, c.from, c.to, 1)), Options{Builtin: true, FS: fsys})
		require.ErrorContains(t, err, c.want, c.to)
		require.True(t, strings.HasPrefix(err.Error(), "built-in catalog: "), err.Error())
	}

	// A package that ships a native binary without a bin: the server's file
	// in node_modules, named by the command, inside one of the pins.
	native := `"lockfile": "npm/tl/package-lock.json", "executable": "tl/native/tl"`
	f, err = Parse([]byte(strings.Replace(file, `"lockfile": "npm/tl/package-lock.json"`, native, 1)), Options{Builtin: true, FS: fsys})
	require.NoError(t, err)
	require.Equal(t, "tl/native/tl", f.Servers[0].Install.Executable)
	require.Nil(t, f.Servers[0].Install.Platforms, "a package without os and cpu runs anywhere")
	platformLock := &NPMLock{PackageLock: []byte(`{"packages":{"node_modules/tl":{"os":["linux","darwin"],"cpu":["x64","arm64","riscv"]}}}`)}
	require.Equal(t, []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64"}, ExecutablePlatforms(platformLock, "tl/native/tl"))
	require.Nil(t, ExecutablePlatforms(platformLock, ""), "a launcher's install")
	require.Empty(t, f.Servers[1].Install.Executable)
	for _, c := range []struct{ executable, want string }{
		{"tl/native/other", `field install.executable: must be the slash-separated path of the file "tl" inside node_modules`},
		{"tl/../../tl", `field install.executable: must be`},
		{"/tl/tl", `field install.executable: must be`},
		{"tl", `field install.executable: must be`},
		{"other/tl", `field install.lockfile: package-lock.json: none of [tl] holds other/tl`},
	} {
		_, err := Parse([]byte(strings.Replace(file, `"lockfile": "npm/tl/package-lock.json"`, `"lockfile": "npm/tl/package-lock.json", "executable": "`+c.executable+`"`, 1)), Options{Builtin: true, FS: fsys})
		require.ErrorContains(t, err, c.want, c.executable)
	}

	// A server a file gets beside the default unless the user chooses.
	beside := strings.Replace(file, `"servers": ["tl", "hand"]}`, `"servers": ["tl", "hand"], "besideDefault": ["hand"]}`, 1)
	f, err = Parse([]byte(beside), Options{Builtin: true, FS: fsys})
	require.NoError(t, err)
	require.Equal(t, []string{"hand"}, f.Languages[0].BesideDefault)
	require.Nil(t, f.Languages[1].BesideDefault)
	for _, bad := range []string{`["tl"]`, `["hand", "hand"]`, `[]`, `"hand"`} {
		_, err := Parse([]byte(strings.Replace(beside, `"besideDefault": ["hand"]`, `"besideDefault": `+bad, 1)), Options{Builtin: true, FS: fsys})
		require.ErrorContains(t, err, `language "toml" (languages[0]): field besideDefault: `, bad)
	}

	// ${installDir}: the managed directory, which a manual install has not.
	_, err = Parse([]byte(strings.Replace(file, `"command": "hand", "install": {"kind": "manual"}`, `"command": "hand", "install": {"kind": "manual"}, "initializationOptions": {"p": "${installDir}/x"}`, 1)), Options{Builtin: true, FS: fsys})
	require.ErrorContains(t, err, `server "hand" (servers[1]): field initializationOptions: ${installDir} names the install's directory`)
	_, err = Parse([]byte(strings.Replace(file, `"lockfile": "npm/tl/package-lock.json"}`, `"lockfile": "npm/tl/package-lock.json"}, "initializationOptions": {"p": "${installDir}"}`, 1)), Options{Builtin: true, FS: fsys})
	require.NoError(t, err)

	// An operator file adds servers, never languages.
	_, err = Parse([]byte(file), Options{FS: fsys})
	require.EqualError(t, err, "operator catalog: field languages: only the built-in catalog defines languages")
}
