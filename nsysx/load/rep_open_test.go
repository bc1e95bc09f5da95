package load_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/load"
)

// fakeNsys puts a stand-in `nsys` on PATH whose `export` copies a real SQLite
// export to the --output path and counts its calls.
func fakeNsys(t *testing.T, export string) (calls func() int) {
	calls, _ = testutil.FakeNsys(t, `cp "`+export+`" "$out"`)
	return calls
}

func TestNsysRepExport(t *testing.T) {
	calls := fakeNsys(t, testutil.Profile(t, "sync"))
	dir := t.TempDir()
	rep := filepath.Join(dir, "run.nsys-rep")
	os.WriteFile(rep, []byte("not really a report"), 0o644)

	p, err := nsysx.Open(rep)
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
	if _, err := nsysx.Open(rep); err != nil || calls() != 1 {
		t.Fatalf("fresh export not reused: err %v, %d nsys calls", err, calls())
	}
	// A newer report is exported again.
	future := time.Now().Add(time.Hour)
	os.Chtimes(rep, future, future)
	if _, err := nsysx.Open(rep); err != nil || calls() != 2 {
		t.Fatalf("stale export reused: err %v, %d calls", err, calls())
	}
	if _, err := nsysx.OpenWith(context.Background(), rep, nsysx.OpenOptions{ForceExport: true}); err != nil || calls() != 3 {
		t.Fatalf("--force-export did not re-export: err %v, %d calls", err, calls())
	}
	if b, _ := os.ReadFile(rep); string(b) != "not really a report" {
		t.Fatal("report modified")
	}
}

func TestNsysRepCacheDir(t *testing.T) {
	calls := fakeNsys(t, testutil.Profile(t, "sync"))
	cache := t.TempDir()
	t.Setenv("NSYSX_CACHE_DIR", cache)
	load.SetDirWritable(func(string) bool { return false })
	defer load.SetDirWritable(nil)
	dir := t.TempDir()
	rep := filepath.Join(dir, "ro.nsys-rep")
	os.WriteFile(rep, []byte("x"), 0o644)
	if _, err := nsysx.Open(rep); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ro.sqlite")); err == nil {
		t.Error("wrote beside a report in an unwritable folder")
	}
	m, _ := filepath.Glob(filepath.Join(cache, "ro-*.sqlite"))
	if len(m) != 1 {
		t.Fatalf("cache export missing: %v", m)
	}
	if _, err := nsysx.Open(rep); err != nil || calls() != 1 {
		t.Fatalf("cached export not reused: %v, %d calls", err, calls())
	}
}

func TestNsysRepWithoutNsys(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	rep := filepath.Join(t.TempDir(), "a.nsys-rep")
	os.WriteFile(rep, []byte("x"), 0o644)
	_, err := nsysx.Open(rep)
	if !errors.Is(err, load.ErrNoNsys) || !testutil.ErrorHas(err, "nsys export -t sqlite") {
		t.Fatalf("want load.ErrNoNsys with the manual command, got %v", err)
	}
}

// newRep makes a stand-in .nsys-rep (the fake nsys does not read it).
func newRep(t *testing.T) (dir, rep string) {
	dir = t.TempDir()
	rep = filepath.Join(dir, "run.nsys-rep")
	if err := os.WriteFile(rep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, rep
}

// openWithin runs nsysx.OpenWith on its own goroutine, and gives up after 20 s
// (a hung nsys must not hang the caller).
func openWithin(t *testing.T, ctx context.Context, rep string, o nsysx.OpenOptions) error {
	done := make(chan error, 1)
	go func() {
		p, err := nsysx.OpenWith(ctx, rep, o)
		if err == nil {
			p.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		return errors.New("OpenWith did not return within 20 s")
	}
}

// Concurrent opens of one report export once; the others wait and reuse
// the export, and nobody reads half of it.
func TestNsysRepConcurrent(t *testing.T) {
	calls, _ := testutil.FakeNsys(t, `sleep 0.3; cp "`+testutil.Profile(t, "sync")+`" "$out"`)
	dir, rep := newRep(t)
	const runs = 12
	errs := make(chan error, runs)
	for range runs {
		go func() { errs <- openWithin(t, context.Background(), rep, nsysx.OpenOptions{}) }()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if calls() != 1 {
		t.Errorf("%d nsys exports for %d concurrent runs, want 1", calls(), runs)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*partial*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// An export nsys wrote only half of is an error, and is not kept.
func TestNsysRepHalfWritten(t *testing.T) {
	src := testutil.Profile(t, "sync")
	testutil.FakeNsys(t, `head -c 300000 "`+src+`" > "$out"`)
	dir, rep := newRep(t)
	err := openWithin(t, context.Background(), rep, nsysx.OpenOptions{})
	if !testutil.ErrorHas(err, "unusable") {
		t.Fatalf("half an export: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("something was kept: %v", ents)
	}
	calls := fakeNsys(t, src) // a good nsys now: exported, not refused
	if err := openWithin(t, context.Background(), rep, nsysx.OpenOptions{}); err != nil || calls() != 1 {
		t.Fatalf("after a good export: %v, %d calls", err, calls())
	}
}

// A cached export that is not valid gives an error naming it and
// --force-export, which replaces it.
func TestNsysRepInvalidCache(t *testing.T) {
	src := testutil.Profile(t, "sync")
	calls := fakeNsys(t, src)
	dir, rep := newRep(t)
	data := testutil.ReadFile(t, src)
	bad := filepath.Join(dir, "run.sqlite")
	os.WriteFile(bad, data[:len(data)/2], 0o644)
	future := time.Now().Add(time.Minute)
	os.Chtimes(bad, future, future)
	err := openWithin(t, context.Background(), rep, nsysx.OpenOptions{})
	if !testutil.ErrorHas(err, bad, "--force-export") {
		t.Fatalf("invalid cached export: %v", err)
	}
	if err := openWithin(t, context.Background(), rep, nsysx.OpenOptions{ForceExport: true}); err != nil || calls() != 1 {
		t.Fatalf("--force-export: %v, %d calls", err, calls())
	}
}

// hangingNsys is an nsys that starts a child and never finishes.
const hangingNsys = `sleep 60 & echo $! >> PIDFILE; echo $$ >> PIDFILE; sleep 60`

// A timeout (option or NSYSX_EXPORT_TIMEOUT) stops nsys and its children.
func TestNsysRepTimeout(t *testing.T) {
	for _, viaEnv := range []bool{false, true} {
		_, pidfile := testutil.FakeNsys(t, hangingNsys)
		dir, rep := newRep(t)
		o := nsysx.OpenOptions{ExportTimeout: 300 * time.Millisecond}
		if viaEnv {
			o.ExportTimeout = 0
			t.Setenv("NSYSX_EXPORT_TIMEOUT", "300ms")
		}
		err := openWithin(t, context.Background(), rep, o)
		if !testutil.ErrorHas(err, "--export-timeout") {
			t.Fatalf("env %v: %v", viaEnv, err)
		}
		testutil.NoneAlive(t, testutil.WaitPids(t, pidfile, 2))
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("something was kept: %v", ents)
		}
	}
}

// Cancelling the context stops nsys and every process it started.
func TestNsysRepCancel(t *testing.T) {
	_, pidfile := testutil.FakeNsys(t, hangingNsys)
	_, rep := newRep(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		testutil.WaitPids(t, pidfile, 2)
		cancel()
	}()
	if err := openWithin(t, ctx, rep, nsysx.OpenOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled export: %v", err)
	}
	testutil.NoneAlive(t, testutil.Pids(pidfile))
}
