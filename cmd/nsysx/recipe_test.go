package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func TestRecipeUsage(t *testing.T) {
	_, in := reports(t, "rank0")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"recipe"}, 2, "nsysx recipe: give a recipe name"},
		{[]string{"recipe", "cuda_gpu_kern_summ", "--input", in[0]}, 2, "did you mean cuda_gpu_kern_sum?"},
		{[]string{"recipe", "cuda_gpu_kern_sum", "--input", "/nonexistent/x.nsys-rep"}, 2, "--input /nonexistent/x.nsys-rep: no such file or directory"},
		{[]string{"recipe", "cuda_gpu_kern_sum", "--input", in[0], "--bins", "3"}, 2, "recipe cuda_gpu_kern_sum does not take --bins"},
		{[]string{"recipe", "cuda_gpu_kern_sum", "--input", in[0], "--filter-time", "5/6", "--filter-nvtx", "a"}, 2, "cannot be used together"},
		{[]string{"recipe", "--bogus", "cuda_gpu_kern_sum"}, 2, "unknown option --bogus before the recipe name"},
		{[]string{"recipe", "nvtx_pace", "--input", in[0]}, 2, "recipe nvtx_pace needs --name NAME"},
	}
	for _, tc := range tests {
		stdout, stderr, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and one line with %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

func TestRecipeHelp(t *testing.T) {
	stdout, _, code := runCLI(t, "recipe", "--help-recipes")
	for _, want := range []string{"cuda_gpu_kern_sum", "diff", "nccl_sum"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("--help-recipes: exit %d, no %s in\n%s", code, want, stdout)
		}
	}
	stdout, _, code = runCLI(t, "recipe", "diff", "--help")
	if code != 0 || !strings.Contains(stdout, "--tolerance T") || !strings.Contains(stdout, "--drop") || strings.Contains(stdout, "--bins") {
		t.Errorf("diff --help: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, "recipe", "diff", "--print-compat-recipes")
	if code != 0 || !strings.Contains(stdout, "cuda_gpu_kern_sum") {
		t.Errorf("--print-compat-recipes: exit %d\n%s", code, stdout)
	}
}

// TestRecipeGolden runs the command line nsys ran for the golden
// (rank0 rank1, --output) and compares every Parquet file with nsys's.
func TestRecipeGolden(t *testing.T) {
	_, in := reports(t, "rank0", "rank1")
	out := filepath.Join(t.TempDir(), "rec", "cuda_gpu_kern_sum")
	stdout, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", in[0], in[1], "--output", out, "--csv")
	if code != 0 || stdout != "Generated:\n    "+out+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, f := range []string{"rank_stats", "rank_stats_by_device", "all_stats", "files"} {
		sameFrame(t, filepath.Join(goldenRecipe("rank0+rank1", "cuda_gpu_kern_sum"), f+".parquet"), filepath.Join(out, f+".parquet"))
		if st, err := os.Stat(filepath.Join(out, f+".csv")); err != nil || st.Size() == 0 {
			t.Errorf("--csv: no %s.csv", f)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "cuda_gpu_kern_sum.nsys-analysis")); err != nil {
		t.Errorf("no .nsys-analysis: %v", err)
	}
	// A directory expands to the same two reports (rank order by stem).
	dir, _ := reports(t, "rank1", "rank0")
	out2 := filepath.Join(t.TempDir(), "d")
	if _, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--inp", dir, "--out", out2, "--mode", "none"); code != 0 {
		t.Fatalf("directory input: exit %d: %s", code, stderr)
	}
	sameFrame(t, filepath.Join(goldenRecipe("rank0+rank1", "cuda_gpu_kern_sum"), "rank_stats.parquet"), filepath.Join(out2, "rank_stats.parquet"))
}

// TestRecipeClearOutput: nsys's internal --clear-output (before or after the
// recipe name) deletes the result after the run.
func TestRecipeClearOutput(t *testing.T) {
	_, in := reports(t, "rank0")
	for _, args := range [][]string{
		{"recipe", "--log-level", "info", "--clear-output", "nccl_sum", "--input", in[0]},
		{"recipe", "nccl_sum", "--input", in[0], "--clear-output"},
	} {
		out := filepath.Join(t.TempDir(), "o")
		args = append(args, "--output", out)
		if _, stderr, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%q: %s was not removed", args, out)
		}
	}
}

// TestRecipeNoData: train has no NCCL ranges: nsys's message, exit 0, and
// no directory.
func TestRecipeNoData(t *testing.T) {
	_, in := reports(t, "train")
	out := filepath.Join(t.TempDir(), "nccl")
	stdout, stderr, code := runCLI(t, "recipe", "nccl_sum", "--input", in[0], "--output", out)
	if code != 0 || stdout != "No output generated.\n" || stderr != "nsysx recipe: train.sqlite was successfully processed, but no data was found.\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists", out)
	}
}

// TestRecipeBadReport: a corrupt file among good reports is named on one
// line and skipped; --strict makes it exit 1; alone it is exit 1.
func TestRecipeBadReport(t *testing.T) {
	dir, in := reports(t, "rank0")
	bad := filepath.Join(dir, "broken.sqlite")
	if err := os.WriteFile(bad, []byte("not a database at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "o")
	stdout, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", in[0], bad, "--output", out)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "nsysx recipe: skipped "+bad+": ") || !strings.HasPrefix(stdout, "Generated:") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	files, err := pyframe.ReadParquet(filepath.Join(out, "files.parquet"))
	if err != nil || files.Rows() != 1 || files.Find("File").Strs[0] != "rank0" {
		t.Errorf("files.parquet: %v; want only rank0", err)
	}
	out2 := filepath.Join(t.TempDir(), "o")
	_, stderr, code = runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", in[0], bad, "--output", out2, "--strict")
	if code != 1 || !strings.Contains(stderr, bad) {
		t.Errorf("--strict: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("--strict wrote %s", out2)
	}
	_, stderr, code = runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", bad, "--output", out2)
	if code != 1 || stderr != "nsysx recipe: "+lines[0][len("nsysx recipe: skipped "):]+"\n" {
		t.Errorf("only a bad report: exit %d, stderr %q", code, stderr)
	}
}

// TestRecipeDiffCLI: diff of two runs of one recipe on the same inputs is all
// zeros; over two different recipes it is an error; --csv writes the right
// files.csv.
func TestRecipeDiffCLI(t *testing.T) {
	_, in := reports(t, "rank0", "rank1")
	tmp := t.TempDir()
	run1, run2, kern := filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "k")
	for _, o := range []string{run1, run2} {
		if _, stderr, code := runCLI(t, "recipe", "nccl_sum", "--input", in[0], in[1], "--output", o); code != 0 {
			t.Fatalf("nccl_sum: %s", stderr)
		}
	}
	if _, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", in[0], in[1], "--output", kern); code != 0 {
		t.Fatalf("cuda_gpu_kern_sum: %s", stderr)
	}
	d := filepath.Join(tmp, "diff")
	stdout, stderr, code := runCLI(t, "recipe", "diff", "--input", run1, run2, "--output", d, "--csv")
	if code != 0 || !strings.HasPrefix(stdout, "Generated:") {
		t.Fatalf("diff: exit %d, %s", code, stderr)
	}
	rs := readFrame(t, filepath.Join(d, "rank_stats.parquet"))
	if rs.Rows() == 0 {
		t.Fatal("diff rank_stats is empty")
	}
	for _, c := range rs.Cols {
		for i := 0; i < c.Len() && c.Name != "Rank" && c.Name != "Text"; i++ {
			if !c.IsNull(i) && (c.Type == recipe.Float64 && c.FloatVals[i] != 0 || c.Type != recipe.Float64 && c.IntVals[i] != 0) {
				t.Errorf("%s row %d is not 0", c.Name, i)
			}
		}
	}
	csv, err := os.ReadFile(filepath.Join(d, "files.csv"))
	if err != nil || string(csv) != "Rank,File1,File2\n0,rank0,rank0\n1,rank1,rank1\n" {
		t.Errorf("files.csv %q, %v", csv, err)
	}
	dd := filepath.Join(tmp, "diff-drop")
	if _, stderr, code := runCLI(t, "recipe", "diff", "--input", run1, run2, "--output", dd, "--drop"); code != 0 {
		t.Fatalf("diff --drop: exit %d, %s", code, stderr)
	}
	for _, f := range []string{"rank_stats", "all_stats"} {
		if fr, err := pyframe.ReadParquet(filepath.Join(dd, f+".parquet")); err != nil || fr.Rows() != 0 {
			t.Errorf("diff --drop %s: %v, want no rows", f, err)
		}
	}
	_, stderr, code = runCLI(t, "recipe", "diff", "--input", run1, kern, "--output", filepath.Join(tmp, "x"))
	if code != 1 || !strings.Contains(stderr, "the output of nccl_sum and") {
		t.Errorf("different recipes: exit %d, %q", code, stderr)
	}
	_, stderr, code = runCLI(t, "recipe", "diff", "--input", run1, tmp, "--output", filepath.Join(tmp, "y"))
	if code != 1 || !strings.Contains(stderr, "not a recipe output directory") {
		t.Errorf("not an output: exit %d, %q", code, stderr)
	}
}

// TestRecipeReportWithExport: a directory holding rank0.nsys-rep and its
// fresh rank0.sqlite expands to the report once, which is opened through
// its cached export (no nsys needed); --force-export asks nsys again, and
// without nsys on PATH the report cannot be read.
func TestRecipeReportWithExport(t *testing.T) {
	dir, _ := reports(t, "rank0")
	rep := filepath.Join(dir, "rank0.nsys-rep")
	if err := os.WriteFile(rep, []byte("a report"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(rep, old, old); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	out := filepath.Join(t.TempDir(), "o")
	if _, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", dir, "--output", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files, err := pyframe.ReadParquet(filepath.Join(out, "files.parquet"))
	if err != nil || files.Rows() != 1 || files.Find("File").Strs[0] != "rank0" {
		t.Fatalf("files.parquet: %v, want one rank0", err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "o.nsys-analysis"))
	if !strings.Contains(string(b), `"`+rep+`"`) || strings.Contains(string(b), "rank0.sqlite") {
		t.Errorf(".nsys-analysis input should list the report only:\n%s", b)
	}
	_, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", rep, "--output", out+"2", "--force-export")
	if code != 1 || !strings.Contains(stderr, "nsys is not on PATH") {
		t.Errorf("--force-export without nsys: exit %d, %q", code, stderr)
	}
}
