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
	for _, f := range []string{"all_stats.parquet", "rank_stats.parquet", "files.parquet", "res.nsys-analysis"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	code, _, stderr = runCLI("recipe", "cuda_gpu_kern_sum", "--input", in, "--output", out)
	if code != 1 || !strings.Contains(stderr, "exists") {
		t.Errorf("second run into %s: exit %d, %q (want 1, exists)", out, code, stderr)
	}
}
