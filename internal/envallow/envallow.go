// Package envallow is the allowlist of environment variables that reach a
// task host's children: what the agent passes to a language server, npm or
// go, and what the relay passes to an agent it starts. It is shared by the
// two programs (the relay imports nothing of the agent).
package envallow

import (
	"slices"
	"strings"
)

// The allowlist: the only variables of the task environment that reach a
// child of the agent (a language server, npm, go), besides those the
// operator names (WithPass). The task host's environment also holds what
// the task's backend needs — database passwords (PGPASSWORD, PGPASSFILE),
// cloud keys (AWS_*), service URLs with credentials (DATABASE_URL) — and a
// language server runs the repository's code (build scripts, plugins,
// linters' configs): it gets what it needs to find its toolchain and
// nothing else. A denylist would always miss the next secret's name.
//
// Names are compared upper-cased, since Windows spells PATH as Path and
// the proxy variables come in both cases. There is deliberately no GO*
// prefix (GOOGLE_APPLICATION_CREDENTIALS would match it): the Go
// variables are listed one by one.
var allowedNames = setOf(
	// The process basics.
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TMP", "TEMP", "TERM",
	"LANG", "LANGUAGE", "TZ",
	// Windows: profile, system and program directories cmd.exe, node and
	// go need to start at all.
	"USERPROFILE", "USERNAME", "PATHEXT", "SYSTEMROOT", "SYSTEMDRIVE", "COMSPEC", "WINDIR",
	"APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432",
	"COMMONPROGRAMFILES", "COMMONPROGRAMFILES(X86)", "HOMEDRIVE", "HOMEPATH",
	"NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE", "OS",
	// Go (go help environment): gopls runs go, which reads these.
	"GOROOT", "GOPATH", "GOBIN", "GOFLAGS", "GOPROXY", "GONOPROXY", "GOPRIVATE", "GONOSUMDB",
	"GOSUMDB", "GOINSECURE", "GOMODCACHE", "GOCACHE", "GOENV", "GOTOOLCHAIN", "GOWORK",
	"GO111MODULE", "GOEXPERIMENT", "GOTMPDIR", "GOVCS", "GOAUTH", "GOPACKAGESDRIVER",
	"GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOMIPS", "GOMIPS64",
	"GOPPC64", "GORISCV64", "GOWASM", "GOFIPS140", "GODEBUG", "GOGC", "GOMEMLIMIT",
	"GOMAXPROCS", "GOTRACEBACK", "GCCGO",
	// C toolchain (cgo, clangd).
	"CC", "CXX", "AR", "PKG_CONFIG", "PKG_CONFIG_PATH",
	// Node, Python, Java, Rust, .NET: where the servers' runtimes and the
	// project's environment are.
	"NODE_PATH", "NODE_EXTRA_CA_CERTS",
	"VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PYTHONPATH", "PYTHONHOME",
	"JAVA_HOME", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "DOTNET_ROOT",
	// Network: proxies (both spellings, upper-cased here) and CA bundles,
	// without which installs and module downloads fail behind a proxy.
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR",
)

// allowedPrefixes are families whose every member is a setting: locale
// (LC_ALL, LC_CTYPE, ...), XDG base directories, cgo's flags.
var allowedPrefixes = []string{"LC_", "XDG_", "CGO_"}

// npmSettings are the npm_config_* settings an install needs (registry,
// cache, config files, proxy and CA, retries), named by npm's key with
// "-" as "_". Not npm_config_* as a family: _authToken, _auth, _password,
// //host/:_authToken and the client key are credentials; an operator who
// needs one passes it by name. A scoped registry (npm_config_@scope:registry)
// is a URL and passes too.
var npmSettings = setOf(
	"registry", "cache", "userconfig", "globalconfig", "prefix", "strict_ssl", "cafile", "ca",
	"proxy", "https_proxy", "noproxy", "no_proxy", "fetch_retries", "fetch_retry_factor",
	"fetch_retry_mintimeout", "fetch_retry_maxtimeout", "fetch_timeout", "replace_registry_host",
	"offline", "prefer_offline", "prefer_online", "loglevel", "update_notifier", "audit", "fund",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Allowed reports whether the variable name is on the agent's allowlist:
// one a language server or an installer may see. Anything else (PGPASSWORD,
// AWS_SECRET_ACCESS_KEY, DATABASE_URL, the agent's own KANDEV_AGENT_*
// settings and token) never reaches one unless the operator names it
// (WithPass, the agent's -pass-env).
func Allowed(name string) bool {
	upper := strings.ToUpper(name)
	if allowedNames[upper] {
		return true
	}
	for _, p := range allowedPrefixes {
		if strings.HasPrefix(upper, p) && len(upper) > len(p) {
			return true
		}
	}
	if key, ok := strings.CutPrefix(strings.ToLower(name), "npm_config_"); ok {
		key = strings.ReplaceAll(key, "-", "_")
		if npmSettings[key] {
			return true
		}
		scope, setting, scoped := strings.Cut(key, ":")
		return scoped && strings.HasPrefix(scope, "@") && setting == "registry"
	}
	return false
}

// FilterEnviron returns the KEY=VALUE entries of environ (as os.Environ
// gives them) whose name is Allowed or one of pass, in their order.
// pass names match exactly; Windows' case-insensitive names are matched
// by Allowed already. Entries without a name are dropped.
func FilterEnviron(environ []string, pass ...string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if Allowed(k) || slices.Contains(pass, k) {
			out = append(out, kv)
		}
	}
	return out
}
