package recipe

import "context"

func init() {
	Register(&Recipe{
		Name:        "nvtx_sum",
		DisplayName: "NVTX Range Summary",
		Help:        "Per-rank and overall statistics of NVTX range durations (all domains and types), by range text.",
		Options:     summaryOptions,
		Notebook:    statsNotebook,
		Map:         mapNVTXSum,
		Reduce:      StatsReduce,
	})
}

// mapNVTXSum describes the filtered NVTX composite's positive durations by
// text (docs/recipes.md §2.5). The default window drops marks, domain rows
// and open ranges (NULL end); durations are float64 when NVTX end has
// NULLs, as in nsys.
func mapNVTXSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	nv, err := LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, nv, nv)
}
