package recipe

import "context"

// mapNCCLSum describes the NCCL ranges' positive durations by text
// (docs/recipes.md §2.20).
func mapNCCLSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	nv, err := LoadNVTX(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, NCCL(nv), nv)
}

// textSum describes an NVTX-like composite's positive durations by text,
// index Text; durations are float64 when the NVTX end column has NULLs.
func textSum(ctx context.Context, r *Report, o *Options, n, all *NVTX) (*Part, error) {
	keep, err := FilterRows(ctx, r.Profile, o, n.Span(), all)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return noData(o, r)
	}
	rows := positive(n.Span(), keep)
	text := nameCol("Text", n.Text, n.TextValid, rows)
	return StatsPart(Describe([]*Column{text}, durations(n.Span(), rows, n.EndFloat)), nil), nil
}
