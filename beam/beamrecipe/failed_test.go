package beamrecipe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// withBroken is the shared reports with a file that is no report among
// them.
func withBroken(t *testing.T) []string {
	ins := testutil.Links(t, shared...)
	bad := filepath.Join(filepath.Dir(ins[0]), "broken.sqlite")
	if err := os.WriteFile(bad, []byte("this is not a SQLite file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(ins[:2:2], append([]string{bad}, ins[2:]...)...)
}

// TestFailedReportSkipped: a report that cannot be read is named, skipped,
// and the output is the pool's, which skips it too.
func TestFailedReportSkipped(t *testing.T) {
	r, _ := recipe.Lookup("cuda_gpu_kern_sum")
	args := recipeArgs(r, withBroken(t))
	pdir, err := runPool(t, r, args, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := runBeam(t, r, args, t.TempDir())
	if len(out.Failed) != 1 || !strings.Contains(out.Failed[0], "broken.sqlite") || out.Dir == "" {
		t.Fatalf("want broken.sqlite named and skipped, got %+v", out)
	}
	compareDirs(t, pdir, out.Dir)
}

// TestFailedReportStrict: with --strict the same report fails the run and
// nothing is written.
func TestFailedReportStrict(t *testing.T) {
	r, _ := recipe.Lookup("cuda_gpu_kern_sum")
	work := t.TempDir()
	out := runBeam(t, r, append(recipeArgs(r, withBroken(t)), "--strict"), work)
	if out.Err == "" || !strings.Contains(out.Err, "broken.sqlite") || out.Dir != "" {
		t.Fatalf("want the run failed on broken.sqlite, got %+v", out)
	}
	if _, err := os.Stat(filepath.Join(work, "out")); !os.IsNotExist(err) {
		t.Errorf("--strict failure left an output directory (%v)", err)
	}
}

// TestBeamFilesystem reads the reports from and writes the output to a
// Beam filesystem (memfs, in this process): a directory of reports given
// as memfs://in/ expands to its reports, and the files written are the
// pool's (written from local copies of the same reports).
func TestBeamFilesystem(t *testing.T) {
	ctx := context.Background()
	fs, err := filesystem.New(ctx, "memfs://in/")
	if err != nil {
		t.Fatal(err)
	}
	ins := testutil.Links(t, "rank1", "rank0")
	for _, p := range ins {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := filesystem.Write(ctx, fs, "memfs://in/"+filepath.Base(p), b); err != nil {
			t.Fatal(err)
		}
	}
	filesystem.Write(ctx, fs, "memfs://in/notes.txt", []byte("not a report"))
	r, _ := recipe.Lookup("nvtx_sum")
	pdir, err := runPool(t, r, recipeArgs(r, ins), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	args := recipeArgs(r, []string{"memfs://in/"})
	args[len(args)-1] = "memfs://out"
	out := runBeam(t, r, args, t.TempDir())
	if out.Dir != "memfs://out" {
		t.Fatalf("want memfs://out written, got %+v", out)
	}
	got := t.TempDir()
	names, err := fs.List(ctx, "memfs://out/*")
	if err != nil || len(names) == 0 {
		t.Fatalf("memfs://out: %v %v", names, err)
	}
	for _, n := range names {
		b, err := filesystem.Read(ctx, fs, n)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(got, filepath.Base(n)), b, 0o644)
	}
	// The .nsys-analysis records the inputs and output as given: memfs
	// paths here, local ones for the pool.
	compareDirs(t, pdir, got, "input", "output")
}

// On a Beam filesystem, --force-overwrite writes over an earlier output
// of nsysx but never over a directory of the user's files (the rule of a
// local output, atomicfile.CheckListing).
func TestBeamFilesystemOverwrite(t *testing.T) {
	ctx := context.Background()
	fs, err := filesystem.New(ctx, "memfs://ow/")
	if err != nil {
		t.Fatal(err)
	}
	filesystem.Write(ctx, fs, "memfs://ow/mine/notes.txt", []byte("mine"))
	r, _ := recipe.Lookup("nvtx_sum")
	args := append(recipeArgs(r, testutil.Links(t, "rank0")), "--force-overwrite")
	args[len(args)-2] = "memfs://ow/mine"
	out := runBeam(t, r, args, t.TempDir())
	if !out.Refused || !strings.Contains(out.Err, "memfs://ow/mine is not an output directory") {
		t.Errorf("over the user's directory: %+v", out)
	}
	if b, err := filesystem.Read(ctx, fs, "memfs://ow/mine/notes.txt"); err != nil || string(b) != "mine" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
	args[len(args)-2] = "memfs://ow/res"
	for i := range 2 {
		if out := runBeam(t, r, args, t.TempDir()); out.Err != "" || out.Dir != "memfs://ow/res" {
			t.Errorf("run %d into an output of nsysx: %+v", i+1, out)
		}
	}
}
