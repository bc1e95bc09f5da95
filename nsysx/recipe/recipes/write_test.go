package recipes

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// goldenResult is a Result whose tables are the golden cuda_gpu_kern_sum
// files read back.
func goldenResult(t *testing.T) *recipe.Result {
	t.Helper()
	out := &recipe.Output{}
	for _, name := range []string{"rank_stats", "rank_stats_by_device", "all_stats", "files"} {
		f, err := pyframe.ReadParquet(testutil.GoldenRecipe("rank0+rank1/cuda_gpu_kern_sum/" + name + ".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		out.Tables = append(out.Tables, recipe.Table{Name: name, Frame: f, NoCSV: name == "rank_stats_by_device"})
	}
	o := recipe.Defaults()
	o.Input = rank01
	r := &recipe.Recipe{Name: "cuda_gpu_kern_sum", DisplayName: "CUDA GPU Kernel Summary", Options: statsKeys, Notebook: "stats.ipynb"}
	return &recipe.Result{Recipe: r, Opts: o, Output: out, Start: time.Now(), End: time.Now()}
}

func TestWriteDefaultNameAndContents(t *testing.T) {
	wd := t.TempDir()
	res := goldenResult(t)
	res.Opts.CSV = true
	extra := func(dir string) error { return os.WriteFile(filepath.Join(dir, "stats.ipynb"), []byte("{}"), 0o644) }
	dir, err := res.Write(&recipe.WriteOptions{WorkDir: wd, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(wd, "cuda_gpu_kern_sum-1"); dir != want {
		t.Fatalf("dir %s, want %s", dir, want)
	}
	want := []string{atomicfile.Manifest, "all_stats.csv", "all_stats.parquet", "cuda_gpu_kern_sum-1.nsys-analysis", "files.csv", "files.parquet",
		"rank_stats.csv", "rank_stats.parquet", "rank_stats_by_device.parquet", "stats.ipynb"}
	if got := testutil.DirNames(t, dir); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files %q, want %q", got, want)
	}
	for _, name := range []string{"rank_stats", "rank_stats_by_device", "all_stats", "files"} {
		g := testutil.GoldenRecipe("rank0+rank1/cuda_gpu_kern_sum/" + name + ".parquet")
		if err := pqcompare.Files(g, filepath.Join(dir, name+".parquet")); err != nil {
			t.Error(err)
		}
	}
	js, err := os.ReadFile(filepath.Join(dir, "cuda_gpu_kern_sum-1.nsys-analysis"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"output": null,`) || !strings.Contains(string(js), `"stats.ipynb": "Notebook"`) {
		t.Errorf("analysis:\n%s", js)
	}
	if got := testutil.DirNames(t, wd); len(got) != 1 {
		t.Errorf("work dir holds %q, want only the output directory", got)
	}
	// A second run takes the next free number.
	dir2, err := res.Write(&recipe.WriteOptions{WorkDir: wd})
	if err != nil || filepath.Base(dir2) != "cuda_gpu_kern_sum-2" {
		t.Errorf("second run: %s, %v", dir2, err)
	}
}

// An existing output is replaced only with --force-overwrite, and only
// when it is a recipe output: a directory of the user's is never touched,
// with or without it.
func TestWriteRefusesExistingWithoutForce(t *testing.T) {
	wd := t.TempDir()
	mine := filepath.Join(wd, "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "keep.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := goldenResult(t)
	res.Opts.Output = "mine"
	for _, force := range []bool{false, true} {
		res.Opts.ForceOverwrite = force
		_, err := res.Write(&recipe.WriteOptions{WorkDir: wd})
		if !errors.Is(err, recipe.ErrOutputExists) || !strings.Contains(err.Error(), mine) || !strings.Contains(err.Error(), "not an output directory") {
			t.Fatalf("force %v: err = %v, want ErrOutputExists naming %s", force, err, mine)
		}
		if got := testutil.DirNames(t, mine); strings.Join(got, " ") != "keep.txt" {
			t.Errorf("force %v: the user's directory changed: %q", force, got)
		}
	}
	// A recipe output of an earlier run: refused without --force-overwrite,
	// replaced with it.
	res.Opts.Output, res.Opts.ForceOverwrite = "out", false
	if _, err := res.Write(&recipe.WriteOptions{WorkDir: wd}); err != nil {
		t.Fatal(err)
	}
	_, err := res.Write(&recipe.WriteOptions{WorkDir: wd})
	if !errors.Is(err, recipe.ErrOutputExists) || !strings.Contains(err.Error(), "--force-overwrite") {
		t.Fatalf("err = %v, want ErrOutputExists naming --force-overwrite", err)
	}
	res.Opts.ForceOverwrite = true
	res.Output.Tables = res.Output.Tables[:1]
	dir, err := res.Write(&recipe.WriteOptions{WorkDir: wd})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(testutil.DirNames(t, dir), " ")
	if got != atomicfile.Manifest+" out.nsys-analysis rank_stats.parquet" {
		t.Errorf("after --force-overwrite: %q", got)
	}
	if got := testutil.DirNames(t, wd); strings.Join(got, " ") != "mine out" {
		t.Errorf("work dir holds %q, want only mine and out", got)
	}
	js, _ := os.ReadFile(filepath.Join(dir, "out.nsys-analysis"))
	if !strings.Contains(string(js), `"output": "out",`) || !strings.Contains(string(js), `"force_overwrite": true,`) {
		t.Errorf("analysis:\n%s", js)
	}
}

// A recipe never replaces a directory that holds one of its inputs, even
// an output of its own (nsysx recipe --input d/u/x.sqlite --output d
// --force-overwrite deleted d/u and the input).
func TestWriteKeepsInputs(t *testing.T) {
	wd := t.TempDir()
	res := goldenResult(t)
	res.Opts.Output, res.Opts.ForceOverwrite = "d", true
	d, err := res.Write(&recipe.WriteOptions{WorkDir: wd})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(d, "x.sqlite")
	if err := os.WriteFile(in, []byte("profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := testutil.DirNames(t, d)
	res.Opts.Input = []string{in}
	_, err = res.Write(&recipe.WriteOptions{WorkDir: wd})
	if !errors.Is(err, recipe.ErrOutputExists) || !strings.Contains(err.Error(), "holds the input "+in) {
		t.Fatalf("err = %v, want a refusal naming the input", err)
	}
	if got := testutil.DirNames(t, d); strings.Join(got, " ") != strings.Join(before, " ") {
		t.Errorf("the output holding the input changed: %q, was %q", got, before)
	}
}

func TestWriteFailureLeavesNothing(t *testing.T) {
	wd := t.TempDir()
	res := goldenResult(t)
	boom := errors.New("chart failed")
	_, err := res.Write(&recipe.WriteOptions{WorkDir: wd, Extra: func(string) error { return boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got := testutil.DirNames(t, wd); len(got) != 0 {
		t.Errorf("a failed run left %q", got)
	}
	// A frame that cannot be written fails the same way.
	res.Output.Tables[0].Frame.Cols[0].IntVals = nil
	if _, err := res.Write(&recipe.WriteOptions{WorkDir: wd}); err == nil {
		t.Fatal("a broken frame was written")
	}
	if got := testutil.DirNames(t, wd); len(got) != 0 {
		t.Errorf("a failed run left %q", got)
	}
}

func TestExpandOutput(t *testing.T) {
	wd := t.TempDir()
	t.Setenv("RIO_TEST_RUN", "r7")
	host, _ := os.Hostname()
	pid := strconv.Itoa(os.Getpid())
	for in, want := range map[string]string{
		wd + "/a-%q{RIO_TEST_RUN}": wd + "/a-r7",
		wd + "/%h-%p":              wd + "/" + host + "-" + pid,
		wd + "/100%%":              wd + "/100%",
		wd + "/plain":              wd + "/plain",
	} {
		if got, err := recipe.ExpandOutput(in); err != nil || got != want {
			t.Errorf("ExpandOutput(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, n := range []string{"run-1", "run-2"} {
		if err := os.Mkdir(filepath.Join(wd, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := recipe.ExpandOutput(wd + "/run-%n"); err != nil || got != wd+"/run-3" {
		t.Errorf("%%n: %q, %v; want run-3", got, err)
	}
	for _, bad := range []string{"x%z", "x%", "%q{RIO_UNSET_VAR_X}", "%qRIO"} {
		_, err := recipe.ExpandOutput(bad)
		if !errors.Is(err, recipe.ErrUsage) {
			t.Errorf("ExpandOutput(%q): err = %v, want a usage error", bad, err)
		}
	}
	// A relative %n is resolved in WriteOptions.WorkDir.
	res := goldenResult(t)
	res.Opts.Output = "run-%n"
	dir, err := res.Write(&recipe.WriteOptions{WorkDir: wd})
	if err != nil || dir != filepath.Join(wd, "run-3") {
		t.Errorf("Write with run-%%n: %s, %v; want run-3", dir, err)
	}
	if got := recipe.DefaultOutput(wd, "run"); got != filepath.Join(wd, "run-4") {
		t.Errorf("DefaultOutput = %s", got)
	}
}
