package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

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
func mapMemTimeSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	m, err := composite.LoadMemOps(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	rows, ok, err := filteredPositive(ctx, r, o, m.Span, nil)
	if err != nil || !ok {
		return noDataOr(o, r, err)
	}
	return memStats(m, rows, durations(m.Span, rows, false)), nil
}

// memStats describes the memory operations' vals vals by name and by (name, device) over rows.
func memStats(m *composite.MemOps, rows []int, vals *pyframe.Column) *recipe.Part {
	name := nameCol("Name", m.Name, m.NameValid, rows)
	dev := pyframe.NewInts("Device ID", pyframe.Uint32, pyframe.Pick(m.DeviceID, rows), nil)
	return recipe.StatsPart(pyframe.Describe([]*pyframe.Column{name}, vals), pyframe.Describe([]*pyframe.Column{name, dev}, vals))
}
