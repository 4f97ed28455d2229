package assets

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

// Compress writes the Brotli (PATH.br, quality 11) and gzip (PATH.gz,
// level 9) siblings of the file at path, each through a temporary file
// and a rename, so a Handler never serves half of one. Run it whenever the
// file is rebuilt: a Handler ignores a sibling older than its file.
func Compress(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("assets: %s: %w", path, fs.ErrInvalid)
	}
	writers := []struct {
		suffix string
		open   func(io.Writer) io.WriteCloser
	}{
		{".br", func(w io.Writer) io.WriteCloser { return brotli.NewWriterLevel(w, brotli.BestCompression) }},
		{".gz", func(w io.Writer) io.WriteCloser { z, _ := gzip.NewWriterLevel(w, gzip.BestCompression); return z }},
	}
	for _, wr := range writers {
		if err := compressTo(path, path+wr.suffix, wr.open); err != nil {
			return err
		}
	}
	return nil
}

func compressTo(src, dst string, open func(io.Writer) io.WriteCloser) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	zw := open(tmp)
	if _, err = io.Copy(zw, in); err != nil {
		return err
	}
	if err = zw.Close(); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), dst); err != nil {
		return errors.Join(err, os.Remove(tmp.Name()))
	}
	return nil
}
