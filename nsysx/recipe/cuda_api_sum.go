package recipe

import "context"

func init() {
	Register(&Recipe{
		Name:        "cuda_api_sum",
		DisplayName: "CUDA API Summary",
		Help:        "Per-rank and overall statistics of CUDA runtime and driver API call durations, by API name.",
		Options:     summaryOptions,
		Notebook:    statsNotebook,
		Map:         mapAPISum,
		Reduce:      StatsReduce,
	})
}

// mapAPISum describes the filtered runtime calls' positive durations by
// name, which keeps its _vNNNN version suffix (docs/recipes.md §2.1).
func mapAPISum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	return apiSum(ctx, r, o, TableRuntime)
}
