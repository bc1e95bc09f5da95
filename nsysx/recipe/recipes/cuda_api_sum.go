package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// mapAPISum describes the filtered runtime calls' positive durations by
// name, which keeps its _vNNNN version suffix (docs/recipes.md §2.1).
func mapAPISum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	return apiSum(ctx, r, o, composite.TableRuntime)
}
