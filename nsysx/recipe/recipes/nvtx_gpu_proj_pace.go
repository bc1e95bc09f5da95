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
		MapCost:     0.25, // streams NVTX_EVENTS for the rows of --name, then the CUDA rows they can project onto
		Reduce:      reducePace,
	})
}

// mapNVTXProjPace projects the NVTX rows whose text is --name onto
// CUDA_COMBINED (no graph rows) and paces the projected ranges in P's
// order: thread, then start (docs/recipes.md §2.9).
func mapNVTXProjPace(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	var src projSource
	if o.FilterNVTX == nil && o.FilterProjectedNVTX == nil && canScanNVTX(r.Profile) {
		// only the rows of --name take part: scan for them, not the composite
		nv, _, err := scanNamedNVTX(ctx, r.Profile, o.Name)
		if err != nil {
			return nil, err
		}
		cuda, err := rangeCUDA(ctx, r.Profile, nv)
		if err != nil {
			return nil, err
		}
		src = projSource{nv: nv, cuda: cuda}
	} else {
		nv, err := composite.LoadNVTX(ctx, r.Profile)
		if err != nil {
			return nil, err
		}
		keep := make([]bool, nv.Len())
		for i := range keep {
			keep[i] = nv.TextValid.Valid(i) && nv.Text[i] == o.Name
		}
		src = projSource{nv: nv, filter: nv, keep: keep}
	}
	pr, err := projectReport(ctx, r.Profile, o, src)
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return noData(o, r)
	}
	return pacePart(o.Name, "Text", pr.Start, pr.End, false), nil
}
