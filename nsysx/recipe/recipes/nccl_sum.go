package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// mapNCCLSum describes the NCCL ranges' positive durations by text
// (docs/recipes.md §2.20).
func mapNCCLSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	nccl, nv, err := composite.LoadNCCLFor(ctx, r)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, nvtxTextRows(nccl), nv)
}

// textRows are the rows of a composite with a text per row (NVTX ranges,
// MPI calls): their span and text; endFloat when the end column has NULLs.
type textRows struct {
	span     composite.Span
	text     []string
	valid    pyframe.Mask
	endFloat bool
}

// nvtxTextRows are an NVTX composite's rows as textRows.
func nvtxTextRows(n *composite.NVTX) textRows {
	return textRows{n.Span(), n.Text, n.TextValid, n.EndFloat}
}

// textSum describes the filtered rows' positive durations by text, index
// Text (filtered with the NVTX ranges all); durations are float64 when
// endFloat, as pandas holds them.
func textSum(ctx context.Context, r *recipe.Report, o *recipe.Options, t textRows, all *composite.NVTX) (*recipe.Part, error) {
	rows, ok, err := filteredPositive(ctx, r, o, t.span, all)
	if err != nil || !ok {
		return noDataOr(o, r, err)
	}
	text := nameCol("Text", t.text, t.valid, rows)
	return recipe.StatsPart(pyframe.Describe([]*pyframe.Column{text}, durations(t.span, rows, t.endFloat)), nil), nil
}
