package recipe

import "context"

// mapMPISum describes the filtered MPI composite's positive durations by
// text, index Text (docs/recipes.md §2.24).
func mapMPISum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	m, err := LoadMPI(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, textRows{m.Span(), m.Text, m.TextValid, false}, nil)
}
