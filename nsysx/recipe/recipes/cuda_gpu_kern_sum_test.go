package recipes

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// TestKernSumGolden runs cuda_gpu_kern_sum on both golden input sets and
// compares every output file with what nsys wrote.
func TestKernSumGolden(t *testing.T) {
	for _, set := range [][]string{{"train", "fixed"}, {"rank0", "rank1"}} {
		name := set[0] + "+" + set[1]
		t.Run(name, func(t *testing.T) {
			res := runOn(t, "cuda_gpu_kern_sum", nil, set...)
			compareWritten(t, res, name, "cuda_gpu_kern_sum", "rank_stats", "rank_stats_by_device", "all_stats", "files")
		})
	}
}

// TestKernSumFilterTime runs cuda_gpu_kern_sum with --filter-time on train
// and checks it against the kernels selected in the test: whole kernels
// with end ≥ S and start ≤ E, grouped by short name.
func TestKernSumFilterTime(t *testing.T) {
	const s, e = 439137055, 862204310
	o := recipe.Defaults()
	o.FilterTime = &recipe.TimeRange{Start: i64(s), End: i64(e)}
	res := runOn(t, "cuda_gpu_kern_sum", o, "train")
	p := openProfile(t, "train")
	k, err := p.Load(context.Background(), composite.TableKernel, "start", "end", "shortName")
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string][]float64{}
	for i := 0; i < k.N; i++ {
		st, en := k.Col("start").Int(i), k.Col("end").Int(i)
		if en >= s && st <= e && en > st {
			name, _ := p.String(context.Background(), k.Col("shortName").Int(i))
			groups[name] = append(groups[name], float64(en-st))
		}
	}
	if len(groups) == 0 {
		t.Fatal("no kernel in the window")
	}
	checkRank(t, "kern_sum filter-time", res.Output.Table("rank_stats"), 0, "Name", groups)
	// One rank: files has one row.
	if f := res.Output.Table("files"); f.Rows() != 1 || f.Find("File").Strs[0] != "train" {
		t.Errorf("files %v", f.Find("File").Strs)
	}
}
