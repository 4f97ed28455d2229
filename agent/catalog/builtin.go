package catalog

import (
	"embed"
	"encoding/json"
	"io/fs"

	"github.com/kandev/lsp/internal/wire"
)

// Pinned versions: an install gives every task host the server
// the product was tested with. typescript-language-server 6 needs Node 22
// and typescript 7 ships no tsserver.js, which typescript-language-server
// loads, hence 5.3.0 with 6.0.3. The whole dependency tree of each npm
// server is pinned further, with integrity hashes, by its lockfile in npm/.
const (
	GoplsVersion                    = "v0.23.0"
	TypeScriptLanguageServerVersion = "5.3.0"
	TypeScriptVersion               = "6.0.3"
	PyrightVersion                  = "1.1.414"
	// TsgoVersion is @typescript/native-preview, TypeScript 7's native
	// server. Its launcher only dispatches to a platform package
	// (@typescript/native-preview-linux-x64 and so on), which npm installs
	// as an optional dependency: the lockfile holds all of them, each with
	// its integrity, and npm ci takes the one of the task host.
	TsgoVersion                 = "7.0.0-dev.20260707.2"
	BasedpyrightVersion         = "1.40.1"
	VSCodeLangserversVersion    = "4.10.0"
	YAMLLanguageServerVersion   = "2.0.0"
	BashLanguageServerVersion   = "5.8.1"
	DockerfileLanguageServerVer = "0.15.0"
)

// npmLocks holds, per npm recipe, the package.json and package-lock.json
// that an install writes into its staging directory and hands to `npm ci`:
// npm then installs exactly the locked tree — every package at its locked
// version, each tarball checked against its sha512 — or fails (EINTEGRITY
// for a tarball that does not match). Nothing is resolved at install time.
//
// Provenance: the lockfiles were generated with npm 11.19.1 (`npm install
// --package-lock-only --ignore-scripts`, in a directory holding the
// package.json, never with --prefix) against registry.npmjs.org; each
// integrity value is the registry's dist.integrity for that version, as
// the publisher's upload produced it. The typescript-language-server and
// pyright lockfiles had every integrity checked again against `npm view
// NAME@VERSION dist.integrity`; the later ones (tsgo, basedpyright,
// vscode-langservers-extracted, yaml-language-server,
// bash-language-server, dockerfile-language-server) had their top-level
// packages (and tsgo's linux-x64 platform package) checked so, and every
// tarball of each was then downloaded and checked against the lockfile by
// a real `npm ci` (TestRealNPMInstall). To move a pin, change the version
// in package.json, regenerate the lockfile the same way, and update the
// constants above; TestNPMLockfilesPinned keeps the three in step.
//
//go:embed npm/*/package.json npm/*/package-lock.json
var npmLocks embed.FS

// npmLock returns the embedded package.json and package-lock.json of a
// built-in npm recipe.
func npmLock(name string) *NPMLock {
	read := func(file string) []byte {
		b, err := fs.ReadFile(npmLocks, "npm/"+name+"/"+file)
		if err != nil {
			panic(err) // a fixed, embedded path
		}
		return b
	}
	return &NPMLock{PackageJSON: read("package.json"), PackageLock: read("package-lock.json")}
}

// The pinned rust-analyzer release.
const (
	RustAnalyzerTag = "2026-07-13"
	// RustAnalyzerBaseURL is where the pinned release's assets are
	// downloaded from; an asset's URL is the base, "/", and its name.
	RustAnalyzerBaseURL = "https://github.com/rust-lang/rust-analyzer/releases/download/" + RustAnalyzerTag
)

// RustAnalyzerChecksums are the SHA-256 sums of the pinned release's gzip
// assets. An asset without a sum here is never installed: an unchecked
// download would run whatever the network handed us. Such an install fails
// before any download (an install_failed frame saying so, then 4003), and
// the installers route says so in its guidance.
//
// Provenance. The publisher's statement of these sums is the GitHub
// release of the tag (rust-lang/rust-analyzer, release 2026-07-13, each
// asset's sha256 digest); the machine these pins were made on cannot reach
// GitHub, so none of them was verified against the publisher or hashed
// from a download here. Each is instead the value that several
// independent lock tables of other projects, pinning the same tag and
// asset, agree on. A wrong value fails safe, as a checksum mismatch
// (install_failed, 4003), never as an unchecked binary. Verify them against
// the release's digests (or sha256sum of each downloaded .gz) when the tag
// is next bumped. Tests inject their own sums through the install
// package's Config.ReleaseChecksums and never depend on these values.
var RustAnalyzerChecksums = map[string]string{
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-x86_64-unknown-linux-gnu.gz": "5ee1754afa7a1eb7f56606847b61328e6fac2f316e40ebf314dcefb30263df4d",
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-aarch64-unknown-linux-gnu.gz": "d30c3ac726f93ae7cb57c6e16cd2d2b5460c9893ccdd38b6d3ae9300c72852ab",
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-x86_64-apple-darwin.gz": "b8832accb9f163214e63ccc989bb2161d52f19270eafb136da0fb16093185041",
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-aarch64-apple-darwin.gz": "9c6b3ebf06480e2c95a7b01750fa68d77834bffa34da81e4eb00cef3cdff4613",
}

// rustAnalyzerRelease lists the targets rust-analyzer publishes as
// single-file gzip binaries for macOS and Linux; Windows gets none (the
// spec's "Unsupported Rust installer").
func rustAnalyzerRelease() *Release {
	assets := map[string]Asset{}
	for platform, target := range map[string]string{
		"linux/amd64": "x86_64-unknown-linux-gnu", "linux/arm64": "aarch64-unknown-linux-gnu",
		"darwin/amd64": "x86_64-apple-darwin", "darwin/arm64": "aarch64-apple-darwin",
	} {
		file := "rust-analyzer-" + target + ".gz"
		assets[platform] = Asset{File: file, SHA256: RustAnalyzerChecksums[file]}
	}
	return &Release{Tag: RustAnalyzerTag, BaseURL: RustAnalyzerBaseURL, Assets: assets}
}

// npmRecipe is a built-in npm recipe: the lockfile directory name (also
// the managed cache directory) and its exact pins.
func npmRecipe(name string, packages ...string) Recipe {
	return Recipe{Kind: InstallNPM, Packages: packages, Managed: name, Lock: npmLock(name)}
}

// Manual-install guidance, in English; the UI localizes by the reason code
// and shows this as the task host's detail.
const (
	kotlinGuidance = "Kotlin LSP is never installed automatically. Install kotlin-lsp " +
		"(https://github.com/Kotlin/kotlin-lsp) and make it available on the task host's PATH."
	clangdGuidance = "clangd is never installed automatically: it belongs with the task host's C/C++ toolchain. " +
		"Install it (Debian and Ubuntu: apt-get install clangd; macOS: the Xcode command line tools) " +
		"and make it available on the task host's PATH."
)

// eslintConfiguration is what VS Code's ESLint extension answers the
// server's workspace/configuration with (section "", the whole object, for
// every document), as nvim-lspconfig does too. The server reads most
// members without a check — experimental.useFlatConfig, problems,
// codeAction, codeActionOnSave among them — so a missing one fails the
// request and nothing is linted. Members worth a word:
//
//   - experimental.useFlatConfig: the server of vscode-langservers-extracted
//     4.10.0 loads eslint.config.js (flat config, ESLint 9's only default)
//     through eslint/use-at-your-own-risk only when this is true;
//   - workingDirectory "location": ESLint runs in the directory of the
//     file, from where the workspace's eslint and its config are found;
//   - no packageManager: the server then never falls back to a globally
//     installed eslint, so only the workspace's own is loaded (and without
//     one, nothing is linted);
//   - nodePath null: modules resolve from the file's directory;
//   - format false: the TypeScript server formats.
var eslintConfiguration = json.RawMessage(`{"validate":"on","useESLintClass":false,` +
	`"experimental":{"useFlatConfig":true},"codeActionOnSave":{"enable":false,"mode":"all"},` +
	`"format":false,"quiet":false,"onIgnoredFiles":"off","rulesCustomizations":[],"run":"onType",` +
	`"problems":{"shortenToSingleLine":false},"nodePath":null,"workingDirectory":{"mode":"location"},` +
	`"codeAction":{"disableRuleComment":{"enable":true,"location":"separateLine","commentStyle":"line"},` +
	`"showDocumentation":{"enable":true}}}`)

// builtinEntries is the built-in table: a fresh copy each call, so no
// caller can change the catalog through it. Which languages default to
// which entry is wire.LanguageInfo.Servers' (a test keeps the two equal).
// gopls, rust-analyzer and clangd serve stdio by default; the others need
// their flag.
func builtinEntries() []Entry {
	vscode := npmRecipe("vscode-langservers-extracted", "vscode-langservers-extracted@"+VSCodeLangserversVersion)
	// The VS Code servers offer formatting only when the client asks for
	// it this way (VS Code's own extensions do); the HTML server also
	// serves the CSS and JavaScript embedded in a page.
	formatter := json.RawMessage(`{"provideFormatter":true}`)
	return []Entry{
		// symbolScope "workspace": Go to Symbol in Workspace lists the
		// workspace's symbols, not every fuzzy match in the standard library
		// and the module cache ("Hello" found 62 of the runtime's first).
		// The user's gopls settings may set it back to "all".
		{ID: "gopls", Languages: []wire.Language{wire.Go}, Command: "gopls",
			Install:               Recipe{Kind: InstallGo, Packages: []string{"golang.org/x/tools/gopls@" + GoplsVersion}},
			InitializationOptions: json.RawMessage(`{"symbolScope":"workspace"}`)},
		{ID: "typescript-language-server", Languages: []wire.Language{wire.TypeScript}, Command: "typescript-language-server", Args: []string{"--stdio"},
			Install: npmRecipe("typescript-language-server",
				"typescript-language-server@"+TypeScriptLanguageServerVersion, "typescript@"+TypeScriptVersion)},
		// TypeScript 7: diagnostics by pull only (textDocument/diagnostic).
		{ID: "tsgo", Languages: []wire.Language{wire.TypeScript}, Command: "tsgo", Args: []string{"--lsp", "--stdio"},
			Install: npmRecipe("tsgo", "@typescript/native-preview@"+TsgoVersion)},
		{ID: "pyright", Languages: []wire.Language{wire.Python}, Command: "pyright-langserver", Args: []string{"--stdio"},
			Install: npmRecipe("pyright", "pyright@"+PyrightVersion)},
		{ID: "basedpyright", Languages: []wire.Language{wire.Python}, Command: "basedpyright-langserver", Args: []string{"--stdio"},
			Install: npmRecipe("basedpyright", "basedpyright@"+BasedpyrightVersion)},
		{ID: "rust-analyzer", Languages: []wire.Language{wire.Rust}, Command: "rust-analyzer",
			Install: Recipe{Kind: InstallRelease, Managed: "rust-analyzer", Release: rustAnalyzerRelease()}},
		{ID: "kotlin-lsp", Languages: []wire.Language{wire.Kotlin}, Command: "kotlin-lsp", Args: []string{"--stdio"},
			Install: Recipe{Kind: InstallManual, Guidance: kotlinGuidance}},
		{ID: "vscode-json-language-server", Languages: []wire.Language{wire.JSON}, Command: "vscode-json-language-server", Args: []string{"--stdio"},
			Install: vscode, InitializationOptions: formatter},
		{ID: "vscode-css-language-server", Languages: []wire.Language{wire.CSS}, Command: "vscode-css-language-server", Args: []string{"--stdio"},
			Install: vscode, InitializationOptions: formatter},
		{ID: "vscode-html-language-server", Languages: []wire.Language{wire.HTML}, Command: "vscode-html-language-server", Args: []string{"--stdio"},
			Install: vscode, InitializationOptions: json.RawMessage(`{"provideFormatter":true,"embeddedLanguages":{"css":true,"javascript":true}}`)},
		// Its features ask the client to parse Markdown and read files for
		// it (markdown/parse, markdown/fs/*): a client without those
		// answers gets what the server can do alone.
		{ID: "vscode-markdown-language-server", Languages: []wire.Language{wire.Markdown}, Command: "vscode-markdown-language-server", Args: []string{"--stdio"},
			Install: vscode},
		// yaml-language-server 2.0.0 declares Node >=22.13; it runs on Node
		// 20 as tested (npm only warns, engine-strict is off).
		{ID: "yaml-language-server", Languages: []wire.Language{wire.YAML}, Command: "yaml-language-server", Args: []string{"--stdio"},
			Install: npmRecipe("yaml-language-server", "yaml-language-server@"+YAMLLanguageServerVersion)},
		// shellcheck (diagnostics) and shfmt (formatting) are used where the
		// task host has them, found like a server: the server otherwise
		// searches the task PATH itself, workspace directories included.
		{ID: "bash-language-server", Languages: []wire.Language{wire.Shell}, Command: "bash-language-server", Args: []string{"start"},
			Install: npmRecipe("bash-language-server", "bash-language-server@"+BashLanguageServerVersion),
			Tools:   []Tool{{Env: "SHELLCHECK_PATH", Command: "shellcheck"}, {Env: "SHFMT_PATH", Command: "shfmt"}}},
		{ID: "dockerfile-language-server", Languages: []wire.Language{wire.Dockerfile}, Command: "docker-langserver", Args: []string{"--stdio"},
			Install: npmRecipe("dockerfile-language-server", "dockerfile-language-server-nodejs@"+DockerfileLanguageServerVer)},
		// ESLint beside the TypeScript server (wire lists it after the
		// servers a file may have alone): it lints, with the workspace's
		// own eslint package and config, and offers its fixes.
		{ID: "eslint", Languages: []wire.Language{wire.TypeScript}, Command: "vscode-eslint-language-server", Args: []string{"--stdio"},
			Install: vscode, Configuration: eslintConfiguration,
			Features: []string{wire.FeatureDiagnostics, wire.FeatureCodeAction, wire.FeatureWorkspaceCommand}},
		{ID: "clangd", Languages: []wire.Language{wire.C}, Command: "clangd",
			Install: Recipe{Kind: InstallManual, Guidance: clangdGuidance}},
	}
}
