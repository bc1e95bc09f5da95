package recipes

import (
	"context"
	"math"
	"path/filepath"
	"sort"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// TestHeatmapGolden runs the kernel heatmaps on the golden input sets and
// compares analysis.parquet and files.parquet with what nsys wrote.
func TestHeatmapGolden(t *testing.T) {
	cases := []struct {
		recipe string
		set    []string
	}{
		{"cuda_gpu_time_util_map", []string{"train", "fixed"}},
		{"cuda_gpu_time_util_map", []string{"rank0", "rank1"}},
		{"nccl_gpu_time_util_map", []string{"rank0", "rank1"}},
	}
	for _, c := range cases {
		name := c.set[0] + "+" + c.set[1]
		t.Run(c.recipe+"/"+name, func(t *testing.T) {
			res := runOn(t, c.recipe, nil, c.set...)
			dir := goldenDir(name, c.recipe)
			for _, tbl := range []string{"analysis", "files"} {
				compareGolden(t, filepath.Join(dir, tbl+".parquet"), res.Output.Table(tbl))
			}
		})
	}
}

// TestNCCLOverlapGolden compares rank_trace (7240 kernels), grouped_trace
// and files with nsys's nccl_gpu_overlap_trace on rank0+rank1.
func TestNCCLOverlapGolden(t *testing.T) {
	res := runOn(t, "nccl_gpu_overlap_trace", nil, "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nccl_gpu_overlap_trace")
	for _, tbl := range []string{"rank_trace", "grouped_trace", "files"} {
		compareGolden(t, filepath.Join(dir, tbl+".parquet"), res.Output.Table(tbl))
	}
}

// TestCudaHeatmapWindowBruteForce: cuda_gpu_time_util_map on rank0 with
// --filter-time equals bins computed independently: the kernel table read
// directly, rows kept whole when they touch the window, merged per (pid,
// device) by a union of covered time, and each bin's covered share (integer
// arithmetic, bruteBins).
func TestCudaHeatmapWindowBruteForce(t *testing.T) {
	const S, E, bins = 3_000_000_000, 6_000_000_000, 17
	o := recipe.Defaults()
	o.Bins, o.FilterTime = bins, &recipe.TimeRange{Start: i64(S), End: i64(E)}
	f := runOn(t, "cuda_gpu_time_util_map", o, "rank0").Output.Table("analysis")

	p := nsysxtest.Open(t, testutil.Profile(t, "rank0"))
	_, dur, err := recipe.Session(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "globalPid", "deviceId")
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ pid, dev int64 }
	groups := map[key][]composite.Interval{}
	for i := 0; i < k.N; i++ {
		s, e := k.Col("start").Int(i), k.Col("end").Int(i)
		if s < 0 || s > E || e < S {
			continue
		}
		kk := key{k.Col("globalPid").Int(i) >> 24 & 0xFFFFFF, k.Col("deviceId").Int(i)}
		groups[kk] = append(groups[kk], composite.Interval{Start: s, End: e})
	}
	bs := int64(math.Ceil(float64(dur) / bins))
	if len(groups) != 1 || f.Rows() != bins {
		t.Fatalf("%d groups, %d rows", len(groups), f.Rows())
	}
	for kk, v := range groups {
		want := bruteBins(unionSpans(v), bs, bins, 0, dur)
		got := f.Find("Kernel").FloatVals
		for b := range want {
			if math.IsNaN(got[b]) != math.IsNaN(want[b]) || math.Abs(got[b]-want[b]) > 0.05+1e-9 {
				t.Errorf("pid %d device %d bin %d: got %v, want %v", kk.pid, kk.dev, b, got[b], want[b])
			}
		}
		if f.Find("PID").IntVals[0] != kk.pid || f.Find("Duration").IntVals[1] != bs {
			t.Errorf("PID %d, Duration %v", f.Find("PID").IntVals[0], f.Find("Duration").IntVals[:2])
		}
	}
}

// unionSpans merges spans by marking covered time on a sorted sweep of
// boundary events (independent of Consolidate): +1 at a start, −1 after an
// end, touching spans joined.
func unionSpans(v []composite.Interval) []composite.Interval {
	type ev struct {
		t int64
		d int
	}
	var evs []ev
	for _, x := range v {
		evs = append(evs, ev{x.Start, 1}, ev{x.End, -1})
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t != evs[j].t {
			return evs[i].t < evs[j].t
		}
		return evs[i].d > evs[j].d // starts first: touching spans join
	})
	var out []composite.Interval
	depth := 0
	for _, e := range evs {
		if depth == 0 && e.d > 0 {
			out = append(out, composite.Interval{Start: e.t})
		}
		depth += e.d
		if depth == 0 {
			out[len(out)-1].End = e.t
		}
	}
	return out
}
