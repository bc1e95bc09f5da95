package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// mapNVTXSum describes the filtered NVTX composite's positive durations by
// text (docs/recipes.md §2.5). The default window drops marks, domain rows
// and open ranges (NULL end); durations are float64 when NVTX end has
// NULLs, as in nsys.
func mapNVTXSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	nv, err := composite.LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, nvtxTextRows(nv), nv)
}
