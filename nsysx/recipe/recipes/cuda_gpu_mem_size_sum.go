package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// mapMemSizeSum describes the bytes of every memcpy and memset, zero-byte
// operations included, by operation name and by (name, device); Min, Max
// and Sum are uint64 like the bytes column (docs/recipes.md §2.3).
func mapMemSizeSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	m, err := composite.LoadMemOps(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	if len(m.Bytes) == 0 {
		return noData(o, r)
	}
	rows := pyframe.Seq(len(m.Bytes))
	return memStats(m, rows, pyframe.NewInts("bytes", pyframe.Uint64, m.Bytes, nil)), nil
}
