package recipes

import (
	"testing"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestAPISum checks cuda_api_sum on fixed+train against statistics computed
// in the test from the raw runtime table, and train's per-name counts,
// totals and extremes against `nsys stats -r cuda_api_sum` (which strips
// the _vNNNN suffix the recipe keeps).
func TestAPISum(t *testing.T) {
	res := runOn(t, "cuda_api_sum", nil, "train", "fixed")
	f := res.Output.Table("rank_stats")
	if got := f.Names(); got[len(got)-1] != "Name" || f.Find("Sum").Type != pyframe.Int64 {
		t.Fatalf("columns %v, Sum %v", got, f.Find("Sum").Type)
	}
	for rank, prof := range []string{"fixed", "train"} {
		groups, _ := rawByName(t, openProfile(t, prof), composite.TableRuntime)
		checkRank(t, "cuda_api_sum", f, int64(rank), "Name", groups)
	}
	_, zero := rawByName(t, openProfile(t, "train"), composite.TableRuntime)
	stripped := map[string]int{}
	for k, n := range zero {
		stripped[nsysx.StripAPIVersion(k)] += n
	}
	checkStatsGolden(t, statsGolden(t, "train", "cuda_api_sum"), sumsBy(f, 1, "Name", nsysx.StripAPIVersion), "Name", "Num Calls", stripped)
	checkAllStats(t, res)
}

// checkAllStats checks all_stats against rank_stats folded in the test:
// per key, ΣCount and ΣSum, min Min, max Max, Mean = ΣSum/ΣCount.
func checkAllStats(t *testing.T, res *recipe.Result) {
	t.Helper()
	rank, all := res.Output.Table("rank_stats"), res.Output.Table("all_stats")
	key := rank.IndexCols[0]
	want := map[string]*folded{}
	for r := int64(0); r < int64(len(res.Files)); r++ {
		for k, g := range sumsBy(rank, r, key, func(s string) string { return s }) {
			if w := want[k]; w != nil {
				w.count, w.sum, w.min, w.max = w.count+g.count, w.sum+g.sum, min(w.min, g.min), max(w.max, g.max)
			} else {
				want[k] = g
			}
		}
	}
	if all.Rows() != len(want) {
		t.Fatalf("all_stats: %d rows, want %d", all.Rows(), len(want))
	}
	for i := 0; i < all.Rows(); i++ {
		k := all.Find(key).Strs[i]
		w := want[k]
		if i > 0 && all.Find(key).Strs[i-1] >= k {
			t.Errorf("all_stats not sorted at %q", k)
		}
		got := folded{all.Find("Count").Float(i), all.Find("Sum").Float(i), all.Find("Min").Float(i), all.Find("Max").Float(i)}
		if w == nil || got != *w || all.Find("Mean").FloatVals[i] != pyframe.Round(w.sum/w.count) {
			t.Errorf("all_stats %q: %+v mean %v, want %+v", k, got, all.Find("Mean").FloatVals[i], w)
		}
	}
}
