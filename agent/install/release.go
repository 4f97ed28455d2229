package install

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// RustAnalyzerTag is the pinned rust-analyzer release.
const RustAnalyzerTag = "2026-07-13"

// DefaultReleaseBaseURL is where the pinned release's assets are
// downloaded from; an asset's URL is the base, "/", and its name.
const DefaultReleaseBaseURL = "https://github.com/rust-lang/rust-analyzer/releases/download/" + RustAnalyzerTag

// DefaultReleaseChecksums are the SHA-256 sums of the pinned release's
// gzip assets. An asset without a sum here is never installed: an unchecked
// download would run whatever the network handed us. Such an install fails
// before any download (ErrNoChecksum: an install_failed frame saying so,
// then 4003), and the installers route says so in its guidance.
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
// is next bumped. Tests inject their own sums through
// Config.ReleaseChecksums and never depend on these values.
var DefaultReleaseChecksums = map[string]string{
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-x86_64-unknown-linux-gnu.gz": "5ee1754afa7a1eb7f56606847b61328e6fac2f316e40ebf314dcefb30263df4d",
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-aarch64-unknown-linux-gnu.gz": "d30c3ac726f93ae7cb57c6e16cd2d2b5460c9893ccdd38b6d3ae9300c72852ab",
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-x86_64-apple-darwin.gz": "b8832accb9f163214e63ccc989bb2161d52f19270eafb136da0fb16093185041",
	// Not verified from the publisher: agreed by independent third-party pins.
	"rust-analyzer-aarch64-apple-darwin.gz": "9c6b3ebf06480e2c95a7b01750fa68d77834bffa34da81e4eb00cef3cdff4613",
}

// ErrChecksum: the download does not match its pinned SHA-256.
var ErrChecksum = errors.New("checksum mismatch")

// ErrNoChecksum: there is no pinned SHA-256 for the asset.
var ErrNoChecksum = errors.New("no pinned checksum")

// ErrTooLarge: the download, or what it decompresses to, is larger than
// the release size limit.
var ErrTooLarge = errors.New("release asset too large")

// rustAsset returns the release asset for a task host, or an
// *UnsupportedError. Only the targets rust-analyzer publishes as
// single-file gzip binaries for macOS and Linux are installed.
func rustAsset(goos, goarch string) (string, error) {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[goarch]
	suffix := map[string]string{"linux": "unknown-linux-gnu", "darwin": "apple-darwin"}[goos]
	if arch == "" || suffix == "" {
		return "", &UnsupportedError{Language: wire.Rust, Code: wire.NotInstallableOS,
			Reason: fmt.Sprintf("rust-analyzer cannot be auto-installed on %s/%s task hosts; install it manually on the task host's PATH", goos, goarch)}
	}
	return "rust-analyzer-" + arch + "-" + suffix + ".gz", nil
}

// releaseInstaller downloads a gzip release asset, checks it and publishes
// the decompressed executable at root/rust-analyzer/rust-analyzer.
type releaseInstaller struct {
	work
	root   string
	asset  string
	url    string
	sum    string // hex SHA-256 of the gzip asset; "" means none pinned
	client *http.Client
	stall  time.Duration
	// max bounds the download and what it decompresses to, checked as
	// each block is written: the checksum is only known at the end, so a
	// hostile mirror could otherwise fill the disk (a gzip bomb) before it
	// is caught.
	max int64
}

func (ri *releaseInstaller) dir() string { return join(ri.env.GOOS, ri.root, "rust-analyzer") }

func (ri *releaseInstaller) lockPath() string {
	return join(ri.env.GOOS, locksDir(ri.env, ri.root), "rust-analyzer.lock")
}

func (ri *releaseInstaller) find(stat statFunc) (string, error) {
	return findExecutable(ri.env, stat, ri.dir(), "rust-analyzer")
}

// install downloads, hashes and decompresses in one pass into a temporary
// file beside the destination, and renames it into place only after the
// hash matched and gzip reached its clean end. Every failure removes the
// temporary file, so only a verified binary is ever at the destination.
func (ri *releaseInstaller) install(ctx context.Context, _ *Runner, out *Output) (err error) {
	if ri.sum == "" {
		return fmt.Errorf("%w for %s; install rust-analyzer manually", ErrNoChecksum, ri.asset)
	}
	dir := ri.dir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	removeGlob(dir, ".download-*")
	tmp, err := os.CreateTemp(dir, ".download-*")
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	fmt.Fprintf(out, "downloading %s\n", ri.url)
	if err := ri.fetch(ctx, tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(0o755); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), join(ri.env.GOOS, dir, "rust-analyzer"))
}

// fetch streams the asset into dst, decompressed, and checks its hash.
func (ri *releaseInstaller) fetch(ctx context.Context, dst io.Writer) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ri.url, nil)
	if err != nil {
		return err
	}
	resp, err := ri.client.Do(req)
	if err != nil {
		return ri.cause(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("download %s: %s", ri.url, resp.Status)
	}
	if resp.ContentLength > ri.max {
		return fmt.Errorf("download %s: %w: %d bytes, the limit is %d", ri.url, ErrTooLarge, resp.ContentLength, ri.max)
	}
	stall := newStallReader(resp.Body, ri.stall, cancel)
	defer stall.stop()
	body := &boundedReader{r: stall, left: ri.max}
	h := sha256.New()
	zr, err := gzip.NewReader(io.TeeReader(body, h))
	if err != nil {
		return ri.cause(ctx, fmt.Errorf("download %s: %w", ri.url, err))
	}
	if _, err := io.Copy(&boundedWriter{w: dst, left: ri.max}, zr); err != nil {
		return ri.cause(ctx, fmt.Errorf("download %s: %w", ri.url, err))
	}
	// Hash what gzip did not need to read (trailing bytes) as well, so the
	// sum covers exactly the published asset.
	if _, err := io.Copy(h, body); err != nil {
		return ri.cause(ctx, fmt.Errorf("download %s: %w", ri.url, err))
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, ri.sum) {
		return fmt.Errorf("%s: %w: got sha256 %s, want %s", ri.asset, ErrChecksum, got, ri.sum)
	}
	return nil
}

// boundedReader fails a read once more than left bytes have arrived.
type boundedReader struct {
	r    io.Reader
	left int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, fmt.Errorf("%w: the download is larger than the limit", ErrTooLarge)
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more than allowed tells "over" from "exactly"
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, fmt.Errorf("%w: the download is larger than the limit", ErrTooLarge)
	}
	return n, err
}

// boundedWriter refuses a write that would take the total past left,
// before writing any of it, so the file never exceeds the limit.
type boundedWriter struct {
	w    io.Writer
	left int64
}

func (b *boundedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > b.left {
		return 0, fmt.Errorf("%w: it decompresses to more than the limit", ErrTooLarge)
	}
	n, err := b.w.Write(p)
	b.left -= int64(n)
	return n, err
}

// cause turns an error caused by the stall guard or the overall limit
// into ErrStalled or ErrTimeout, so the failure says why rather than
// "context canceled".
func (ri *releaseInstaller) cause(ctx context.Context, err error) error {
	if c := context.Cause(ctx); errors.Is(c, ErrStalled) || errors.Is(c, ErrTimeout) {
		return fmt.Errorf("download %s: %w", ri.url, c)
	}
	return err
}

// newReleaseInstaller returns the rust-analyzer installer for env, or an
// *UnsupportedError on a host without a release target.
func newReleaseInstaller(env *taskenv.Env, cfg *Config) (*releaseInstaller, error) {
	asset, err := rustAsset(env.GOOS, cfg.goarch())
	if err != nil {
		return nil, err
	}
	root, err := CacheRoot(env)
	if err != nil {
		return nil, err
	}
	return &releaseInstaller{
		work: work{env: env}, root: root, asset: asset,
		url:    strings.TrimRight(cfg.releaseBaseURL(), "/") + "/" + asset,
		sum:    cfg.releaseChecksums()[asset],
		client: cfg.httpClient(),
		stall:  cfg.stallTimeout(),
		max:    cfg.maxReleaseSize(),
	}, nil
}
