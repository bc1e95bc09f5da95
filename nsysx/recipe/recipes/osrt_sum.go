package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// mapOSRTSum describes the filtered OSRT_API calls' positive durations by
// name (docs/recipes.md §2.6).
func mapOSRTSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	return apiSum(ctx, r, o, events.TableOSRTAPI)
}
