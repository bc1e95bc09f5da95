package recipe

import "context"

// mapNVTXSum describes the filtered NVTX composite's positive durations by
// text (docs/recipes.md §2.5). The default window drops marks, domain rows
// and open ranges (NULL end); durations are float64 when NVTX end has
// NULLs, as in nsys.
func mapNVTXSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	nv, err := LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, nv.textRows(), nv)
}
