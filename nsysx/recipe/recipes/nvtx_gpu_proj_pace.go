package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "nvtx_gpu_proj_pace",
		DisplayName: "NVTX GPU Projection Pacing",
		Help:        "The pacing of one NVTX range (--name) projected onto the GPU: the GPU span of each iteration, per rank.",
		Options:     []string{"input", "name", "start", "end", "filter_time", "filter_nvtx", "filter_projected_nvtx"},
		Notebook:    paceNotebook,
		Prepare:     requireName,
		Map:         mapNVTXProjPace,
		MapCost:     3, // the NVTX composite and the projection: peak heap about 3 bytes a byte of SQLite export (train tiled 24 times, GOGC 50)
		Reduce:      reducePace,
	})
}

// mapNVTXProjPace projects the NVTX rows whose text is --name onto
// CUDA_COMBINED (no graph rows) and paces the projected ranges in P's
// order: thread, then start (docs/recipes.md §2.9).
func mapNVTXProjPace(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	nv, err := composite.LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	keep := make([]bool, nv.Len())
	for i := range keep {
		keep[i] = nv.TextValid.Valid(i) && nv.Text[i] == o.Name
	}
	pr, err := projectReport(ctx, r.Profile, o, projSource{nv: nv, filter: nv, keep: keep})
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return noData(o, r)
	}
	return pacePart(o.Name, "Text", pr.Start, pr.End, false), nil
}
