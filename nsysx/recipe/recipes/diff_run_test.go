package recipes

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func goldenRecipeDir(set, name string) string {
	return filepath.Join(testutil.Root(), "testdata", "golden", "recipes", set, name)
}

func runDiffOn(t *testing.T, a, b string, tol float64, drop bool) (*recipe.Output, error) {
	t.Helper()
	o := recipe.Defaults()
	o.Input, o.Tolerance, o.Drop = []string{a, b}, tol, drop
	r, err := recipe.Lookup(recipe.DiffName)
	if err != nil {
		t.Fatal(err)
	}
	res, err := recipe.Run(context.Background(), r, o, nil)
	if err != nil {
		return nil, err
	}
	return res.Output, nil
}

func readDiffInput(t *testing.T, dir, table string) *pyframe.Frame {
	t.Helper()
	f, err := pyframe.ReadParquet(filepath.Join(dir, table+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// cell is row i of column c as a float, or NaN for NULL.
func cell(c *pyframe.Column, i int) float64 {
	if c.IsNull(i) {
		return math.NaN()
	}
	if c.Type == pyframe.Float64 {
		return c.FloatVals[i]
	}
	return float64(c.IntVals[i])
}

// TestDiffGoldenValues diffs the two nsys-written cuda_gpu_kern_sum outputs
// (train+fixed minus rank0+rank1) and checks every cell against the
// difference of the two inputs' rows found by a plain search on (Name, Rank).
func TestDiffGoldenValues(t *testing.T) {
	d1, d2 := goldenRecipeDir("train+fixed", "cuda_gpu_kern_sum"), goldenRecipeDir("rank0+rank1", "cuda_gpu_kern_sum")
	out, err := runDiffOn(t, d1, d2, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		table string
		rank  bool
	}{{"rank_stats", true}, {"all_stats", false}} {
		a, b, got := readDiffInput(t, d1, tc.table), readDiffInput(t, d2, tc.table), out.Table(tc.table)
		if got == nil || got.Rows() != a.Rows() {
			t.Fatalf("%s: want %d rows (the first input's)", tc.table, a.Rows())
		}
		wantCols := []string{"Count", "Mean", "Std", "Min", "Q1", "Median", "Q3", "Max", "Sum", "Name"}
		if tc.rank {
			wantCols = append([]string{"Rank"}, wantCols...)
		} else {
			wantCols = []string{"Count", "Mean", "Std (approx)", "Min", "Q1 (approx)", "Median (approx)", "Q3 (approx)", "Max", "Sum", "Name"}
		}
		if g := strings.Join(got.Names(), ","); g != strings.Join(wantCols, ",") {
			t.Fatalf("%s columns %s, want %s", tc.table, g, strings.Join(wantCols, ","))
		}
		matched := 0
		for i := 0; i < a.Rows(); i++ {
			j := -1
			for k := 0; k < b.Rows(); k++ {
				if a.Find("Name").Strs[i] == b.Find("Name").Strs[k] && (!tc.rank || a.Find("Rank").IntVals[i] == b.Find("Rank").IntVals[k]) {
					j = k
				}
			}
			if j >= 0 {
				matched++
			}
			for _, name := range wantCols[:len(wantCols)-1] {
				if name == "Rank" {
					continue
				}
				want := math.NaN()
				if j >= 0 {
					want = cell(a.Find(name), i) - cell(b.Find(name), j)
				}
				g := cell(got.Find(name), i)
				if !(g == want || math.IsNaN(g) && math.IsNaN(want)) {
					t.Errorf("%s row %d (%s) %s: %v, want %v", tc.table, i, a.Find("Name").Strs[i], name, g, want)
				}
			}
		}
		if matched == 0 || matched == a.Rows() {
			t.Errorf("%s: %d of %d rows matched: the test wants both matched and unmatched rows", tc.table, matched, a.Rows())
		}
		if got.Find("Count").Type != pyframe.Float64 {
			t.Errorf("%s: Count is %v; rows missing from the second input make it float64", tc.table, got.Find("Count").Type)
		}
	}
	files := out.Table("files")
	if files == nil || strings.Join(files.Find("File1").Strs, ",") != "fixed,train" || strings.Join(files.Find("File2").Strs, ",") != "rank0,rank1" {
		t.Errorf("files: %+v", files)
	}
}

// TestDiffSameDir: a directory against itself is all zeros (NULL where the
// input is NULL: a one-instance kernel's Std); --drop leaves no row.
func TestDiffSameDir(t *testing.T) {
	d := goldenRecipeDir("train+fixed", "nvtx_gpu_proj_sum") // one-instance ranges: NULL Std
	out, err := runDiffOn(t, d, d, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	in := readDiffInput(t, d, "rank_stats")
	rs := out.Table("rank_stats")
	if rs.Rows() != in.Rows() || rs.Find("Count").Type != pyframe.Int64 || rs.Find("Min").Type != pyframe.Int64 {
		t.Fatalf("rank_stats: %d rows, Count %v Min %v; want %d rows of int64 zeros", rs.Rows(), rs.Find("Count").Type, rs.Find("Min").Type, in.Rows())
	}
	nullStd := 0
	for i := 0; i < rs.Rows(); i++ {
		for _, c := range rs.Cols[1 : len(rs.Cols)-1] {
			if v := cell(c, i); v != 0 && !math.IsNaN(v) {
				t.Errorf("row %d %s: %v, want 0", i, c.Name, v)
			}
		}
		if in.Find("Std").IsNull(i) {
			nullStd++
		}
		if rs.Find("Rank").IntVals[i] != in.Find("Rank").IntVals[i] || rs.Find("Text").Strs[i] != in.Find("Text").Strs[i] {
			t.Errorf("row %d: key (%d, %s), want the input's", i, rs.Find("Rank").IntVals[i], rs.Find("Text").Strs[i])
		}
	}
	out, err = runDiffOn(t, d, d, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if nullStd == 0 {
		t.Errorf("the input has no NULL Std: the test wants one")
	}
	if n, m := out.Table("rank_stats").Rows(), out.Table("all_stats").Rows(); n != 0 || m != 0 {
		t.Errorf("--drop: %d and %d rows left, want none (NULL on both sides is no difference)", n, m)
	}
}

func TestDiffErrors(t *testing.T) {
	empty := t.TempDir()
	noStats := goldenRecipeDir("rank0+rank1", "cuda_gpu_time_util_map")
	kern := goldenRecipeDir("train+fixed", "cuda_gpu_kern_sum")
	badJSON := t.TempDir()
	os.WriteFile(filepath.Join(badJSON, "x.nsys-analysis"), []byte("{"), 0o644)
	kernNoRank := t.TempDir()
	for _, f := range []string{"cuda_gpu_kern_sum.nsys-analysis", "all_stats.parquet", "files.parquet"} {
		b, err := os.ReadFile(filepath.Join(kern, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(kernNoRank, f), b, 0o644)
	}
	tests := []struct{ a, b, want string }{
		{kern, goldenRecipeDir("rank0+rank1", "nccl_sum"), "is the output of cuda_gpu_kern_sum and"},
		{kern, empty, "not a recipe output directory (no .nsys-analysis file)"},
		{noStats, noStats, "is an output of cuda_gpu_time_util_map: diff compares the outputs of cuda_api_sum, cuda_gpu_kern_sum,"},
		{kern, badJSON, "not valid JSON"},
		// An output of a recipe diff takes, with a table missing: the
		// error used to list cuda_gpu_kern_sum as accepted, then refuse it.
		{kern, kernNoRank, "no rank_stats.parquet, which every output of cuda_gpu_kern_sum has: the directory is incomplete"},
	}
	for _, tc := range tests {
		_, err := runDiffOn(t, tc.a, tc.b, 0, false)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s vs %s: %v, want %q", filepath.Base(tc.a), filepath.Base(tc.b), err, tc.want)
		}
	}
}
