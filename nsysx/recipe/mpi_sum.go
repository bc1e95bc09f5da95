package recipe

import "context"

// mapMPISum describes the filtered MPI composite's positive durations by
// text, index Text (docs/recipes.md §2.24).
func mapMPISum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	m, err := LoadMPI(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	keep, err := FilterRows(ctx, r.Profile, o, m.Span(), nil)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return noData(o, r)
	}
	rows := positive(m.Span(), keep)
	text := nameCol("Text", m.Text, m.TextValid, rows)
	return StatsPart(Describe([]*Column{text}, durations(m.Span(), rows, false)), nil), nil
}
