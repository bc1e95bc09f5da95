package nsysx

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// compressedExt returns ".gz" or ".zst" when path names a compressed
// export, else "".
func compressedExt(path string) string {
	l := strings.ToLower(path)
	for _, e := range []string{".gz", ".zst"} {
		if strings.HasSuffix(l, e) {
			return e
		}
	}
	return ""
}

// Decompressed returns the path of the SQLite file a path names: for a
// .gz or .zst export its decompressed copy in the cache (written once,
// see Open), for any other path the path itself. Cancelling ctx stops the
// decompression with ctx.Err().
func Decompressed(ctx context.Context, path string) (string, error) {
	if compressedExt(path) == "" {
		return path, nil
	}
	return decompressed(ctx, path, OpenOptions{})
}

// decompressed returns an uncompressed copy of a .gz or .zst export in the
// cache directory that .nsys-rep exports use. It is written once and
// reused while its modification time equals the compressed file's (the
// copy is stamped with it); the compressed file is only read.
func decompressed(ctx context.Context, path string, o OpenOptions) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	out := decompressedPath(path)
	if cst, err := os.Stat(out); err == nil && cst.ModTime().Equal(st.ModTime()) {
		return out, nil
	}
	if o.Progress != nil {
		o.Progress(fmt.Sprintf("decompressing %s to %s (once)...", path, out))
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".tmp-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name()) // after a successful rename it is gone
	if err := decompressTo(ctx, tmp, path); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chtimes(tmp.Name(), st.ModTime(), st.ModTime()); err != nil {
		return "", err
	}
	return out, os.Rename(tmp.Name(), out)
}

// decompressTo writes the decompressed content of path to w.
func decompressTo(ctx context.Context, w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader
	if compressedExt(path) == ".zst" {
		zr, err := zstd.NewReader(f)
		if err != nil {
			return fmt.Errorf("not a zstd file: %w", err)
		}
		defer zr.Close()
		r = zr
	} else {
		gr, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("not a gzip file: %w", err)
		}
		defer gr.Close()
		r = gr
	}
	if _, err := io.Copy(w, ctxReader{ctx, r}); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return fmt.Errorf("decompressing: %w", err)
	}
	return nil
}

// ctxReader is r that fails with ctx.Err() once ctx is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// decompressedPath is the cache file of a compressed export: its name
// without the compression suffix and a hash of its absolute path.
func decompressedPath(path string) string {
	abs, _ := filepath.Abs(path)
	h := sha256.Sum256([]byte(abs))
	name := filepath.Base(path)
	name = name[:len(name)-len(compressedExt(name))]
	name = strings.TrimSuffix(name, ".sqlite")
	return filepath.Join(cacheDir(), name+"-"+hex.EncodeToString(h[:6])+".sqlite")
}
