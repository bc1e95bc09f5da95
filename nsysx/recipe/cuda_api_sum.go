package recipe

import "context"

// mapAPISum describes the filtered runtime calls' positive durations by
// name, which keeps its _vNNNN version suffix (docs/recipes.md §2.1).
func mapAPISum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	return apiSum(ctx, r, o, TableRuntime)
}
