package nsysx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
)

// fakeNsys puts a stand-in `nsys` on PATH whose `export` copies a real SQLite
// export to the --output path and counts its calls.
func fakeNsys(t *testing.T, export string) (calls func() int) {
	calls, _ = testutil.FakeNsys(t, `cp "`+export+`" "$out"`)
	return calls
}

func TestNsysRepExport(t *testing.T) {
	calls := fakeNsys(t, fixture(t, "sync"))
	dir := t.TempDir()
	rep := filepath.Join(dir, "run.nsys-rep")
	os.WriteFile(rep, []byte("not really a report"), 0o644)

	p, err := Open(rep)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := p.Stats(context.Background(), "cuda_gpu_kern_sum"); err != nil || r.Len() != 2 {
		t.Fatalf("report on the export: %v, %d rows", err, r.Len())
	}
	p.Close()
	if _, err := os.Stat(filepath.Join(dir, "run.sqlite")); err != nil {
		t.Fatalf("export not written beside the report: %v", err)
	}
	if _, err := Open(rep); err != nil || calls() != 1 {
		t.Fatalf("fresh export not reused: err %v, %d nsys calls", err, calls())
	}
	// A newer report is exported again.
	future := time.Now().Add(time.Hour)
	os.Chtimes(rep, future, future)
	if _, err := Open(rep); err != nil || calls() != 2 {
		t.Fatalf("stale export reused: err %v, %d calls", err, calls())
	}
	if _, err := OpenWith(context.Background(), rep, OpenOptions{ForceExport: true}); err != nil || calls() != 3 {
		t.Fatalf("--force-export did not re-export: err %v, %d calls", err, calls())
	}
	if b, _ := os.ReadFile(rep); string(b) != "not really a report" {
		t.Fatal("report modified")
	}
}

func TestNsysRepCacheDir(t *testing.T) {
	calls := fakeNsys(t, fixture(t, "sync"))
	cache := t.TempDir()
	t.Setenv("NSYSX_CACHE_DIR", cache)
	dirWritableFn = func(string) bool { return false }
	defer func() { dirWritableFn = dirWritable }()
	dir := t.TempDir()
	rep := filepath.Join(dir, "ro.nsys-rep")
	os.WriteFile(rep, []byte("x"), 0o644)
	if _, err := Open(rep); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ro.sqlite")); err == nil {
		t.Error("wrote beside a report in an unwritable folder")
	}
	m, _ := filepath.Glob(filepath.Join(cache, "ro-*.sqlite"))
	if len(m) != 1 {
		t.Fatalf("cache export missing: %v", m)
	}
	if _, err := Open(rep); err != nil || calls() != 1 {
		t.Fatalf("cached export not reused: %v, %d calls", err, calls())
	}
}

func TestNsysRepWithoutNsys(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	rep := filepath.Join(t.TempDir(), "a.nsys-rep")
	os.WriteFile(rep, []byte("x"), 0o644)
	_, err := Open(rep)
	if !errors.Is(err, ErrNoNsys) || !strings.Contains(err.Error(), "nsys export -t sqlite") {
		t.Fatalf("want ErrNoNsys with the manual command, got %v", err)
	}
}
