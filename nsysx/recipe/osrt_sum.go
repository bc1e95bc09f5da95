package recipe

import "context"

// mapOSRTSum describes the filtered OSRT_API calls' positive durations by
// name (docs/recipes.md §2.6).
func mapOSRTSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	return apiSum(ctx, r, o, "OSRT_API")
}
