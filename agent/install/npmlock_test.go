//go:build linux

package install

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// fakePackage is a registry tarball of a package providing the
// typescript-language-server launcher, with a postinstall script that
// writes $MARKER if it ever runs.
func fakePackage(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range []struct {
		name, body string
		mode       int64
	}{
		{"package/package.json", `{"name":"kandev-fake-server","version":"1.0.0",` +
			`"bin":{"typescript-language-server":"cli.js"},` +
			`"scripts":{"postinstall":"node -e \"require('fs').writeFileSync(process.env.MARKER,'ran')\""}}`, 0o644},
		{"package/cli.js", "#!/usr/bin/env node\nconsole.log('fake server')\n", 0o755},
	} {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body)), ModTime: time.Unix(0, 0)}))
		_, err := tw.Write([]byte(f.body))
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// lockFor is a locked project depending on the fake package at url with
// the given integrity.
func lockFor(url, integrity string) *catalog.NPMLock {
	return &catalog.NPMLock{
		PackageJSON: []byte(`{"name":"kandev-lsp-fake","private":true,"dependencies":{"kandev-fake-server":"1.0.0"}}`),
		PackageLock: []byte(`{"name":"kandev-lsp-fake","lockfileVersion":3,"requires":true,"packages":{` +
			`"":{"name":"kandev-lsp-fake","dependencies":{"kandev-fake-server":"1.0.0"}},` +
			`"node_modules/kandev-fake-server":{"version":"1.0.0","resolved":"` + url + `","integrity":"` + integrity + `",` +
			`"hasInstallScript":true,"bin":{"typescript-language-server":"cli.js"}}}}`),
	}
}

// Reproducible npm installs, with the real npm against a local registry:
// the locked tarball installs with its install script not run; a tampered
// integrity entry fails with npm's own EINTEGRITY error in the
// install_failed detail; an unreachable registry fails with npm's network
// error. Nothing is published by a failure.
func TestNPMLockfileInstall(t *testing.T) {
	t.Parallel()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	tgz := fakePackage(t)
	sum := sha512.Sum512(tgz)
	integrity := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/kandev-fake-server/-/kandev-fake-server-1.0.0.tgz" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(tgz)
	}))
	t.Cleanup(srv.Close)
	url := srv.URL + "/kandev-fake-server/-/kandev-fake-server-1.0.0.tgz"
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL + "/kandev-fake-server/-/kandev-fake-server-1.0.0.tgz"
	gone.Close()

	tampered := []byte(integrity)
	tampered[10] ^= 1 // still valid base64, another digest

	for name, c := range map[string]struct {
		lock  *catalog.NPMLock
		check func(t *testing.T, res Result, err error)
	}{
		"locked": {lockFor(url, integrity), func(t *testing.T, res Result, err error) {
			require.NoError(t, err, Detail(err))
			require.FileExists(t, res.Path)
		}},
		"tampered integrity": {lockFor(url, string(tampered)), func(t *testing.T, _ Result, err error) {
			var ie *Error
			require.ErrorAs(t, err, &ie)
			require.Contains(t, Detail(err), "EINTEGRITY", "npm's own integrity error reaches the user")
		}},
		"unreachable": {lockFor(goneURL, integrity), func(t *testing.T, _ Result, err error) {
			var ie *Error
			require.ErrorAs(t, err, &ie)
			require.Contains(t, Detail(err), "ECONNREFUSED")
		}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			marker := filepath.Join(t.TempDir(), "script-ran")
			env := taskenv.New(map[string]string{
				"PATH": filepath.Dir(npm) + ":" + shPath, "HOME": home, "MARKER": marker,
				"npm_config_fetch_retries": "0", // an unreachable registry fails at once
			})
			inst, err := newNPMInstaller(env, npmPackage{managed: "typescript-language-server", launcher: "typescript-language-server", lock: c.lock})
			require.NoError(t, err)
			job := &Job{m: New(Config{Runner: testRunner()}), language: wire.TypeScript, server: "typescript-language-server", inst: inst}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := job.Run(ctx)
			c.check(t, res, err)
			require.NoFileExists(t, marker, "install scripts never run")
			root := filepath.Join(home, ".kandev", "lsp-servers")
			if err != nil {
				require.Empty(t, leftovers(t, root))
				_, err = ManagedLauncher(env, def(wire.TypeScript))
				require.ErrorIs(t, err, ErrNotInstalled)
			}
		})
	}
}
