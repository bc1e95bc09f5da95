package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/stats"
)

// mapMemSizeSum describes the bytes of every memcpy and memset, zero-byte
// operations included, by operation name and by (name, device); Min, Max
// and Sum are uint64 like the bytes column (docs/recipes.md §2.3).
func mapMemSizeSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	spec := stats.ValueSpec{Value: "bytes", NullAsZero: true}
	return memSum(ctx, r, o, spec, spec, pyframe.Uint64)
}
