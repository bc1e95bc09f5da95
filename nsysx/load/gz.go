package load

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

	"github.com/nsysx/nsysx/internal/atomicfile"
)

// compressedExt returns ".gz" or ".zst" when path names a compressed
// export, else "".
func CompressedExt(path string) string {
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
	if CompressedExt(path) == "" {
		return path, nil
	}
	return decompressed(ctx, path, Options{})
}

// decompressed returns an uncompressed copy of a .gz or .zst export in the
// cache directory that .nsys-rep exports use. It is written once and
// reused while the compressed file has the same content key (contentKey,
// part of the copy's name): a file replaced by another profile with the
// same modification time (cp -p, tar, rsync -t) gets its own copy. Older
// copies of the same path are removed; the compressed file is only read.
func decompressed(ctx context.Context, path string, o Options) (string, error) {
	key, err := contentKey(path)
	if err != nil {
		return "", err
	}
	out := decompressedPath(path, key)
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	dir := filepath.Dir(out)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	atomicfile.RemoveStale(dir, filepath.Base(out), "", atomicfile.StaleAfter)
	tmp, err := atomicfile.CreateTemp(dir, "."+filepath.Base(out)+".partial-*")
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
	if err := os.Rename(tmp.Name(), out); err != nil {
		return "", err
	}
	removeOtherCopies(out)
	if o.Progress != nil { // after, so that a failure is one line
		o.Progress(fmt.Sprintf("decompressed %s to %s (once)", path, out))
	}
	return out, nil
}

// keyPart is how much of each end of a compressed file contentKey reads.
const keyPart = 64 << 10

// contentKey identifies the content of the compressed file path without
// reading all of it: a hash of its size and its first and last keyPart
// bytes (the whole file when it is at most twice that). The end of a gzip
// file holds the CRC-32 and length of everything it decompresses to, and
// a zstd frame ends with a checksum of its content, so two profiles that
// differ anywhere differ there (docs/outputs.md §4).
func contentKey(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d\n", st.Size())
	if st.Size() <= 2*keyPart {
		_, err = io.Copy(h, f)
	} else if _, err = io.Copy(h, io.NewSectionReader(f, 0, keyPart)); err == nil {
		_, err = io.Copy(h, io.NewSectionReader(f, st.Size()-keyPart, keyPart))
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// removeOtherCopies removes the cached copies of the same compressed path
// that other contents left (their names differ from out's only in the
// content key). A process that has one open keeps reading it.
func removeOtherCopies(out string) {
	dir, base := filepath.Split(out)
	stem := strings.TrimSuffix(base, ".sqlite")
	prefix := stem[:strings.LastIndexByte(stem, '-')+1]
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if n != base && strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".sqlite") && len(n) == len(base) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// decompressTo writes the decompressed content of path to w.
func decompressTo(ctx context.Context, w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader
	if CompressedExt(path) == ".zst" {
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
// without the compression suffix, a hash of its absolute path and its
// content key.
func decompressedPath(path, key string) string {
	abs, _ := filepath.Abs(path)
	h := sha256.Sum256([]byte(abs))
	name := filepath.Base(path)
	name = name[:len(name)-len(CompressedExt(name))]
	name = strings.TrimSuffix(name, ".sqlite")
	return filepath.Join(cacheDir(), name+"-"+hex.EncodeToString(h[:6])+"-"+key+".sqlite")
}
