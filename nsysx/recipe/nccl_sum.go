package recipe

import "context"

// mapNCCLSum describes the NCCL ranges' positive durations by text
// (docs/recipes.md §2.20).
func mapNCCLSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	nv, err := LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, NCCL(nv).textRows(), nv)
}

// textRows are the rows of a composite with a text per row (NVTX ranges,
// MPI calls): their span and text; endFloat when the end column has NULLs.
type textRows struct {
	span     Span
	text     []string
	valid    Mask
	endFloat bool
}

func (n *NVTX) textRows() textRows { return textRows{n.Span(), n.Text, n.TextValid, n.EndFloat} }

// textSum describes the filtered rows' positive durations by text, index
// Text (filtered with the NVTX ranges all); durations are float64 when
// endFloat, as pandas holds them.
func textSum(ctx context.Context, r *Report, o *Options, t textRows, all *NVTX) (*Part, error) {
	rows, ok, err := filteredPositive(ctx, r, o, t.span, all)
	if err != nil || !ok {
		return noDataOr(o, r, err)
	}
	text := nameCol("Text", t.text, t.valid, rows)
	return StatsPart(Describe([]*Column{text}, durations(t.span, rows, t.endFloat)), nil), nil
}
