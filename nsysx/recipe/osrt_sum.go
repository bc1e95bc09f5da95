package recipe

import "context"

func init() {
	Register(&Recipe{
		Name:        "osrt_sum",
		DisplayName: "OS Runtime Summary",
		Help:        "Per-rank and overall statistics of OS runtime library call durations, by function name.",
		Options:     summaryOptions,
		Notebook:    statsNotebook,
		Map:         mapOSRTSum,
		Reduce:      StatsReduce,
	})
}

// mapOSRTSum describes the filtered OSRT_API calls' positive durations by
// name (docs/recipes.md §2.6).
func mapOSRTSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	return apiSum(ctx, r, o, "OSRT_API")
}
