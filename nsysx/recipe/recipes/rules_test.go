package recipes

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestRuleGolden runs the rule recipes that have nsys goldens on
// train+fixed: analysis.parquet (values, types, the null-typed Green
// Context ID, RangeIndex for gpu_time_util's single rank) and files.
func TestRuleGolden(t *testing.T) {
	for _, name := range []string{"gpu_time_util", "cuda_api_sync", "cuda_memcpy_async"} {
		t.Run(name, func(t *testing.T) {
			res := runOn(t, name, nil, "train", "fixed")
			dir := goldenDir("train+fixed", name)
			for _, tbl := range []string{"analysis", "files"} {
				compareGolden(t, filepath.Join(dir, tbl+".parquet"), res.Output.Table(tbl))
			}
		})
	}
}

// TestRuleRecipesMatchAnalyze checks the rule recipes without recipe
// goldens against the `nsys analyze` CSVs of the same rule on one profile
// (testdata/golden/<profile>/rule_*.csv; analyze's default limit of 50
// rows is matched with --rows 50, rows=-1 with the recipe's default): the same
// rows, in order, with the recipe's raw values (Bytes in B where the CSV
// shows MB) and the recipe's types.
func TestRuleRecipesMatchAnalyze(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	cases := []struct {
		recipe, profile, csv string
		set                  func(o *recipe.Options)
	}{
		{"cuda_memcpy_sync", "sync", "rule_cuda_memcpy_sync", nil},
		{"cuda_memset_sync", "sync", "rule_cuda_memset_sync", nil},
		{"gpu_gaps", "sync", "rule_gpu_gaps", nil},
		{"gpu_gaps", "fixed", "rule_gpu_gaps_gap_1", func(o *recipe.Options) { o.Gap = 1 }},
		{"gpu_time_util", "bt", "rule_gpu_time_util_window", func(o *recipe.Options) {
			o.Threshold, o.FilterTime = 90, &recipe.TimeRange{Start: i64(156893133), End: i64(278498292)}
		}},
		{"gpu_time_util", "rank1", "rule_gpu_time_util_window", func(o *recipe.Options) {
			o.Threshold, o.Start, o.End = 90, i64(3296249334), i64(6222118830)
		}},
		{"cuda_api_sync", "cnn", "rule_cuda_api_sync_nvtx", func(o *recipe.Options) { o.NVTX = &recipe.NVTXRange{Range: "step"} }},
		{"cuda_api_sync", "train", "rule_cuda_api_sync", func(o *recipe.Options) { o.Rows = 50 }},
		{"cuda_api_sync", "train", "rule_cuda_api_sync_rows_m1", nil},
	}
	for _, c := range cases {
		t.Run(c.recipe+"/"+c.profile+"/"+c.csv, func(t *testing.T) {
			o := recipe.Defaults()
			if c.set != nil {
				c.set(o)
			}
			f := runOn(t, c.recipe, o, c.profile).Output.Table("analysis")
			compareAnalyzeCSV(t, f, c.profile, c.csv)
		})
	}
}

// TestRuleRecipeWindowEmpty: windows in which nsys analyze found nothing
// give no output (ErrNoData), while the same profiles have rows unfiltered.
func TestRuleRecipeWindowEmpty(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	o := recipe.Defaults()
	o.Threshold, o.FilterTime = 90, &recipe.TimeRange{Start: i64(361724365), End: i64(685564379)}
	if _, err := tryRun(t, "gpu_time_util", o, "sync"); !errors.Is(err, recipe.ErrNoData) {
		t.Errorf("gpu_time_util in window on sync: %v, want no data", err)
	}
	o = recipe.Defaults()
	o.NVTX = &recipe.NVTXRange{Range: "d2h_sync"}
	if _, err := tryRun(t, "cuda_api_sync", o, "sync"); !errors.Is(err, recipe.ErrNoData) {
		t.Errorf("cuda_api_sync nvtx=d2h_sync on sync: %v, want no data", err)
	}
	if res := runOn(t, "cuda_api_sync", nil, "sync"); res.Output.Table("analysis").Rows() == 0 {
		t.Error("cuda_api_sync on sync: no rows unfiltered")
	}
}

// compareAnalyzeCSV compares a one-rank rule recipe frame with an analyze
// CSV: headers are the column names plus a unit, cells the same values.
func compareAnalyzeCSV(t *testing.T, f *pyframe.Frame, profile, name string) {
	t.Helper()
	recs := goldenCSV(t, profile, name)
	if f.Index != pyframe.RangeIndex || f.Rows() != len(recs)-1 {
		t.Fatalf("%d rows, index %v; want %d rows, RangeIndex", f.Rows(), f.Index, len(recs)-1)
	}
	for j, h := range recs[0] {
		label, unit, _ := strings.Cut(h, " (")
		c := f.Find(label)
		if c == nil {
			t.Fatalf("no column %q in %v", label, f.Names())
		}
		for i, rec := range recs[1:] {
			if got := analyzeCell(c, i, unit); got != rec[j] {
				t.Errorf("%s row %d: got %q, want %q", label, i, got, rec[j])
			}
		}
	}
	if rk := f.Find("Rank"); rk == nil || rk.Type != pyframe.Int64 {
		t.Errorf("no int64 Rank column")
	}
}

// analyzeCell renders a frame cell as analyze's CSV does.
func analyzeCell(c *pyframe.Column, i int, unit string) string {
	switch {
	case c.IsNull(i):
		return ""
	case unit == "MB)":
		return strconv.FormatFloat(float64(c.IntVals[i])/1e6, 'f', 3, 64)
	case c.Type == pyframe.Float64:
		return strconv.FormatFloat(c.FloatVals[i], 'f', 1, 64)
	case c.Type == pyframe.String:
		return c.Strs[i]
	}
	return strconv.FormatInt(c.IntVals[i], 10)
}
