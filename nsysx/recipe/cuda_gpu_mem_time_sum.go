package recipe

import "context"

// mapMemTimeSum describes the filtered memcpy and memset operations'
// positive durations by operation name and by (name, device)
// (docs/recipes.md §2.4).
//
// Difference from nsys: nsys stacks the memcpy and memset frames without
// renumbering them and filters the result by label, so a row dropped by
// the filter also drops the row at the same position of the other table,
// and --filter-nvtx fails on the duplicate labels whenever both tables have
// rows. Here every operation is filtered on its own times, which is what
// the option promises.
func mapMemTimeSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	m, err := loadMemOps(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	rows, ok, err := filteredPositive(ctx, r, o, m.s, nil)
	if err != nil || !ok {
		return noDataOr(o, r, err)
	}
	return m.stats(rows, durations(m.s, rows, false)), nil
}
