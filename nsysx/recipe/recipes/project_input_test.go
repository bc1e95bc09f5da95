package recipes

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// TestFilterProjectedHook: the --filter-projected-nvtx hook projects the
// chosen ranges like nsys's projection trace ("forward" rows of rank0).
func TestFilterProjectedHook(t *testing.T) {
	p := openProfile(t, "rank0")
	nv, err := composite.LoadNVTX(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	chosen, err := composite.ChooseNVTX(nv, &recipe.NVTXRange{Range: "forward"})
	if err != nil {
		t.Fatal(err)
	}
	s, e, err := composite.ProjectNVTX(context.Background(), p, nv, chosen)
	if err != nil {
		t.Fatal(err)
	}
	gold := goldenTrace(t)
	var ws, we []int64
	for i, text := range gold["Text"] {
		if text == "forward" && gold["Rank"][i] == int64(0) {
			ws, we = append(ws, gold["Start"][i].(int64)), append(we, gold["End"][i].(int64))
		}
	}
	if len(ws) == 0 || !slices.Equal(s, ws) || !slices.Equal(e, we) {
		t.Fatalf("projected %d ranges, golden %d", len(s), len(ws))
	}
}

// TestFilterProjectedNVTX runs cuda_gpu_kern_hist with
// --filter-projected-nvtx forward/0 on rank0: the kept kernels are those
// whose chain of overlapping kernels reaches the projected range
// (recomputed here by brute force from the raw kernels).
func TestFilterProjectedNVTX(t *testing.T) {
	gold := goldenTrace(t)
	var rs, re int64 = -1, -1
	for i, text := range gold["Text"] {
		if text == "forward" && gold["Rank"][i] == int64(0) {
			rs, re = gold["Start"][i].(int64), gold["End"][i].(int64)
			break
		}
	}
	idx := 0
	o := recipe.Defaults()
	o.FilterProjectedNVTX = &recipe.NVTXRange{Range: "forward", Index: &idx}
	f := runOn(t, "cuda_gpu_kern_hist", o, "rank0").Output.Table("analysis")
	raw := rawKernels(t, "rank0")
	type item struct {
		s, e int64
		row  int
	}
	items := []item{{rs, re, -1}}
	for i, k := range raw {
		items = append(items, item{k.start, k.end, i})
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].s < items[b].s })
	var want []int64
	var group []int64
	hit := false
	runMax := int64(-1 << 62)
	flush := func() {
		if hit {
			want = append(want, group...)
		}
		group, hit = nil, false
	}
	for k, it := range items {
		if k > 0 && it.s > runMax {
			flush()
		}
		runMax = max(runMax, it.e)
		if it.row < 0 {
			hit = true
		} else {
			group = append(group, int64(it.row))
		}
	}
	flush()
	slices.Sort(want)
	if len(want) == 0 || len(want) == len(raw) {
		t.Fatalf("bad test: %d of %d kernels in the chain", len(want), len(raw))
	}
	if got := recipe.Labels(f); !slices.Equal(got, want) {
		t.Fatalf("kept %d kernels, want %d", len(got), len(want))
	}
}
