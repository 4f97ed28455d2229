//go:build linux

package stream

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/e2e/fakelsp/fakelsptest"
	"github.com/kandev/lsp/internal/wire"
)

// rustAsset is the release asset of the injected amd64 linux task host.
const rustAsset = "rust-analyzer-x86_64-unknown-linux-gnu.gz"

// fakeRelease is the fake language server, gzipped as rust-analyzer
// releases are, built once per test process.
var fakeRelease struct {
	once sync.Once
	gz   []byte
	sum  string
}

func releaseAsset(t *testing.T) ([]byte, string) {
	t.Helper()
	bin := fakelsptest.Binary(t)
	fakeRelease.once.Do(func() {
		raw, err := os.ReadFile(bin)
		if err != nil {
			return
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		_, _ = zw.Write(raw)
		_ = zw.Close()
		h := sha256.Sum256(b.Bytes())
		fakeRelease.gz, fakeRelease.sum = b.Bytes(), hex.EncodeToString(h[:])
	})
	require.NotEmpty(t, fakeRelease.gz)
	return fakeRelease.gz, fakeRelease.sum
}

// releaseFixture serves the fake release from a loopback HTTP server and
// points the agent's installs at it with the given pinned checksums.
func releaseFixture(t *testing.T, sums func(sum string) map[string]string) (*installFixture, *atomic.Int32) {
	t.Helper()
	gz, sum := releaseAsset(t)
	var gets atomic.Int32
	rel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		if r.URL.Path != "/"+rustAsset {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(gz)
	}))
	t.Cleanup(rel.Close)
	k := newInstallFixture(t, "ok", func(c *Config) {
		c.Env.GOOS, c.Env.GOARCH = "linux", "amd64"
		c.Installs = install.New(install.Config{
			ReleaseBaseURL: rel.URL, ReleaseChecksums: sums(sum), GOARCH: "amd64",
			StallTimeout: 5 * time.Second, LockPoll: 10 * time.Millisecond,
		})
	})
	return k, &gets
}

// Spec: rust-analyzer auto-install from a release. The download is checked
// against the pinned SHA-256, published in the task's cache, started, and
// answers initialize through the bridge.
func TestReleaseInstallThroughStream(t *testing.T) {
	t.Parallel()
	k, gets := releaseFixture(t, func(sum string) map[string]string { return map[string]string{rustAsset: sum} })
	c := k.dialLang(t, "rust", true)
	requireStatuses(t, c, "rust", wire.StatusInstalling, wire.StatusInstalled, wire.StatusReady)
	require.Contains(t, initialize(t, c, 1), "result")
	require.Equal(t, int32(1), gets.Load())
	fi, err := os.Stat(filepath.Join(k.cache, "rust-analyzer", "rust-analyzer"))
	require.NoError(t, err)
	require.NotZero(t, fi.Mode().Perm()&0o100, "executable")
}

// A download that does not match its pinned sum, and an asset with no
// pinned sum at all, both fail the install with the reason in
// install_failed, then 4003; no file is left, and without a sum nothing is
// even downloaded.
func TestReleaseChecksumRefused(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		sums   func(string) map[string]string
		detail string
		gets   int32
	}{
		"mismatch": {func(string) map[string]string {
			return map[string]string{rustAsset: "00000000000000000000000000000000000000000000000000000000000000ff"}
		}, "checksum mismatch", 1},
		"unpinned": {func(string) map[string]string { return map[string]string{} }, "no pinned checksum", 0},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k, gets := releaseFixture(t, c.sums)
			conn := k.dialLang(t, "rust", true)
			requireStatuses(t, conn, "rust", wire.StatusInstalling)
			st := readStatus(t, conn)
			require.Equal(t, wire.StatusInstallFailed, st.Status)
			require.Contains(t, st.Error, c.detail)
			requireClose(t, conn, int(wire.CloseInstallFailed))
			require.Equal(t, c.gets, gets.Load())
			entries, _ := os.ReadDir(filepath.Join(k.cache, "rust-analyzer"))
			require.Empty(t, entries, "no binary, no temporary download")
		})
	}
}
