package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

func TestMain(m *testing.M) { testutil.MainTemp(m) }

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestHelp: the help forms exit 0 and print usage; mistakes exit 2 with one
// line naming them.
func TestHelp(t *testing.T) {
	defer flag.Set("runner", "") // Beam's flags are global
	for _, args := range [][]string{{"--help"}, {"recipe", "--help"}, {"recipe", "--help-recipes"}, {"recipe", "nvtx_sum", "--help"}} {
		if code, out, _ := runCLI(args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d, output %q", args, code, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "Usage"},
		{[]string{"recipe"}, "give a recipe name"},
		{[]string{"recipe", "nvtx_summ", "--input", "x"}, `did you mean`},
		{[]string{"recipe", "nvtx_sum", "--input", "/no/such/report.sqlite"}, "no such file"},
		{[]string{"recipe", "nvtx_pace", "--input", "/no/such"}, "--name"},
		{[]string{"recipe", "nvtx_sum", "--input", "main.go", "--runner", "flinkk"}, "did you mean flink?"},
	} {
		code, _, errs := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want 2 and %q)", c.args, code, errs, c.want)
		}
	}
}

// TestSplitBeamFlags: Beam's flags are taken out by exact name, with their
// values; the recipe's options (and its values) stay.
func TestSplitBeamFlags(t *testing.T) {
	r, _ := recipe.Lookup("nvtx_sum")
	args := []string{"--input", "a.sqlite", "b.sqlite", "--runner", "flink", "--endpoint=localhost:8099",
		"--csv", "--environment_type", "LOOPBACK", "--output", "out", "--async"}
	rargs, bargs := splitBeamFlags(r, args)
	if want := []string{"--input", "a.sqlite", "b.sqlite", "--csv", "--output", "out"}; !reflect.DeepEqual(rargs, want) {
		t.Errorf("recipe args %q, want %q", rargs, want)
	}
	if want := []string{"--runner", "flink", "--endpoint=localhost:8099", "--environment_type", "LOOPBACK", "--async"}; !reflect.DeepEqual(bargs, want) {
		t.Errorf("Beam args %q, want %q", bargs, want)
	}
}

// TestRecipeRun runs one recipe end to end on Prism in-process and checks
// the output directory's files.
func TestRecipeRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "rank0.sqlite")
	if err := os.Symlink(testutil.Profile(t, "rank0"), in); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "res")
	code, stdout, stderr := runCLI("recipe", "cuda_gpu_kern_sum", "--input", in, "--output", out)
	if code != 0 || !strings.Contains(stdout, "Generated:\n    "+out) {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{"all_stats.parquet", "rank_stats.parquet", "files.parquet", "res.nsys-analysis",
		"cuda_gpu_kern_sum-stats.svg", "cuda_gpu_kern_sum-stats.vl.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// what the .nsys-analysis lists as Outputs (the notebook) is there
	var analysis struct{ Outputs map[string]string }
	testutil.ReadJSON(t, filepath.Join(out, "res.nsys-analysis"), &analysis)
	if len(analysis.Outputs) == 0 {
		t.Error("the .nsys-analysis lists no Outputs")
	}
	for f := range analysis.Outputs {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the .nsys-analysis lists %s: %v", f, err)
		}
	}
	code, _, stderr = runCLI("recipe", "cuda_gpu_kern_sum", "--input", in, "--output", out)
	if code != 2 || !strings.Contains(stderr, "exists") {
		t.Errorf("second run into %s: exit %d, %q (want 2, exists)", out, code, stderr)
	}
	// --force-overwrite never replaces the directory that holds the input.
	code, _, stderr = runCLI("recipe", "cuda_gpu_kern_sum", "--input", in, "--output", dir, "--force-overwrite")
	if code != 2 || !strings.Contains(stderr, dir+" holds the input") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("--output %s holding the input: exit %d, %q (want 2)", dir, code, stderr)
	}
	if _, err := os.Stat(in); err != nil {
		t.Errorf("the input: %v", err)
	}
}

// TestRunnerDot: --runner dot writes the pipeline's graph and exits 0,
// saying where it is (nothing runs, nothing else is written).
func TestRunnerDot(t *testing.T) {
	defer flag.Set("runner", "")
	defer flag.Set("dot_file", "")
	dir := t.TempDir()
	in := filepath.Join(dir, "rank0.sqlite")
	if err := os.Symlink(testutil.Profile(t, "rank0"), in); err != nil {
		t.Fatal(err)
	}
	dot := filepath.Join(dir, "p.dot")
	code, stdout, stderr := runCLI("recipe", "nvtx_sum", "--input", in, "--output", filepath.Join(dir, "res"), "--runner", "dot", "--dot_file", dot)
	b, err := os.ReadFile(dot)
	if code != 0 || err != nil || !strings.Contains(string(b), "digraph") || !strings.Contains(stdout, dot) {
		t.Errorf("exit %d, stdout %q, stderr %q, graph %v", code, stdout, stderr, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "res")); err == nil {
		t.Error("--runner dot wrote the output directory")
	}
}
