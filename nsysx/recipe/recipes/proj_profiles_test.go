package recipes

import (
	"context"
	"errors"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestProjRecipesOnEveryProfile runs every recipe of this family on every
// test profile: each report either yields tables or is skipped as having
// no data, never fails; traces have no negative durations and every
// parent comes before its child.
func TestProjRecipesOnEveryProfile(t *testing.T) {
	recipes := map[string]string{"nvtx_gpu_proj_sum": "", "nvtx_gpu_proj_trace": "", "nccl_gpu_proj_sum": "",
		"nvtx_pace": "forward", "nvtx_gpu_proj_pace": "forward", "cuda_gpu_kern_pace": "Kernel2", "cuda_gpu_kern_hist": ""}
	for name, arg := range recipes {
		r, err := recipe.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, prof := range testutil.Profiles {
			o := recipe.Defaults()
			o.Name = arg
			o.Input = []string{testutil.Profile(t, prof)}
			res, err := recipe.Run(context.Background(), r, o, nil)
			if err != nil && !errors.Is(err, recipe.ErrNoData) || res != nil && len(res.Failed) > 0 {
				t.Errorf("%s on %s: %v %v", name, prof, err, res.Failed)
				continue
			}
			if err == nil && name == "nvtx_gpu_proj_trace" {
				checkTrace(t, prof, res.Output.Table("trace"))
			}
		}
	}
}

func checkTrace(t *testing.T, prof string, f *pyframe.Frame) {
	t.Helper()
	pos := map[int64]int{}
	for i, id := range f.Find("Range ID").IntVals {
		pos[id] = i
		if f.Find("End").IntVals[i] < f.Find("Start").IntVals[i] {
			t.Errorf("%s row %d: negative duration", prof, i)
		}
		p := f.Find("Parent ID")
		if p.IsNull(i) {
			continue
		}
		if j, ok := pos[p.IntVals[i]]; !ok || f.Find("Start").IntVals[j] > f.Find("Start").IntVals[i] {
			t.Errorf("%s row %d: parent %d not before it", prof, i, p.IntVals[i])
		}
	}
}
