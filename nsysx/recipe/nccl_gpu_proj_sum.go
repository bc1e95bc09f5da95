package recipe

import "context"

// mapNCCLProjSum projects the NCCL composite onto CUDA_COMBINED (filtered
// on GPU times) and describes the positive projected durations by text
// (docs/recipes.md §2.21).
func mapNCCLProjSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	nv, err := LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	nccl := NCCL(nv)
	pr, err := projectReport(ctx, r.Profile, o, projSource{nv: nccl, filter: nv})
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return noData(o, r)
	}
	return StatsPart(describeProjected(nccl, pr), nil), nil
}
