package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// mapMPISum describes the filtered MPI composite's positive durations by
// text, index Text (docs/recipes.md §2.24).
func mapMPISum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	m, err := composite.LoadMPI(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, textRows{m.Span(), m.Text, m.TextValid, false}, nil)
}
