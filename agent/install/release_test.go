//go:build unix

package install

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

const testAsset = "rust-analyzer-x86_64-unknown-linux-gnu.gz"

// fakeRelease is a gzip "binary" and its checksum.
func fakeRelease(t *testing.T) (gz []byte, sum string, binary []byte) {
	t.Helper()
	binary = bytes.Repeat([]byte("#!/bin/sh\necho rust-analyzer\n"), 4096) // ~120 KiB
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write(binary)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	s := sha256.Sum256(b.Bytes())
	return b.Bytes(), hex.EncodeToString(s[:]), binary
}

type releaseTask struct {
	env  *taskenv.Env
	root string
	m    *Manager
}

func newReleaseTask(t *testing.T, srv *httptest.Server, sum string) *releaseTask {
	t.Helper()
	home := t.TempDir()
	env := taskenv.New(map[string]string{"HOME": home})
	env.GOOS = "linux"
	return &releaseTask{
		env:  env,
		root: filepath.Join(home, ".kandev", "lsp-servers"),
		m: New(Config{
			ReleaseBaseURL:   srv.URL + "/download/",
			ReleaseChecksums: map[string]string{testAsset: sum},
			GOARCH:           "amd64",
			StallTimeout:     300 * time.Millisecond,
		}),
	}
}

func (r *releaseTask) run(ctx context.Context, t *testing.T) (Result, error) {
	t.Helper()
	job, err := r.m.Prepare(r.env, def(wire.Rust))
	require.NoError(t, err)
	return job.Run(ctx)
}

// files lists every file under the cache except the lock files: after a
// failure there must be none.
func (r *releaseTask) files(t *testing.T) []string {
	t.Helper()
	var out []string
	_ = filepath.Walk(r.root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && filepath.Base(filepath.Dir(p)) != ".locks" {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestReleaseInstall(t *testing.T) {
	t.Parallel()
	gz, sum, binary := fakeRelease(t)
	var gotPath string
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		gotPath = r.URL.Path
		_, _ = w.Write(gz)
	})
	rt := newReleaseTask(t, srv, sum)
	res, err := rt.run(context.Background(), t)
	require.NoError(t, err, Detail(err))
	want := filepath.Join(rt.root, "rust-analyzer", "rust-analyzer")
	require.Equal(t, Result{Path: want}, res)
	require.Equal(t, "/download/"+testAsset, gotPath)
	b, err := os.ReadFile(want)
	require.NoError(t, err)
	require.Equal(t, binary, b)
	fi, err := os.Stat(want)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o755), fi.Mode().Perm())
	require.Equal(t, []string{want}, rt.files(t), "no temporary file left")

	got, err := ManagedLauncher(rt.env, def(wire.Rust))
	require.NoError(t, err)
	require.Equal(t, want, got)
}

// Each failure leaves no file behind and publishes nothing.
func TestReleaseFailuresLeaveNothing(t *testing.T) {
	t.Parallel()
	gz, sum, _ := fakeRelease(t)
	half := gz[:len(gz)/2]
	cases := []struct {
		name    string
		sum     string
		handler http.HandlerFunc
		check   func(t *testing.T, err error)
	}{
		{"checksum mismatch", "00" + sum[2:], func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(gz) },
			func(t *testing.T, err error) { require.ErrorIs(t, err, ErrChecksum) }},
		{"truncated body", sum, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
			_, _ = w.Write(half) // the server then drops the connection
		}, func(t *testing.T, err error) { require.ErrorContains(t, err, "unexpected EOF") }},
		{"stall", sum, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
			_, _ = w.Write(half)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}, func(t *testing.T, err error) { require.ErrorIs(t, err, ErrStalled) }},
		{"not found", sum, http.NotFound,
			func(t *testing.T, err error) { require.ErrorContains(t, err, "404 Not Found") }},
		{"no pinned checksum", "", nil, func(t *testing.T, err error) { require.ErrorIs(t, err, ErrNoChecksum) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := c.handler
			if h == nil {
				h = func(w http.ResponseWriter, r *http.Request) { t.Error("no request without a pinned checksum") }
			}
			rt := newReleaseTask(t, serve(t, h), c.sum)
			_, err := rt.run(context.Background(), t)
			var ie *Error
			require.ErrorAs(t, err, &ie)
			c.check(t, err)
			require.Empty(t, rt.files(t))
			_, err = ManagedLauncher(rt.env, def(wire.Rust))
			require.ErrorIs(t, err, ErrNotInstalled)
		})
	}
}

// A slow download that keeps moving is not a stall: only the overall limit
// (minutes by default) bounds it.
func TestReleaseSlowButMovingIsNotAStall(t *testing.T) {
	t.Parallel()
	gz, sum, _ := fakeRelease(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		step := len(gz)/20 + 1
		for i := 0; i < len(gz); i += step {
			_, _ = w.Write(gz[i:min(i+step, len(gz))])
			w.(http.Flusher).Flush()
			<-tick.C
		}
	})
	rt := newReleaseTask(t, srv, sum) // stall 300 ms, download ~1 s
	_, err := rt.run(context.Background(), t)
	require.NoError(t, err, Detail(err))
}

// Spec: Instance teardown / Browser disconnect during auto-install — a
// cancelled download removes its partial file and publishes nothing.
func TestReleaseCancelMidDownload(t *testing.T) {
	t.Parallel()
	gz, sum, _ := fakeRelease(t)
	for _, teardown := range []bool{false, true} {
		started := make(chan struct{})
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
			_, _ = w.Write(gz[:len(gz)/2])
			w.(http.Flusher).Flush()
			close(started)
			<-r.Context().Done()
		})
		rt := newReleaseTask(t, srv, sum)
		rt.m.cfg.StallTimeout = time.Minute
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { _, err := rt.run(ctx, t); errc <- err }()
		<-started
		require.Eventually(t, func() bool { return len(rt.files(t)) == 1 }, 5*time.Second, time.Millisecond, "the partial download exists")
		if teardown {
			require.NoError(t, rt.m.Close(context.Background()))
		} else {
			cancel()
		}
		require.ErrorIs(t, <-errc, context.Canceled)
		require.Empty(t, rt.files(t))
		cancel()
	}
}

// gzipOf compresses b.
func gzipOf(t *testing.T, b []byte) (gz []byte, sum string) {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	require.NoError(t, err)
	_, err = zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	s := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), hex.EncodeToString(s[:])
}

// Release archives: decompression is bounded. A mirror serving a gzip bomb
// (8 MiB of zeros in a few KiB) fails against a 1 MiB limit before
// anything larger than the limit is written, even with the bomb's own
// checksum pinned; so does a download that is itself larger than the
// limit, announced or not.
func TestReleaseSizeLimit(t *testing.T) {
	t.Parallel()
	bomb, bombSum := gzipOf(t, make([]byte, 8<<20))
	var noise bytes.Buffer
	for i := range 3 << 20 / 32 {
		s := sha256.Sum256([]byte(strconv.Itoa(i)))
		noise.Write(s[:]) // incompressible
	}
	big, bigSum := gzipOf(t, noise.Bytes())
	for name, c := range map[string]struct {
		body   []byte
		sum    string
		length bool
	}{
		"gzip bomb":           {bomb, bombSum, true},
		"announced too large": {big, bigSum, true},
		"chunked too large":   {big, bigSum, false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if c.length {
					w.Header().Set("Content-Length", strconv.Itoa(len(c.body)))
				}
				for i := 0; i < len(c.body); i += 32 << 10 {
					if _, err := w.Write(c.body[i:min(i+32<<10, len(c.body))]); err != nil {
						return
					}
					w.(http.Flusher).Flush()
				}
			})
			rt := newReleaseTask(t, srv, c.sum)
			rt.m.cfg.MaxReleaseSize = 1 << 20
			_, err := rt.run(context.Background(), t)
			require.ErrorIs(t, err, ErrTooLarge)
			var ie *Error
			require.ErrorAs(t, err, &ie, "install_failed with the reason, then 4003")
			require.Empty(t, rt.files(t))
		})
	}
}

// Install deadlines, overall: a download that keeps moving but outlasts the
// install limit fails with ErrTimeout, not as a cancellation, and leaves
// no partial file.
func TestReleaseOverallLimit(t *testing.T) {
	t.Parallel()
	gz, sum, _ := fakeRelease(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
		for i := range gz { // a byte every 20 ms: moving, never stalled
			if _, err := w.Write(gz[i : i+1]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	rt := newReleaseTask(t, srv, sum)
	rt.m.cfg.InstallTimeout = 300 * time.Millisecond
	_, err := rt.run(context.Background(), t)
	require.ErrorIs(t, err, ErrTimeout)
	require.NotErrorIs(t, err, context.Canceled)
	require.Empty(t, rt.files(t))
}
