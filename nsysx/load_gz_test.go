package nsysx_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// A .sqlite.gz or .sqlite.zst opens like its .sqlite: decompressed once into
// the cache, reused while fresh, the compressed file untouched.
func TestOpenCompressed(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("NSYSX_CACHE_DIR", cache)
	gz := filepath.Join(testutil.Root(), "testdata", "profiles", "train.sqlite.gz")
	before, err := os.Stat(gz)
	if err != nil {
		t.Fatal(err)
	}
	zst := writeZstd(t, "train")
	_, rows := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
	for _, path := range []string{gz, zst} {
		if r := kernSum(t, path); r.Len() != len(rows) || r.Col("Total Time").String(0) != rows[0][1] || r.Source != "train" {
			t.Errorf("%s: %d rows, first total %s (nsys %s), source %q", path, r.Len(), r.Col("Total Time").String(0), rows[0][1], r.Source)
		}
	}
	files, _ := filepath.Glob(filepath.Join(cache, "train-*.sqlite"))
	if len(files) != 2 {
		t.Fatalf("cache holds %v, want one copy per compressed file", files)
	}
	st1, _ := os.Stat(files[0])
	p, err := nsysx.Open(gz)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	st2, _ := os.Stat(files[0])
	if !os.SameFile(st1, st2) {
		t.Error("the fresh cached copy was written again")
	}
	after, _ := os.Stat(gz)
	if !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Error("the .gz was modified")
	}
	bad := filepath.Join(t.TempDir(), "bad.sqlite.gz")
	os.WriteFile(bad, []byte("not gzip"), 0o644)
	if _, err := nsysx.Open(bad); err == nil || !strings.Contains(err.Error(), "not a gzip file") {
		t.Errorf("bad .gz: %v", err)
	}
}

// kernSum opens path and runs cuda_gpu_kern_sum on it.
func kernSum(t *testing.T, path string) *nsysx.Result {
	t.Helper()
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, err := p.Stats(context.Background(), "cuda_gpu_kern_sum")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// writeZstd writes testdata/profiles/<name>.sqlite compressed with zstd to a
// temporary <name>.sqlite.zst and returns its path.
func writeZstd(t *testing.T, name string) string {
	t.Helper()
	zw, _ := zstd.NewWriter(nil)
	return testutil.WriteTemp(t, name+".sqlite.zst", zw.EncodeAll(testutil.ReadFile(t, testutil.Profile(t, name)), nil))
}

// The cache of a compressed export is keyed on its content: a file
// replaced by another profile with the same path and modification time
// (cp -p, tar, rsync -t) gives the second profile's results, not the
// first's cached copy. The copy is as readable as a plain created file
// (0666 less the umask, not 0600).
func TestOpenCompressedReplacedSameMtime(t *testing.T) {
	t.Setenv("NSYSX_CACHE_DIR", t.TempDir())
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "p.sqlite.gz")
	stamp := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, name := range []string{"sync", "train", "sync"} {
		b := testutil.ReadFile(t, filepath.Join(testutil.Root(), "testdata", "profiles", name+".sqlite.gz"))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, stamp, stamp); err != nil {
			t.Fatal(err)
		}
		_, rows := goldenCSV(t, name, "cuda_gpu_kern_sum.csv")
		if r := kernSum(t, path); r.Len() != len(rows) || r.Col("Total Time").String(0) != rows[0][1] {
			t.Errorf("%s at %s: %d rows, first total %s; nsys: %d rows, %s", name, path, r.Len(), r.Col("Total Time").String(0), len(rows), rows[0][1])
		}
		copies, _ := filepath.Glob(filepath.Join(os.Getenv("NSYSX_CACHE_DIR"), "p-*.sqlite"))
		if len(copies) != 1 {
			t.Fatalf("cache holds %v, want one copy of %s", copies, path)
		}
		if st, _ := os.Stat(copies[0]); st.Mode().Perm() != 0o644 {
			t.Errorf("the cached copy has mode %v, want 0644 under umask 022", st.Mode().Perm())
		}
	}
}
