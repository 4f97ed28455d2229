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

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// ErrChecksum: the download does not match its pinned SHA-256.
var ErrChecksum = errors.New("checksum mismatch")

// ErrNoChecksum: there is no pinned SHA-256 for the asset.
var ErrNoChecksum = errors.New("no pinned checksum")

// ErrTooLarge: the download, or what it decompresses to, is larger than
// the release size limit.
var ErrTooLarge = errors.New("release asset too large")

// releaseInstaller downloads a gzip release asset, checks it and publishes
// the decompressed executable in the entry's managed directory
// (root/rust-analyzer/rust-analyzer).
type releaseInstaller struct {
	work
	root    string
	managed string // the entry's cache directory, slash-separated
	binary  string // the executable's name (".exe" added on Windows)
	asset   string
	url     string
	sum     string // hex SHA-256 of the gzip asset; "" means none pinned
	client  *http.Client
	stall   time.Duration
	// max bounds the download and what it decompresses to, checked as
	// each block is written: the checksum is only known at the end, so a
	// hostile mirror could otherwise fill the disk (a gzip bomb) before it
	// is caught.
	max int64
}

func (ri *releaseInstaller) dir() string {
	return join(ri.env.GOOS, append([]string{ri.root}, strings.Split(ri.managed, "/")...)...)
}

func (ri *releaseInstaller) lockPath() string {
	return join(ri.env.GOOS, append([]string{locksDir(ri.env, ri.root)}, strings.Split(ri.managed+".lock", "/")...)...)
}

func (ri *releaseInstaller) find(stat statFunc) (string, error) {
	return findExecutable(ri.env, stat, ri.dir(), ri.binary)
}

// file is the published executable's name: Windows starts only a file
// with an executable extension.
func (ri *releaseInstaller) file() string {
	if ri.env.GOOS == "windows" {
		return ri.binary + ".exe"
	}
	return ri.binary
}

// install downloads, hashes and decompresses in one pass into a temporary
// file beside the destination, and renames it into place only after the
// hash matched and gzip reached its clean end. Every failure removes the
// temporary file, so only a verified binary is ever at the destination.
func (ri *releaseInstaller) install(ctx context.Context, _ *Runner, out *Output) (err error) {
	if ri.sum == "" {
		return fmt.Errorf("%w for %s; install %s manually", ErrNoChecksum, ri.asset, ri.binary)
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
	return os.Rename(tmp.Name(), join(ri.env.GOOS, dir, ri.file()))
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

// newReleaseInstaller returns the release installer of an entry for env,
// or an *UnsupportedError on a host the release has no asset for.
// Built-in entries take the configured mirror and checksums
// (Config.ReleaseBaseURL, Config.ReleaseChecksums) where set; an operator's
// entry always its own.
func newReleaseInstaller(env *taskenv.Env, cfg *Config, e catalog.Entry) (*releaseInstaller, error) {
	goarch := cfg.goarch()
	asset, ok := e.Install.Release.Asset(env.GOOS, goarch)
	if !ok {
		return nil, &UnsupportedError{Language: first(e.Languages), Server: e.ID, Code: wire.NotInstallableOS,
			Reason: fmt.Sprintf("%s cannot be auto-installed on %s (%s) task hosts; install it manually on the task host's PATH", e.Command, osName(env.GOOS), goarch)}
	}
	root, err := CacheRoot(env)
	if err != nil {
		return nil, err
	}
	base, sum := e.Install.Release.BaseURL, asset.SHA256
	if !e.Operator {
		if cfg.ReleaseBaseURL != "" {
			base = cfg.ReleaseBaseURL
		}
		if cfg.ReleaseChecksums != nil {
			sum = cfg.ReleaseChecksums[asset.File]
		}
	}
	return &releaseInstaller{
		work: work{env: env}, root: root, managed: e.Install.Managed, binary: e.Command, asset: asset.File,
		url:    strings.TrimRight(base, "/") + "/" + asset.File,
		sum:    sum,
		client: cfg.httpClient(),
		stall:  cfg.stallTimeout(),
		max:    cfg.maxReleaseSize(),
	}, nil
}

// osName is an operating system's name for people.
func osName(goos string) string {
	switch goos {
	case "windows":
		return "Windows"
	case "darwin":
		return "macOS"
	case "linux":
		return "Linux"
	}
	return goos
}
