package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// mapNCCLProjSum projects the NCCL composite onto CUDA_COMBINED (filtered
// on GPU times) and describes the positive projected durations by text
// (docs/recipes.md §2.21).
func mapNCCLProjSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	nccl, nv, err := composite.LoadNCCLFor(ctx, r)
	if err != nil {
		return nil, err
	}
	pr, err := projectReport(ctx, r.Profile, o, projSource{nv: nccl, filter: nv})
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return noData(o, r)
	}
	return recipe.StatsPart(describeProjected(nccl, pr), nil), nil
}
