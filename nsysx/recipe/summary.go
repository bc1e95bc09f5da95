package recipe

import (
	"context"
	"fmt"
	"path/filepath"
)

// summaryOptions are the option keys of the filtered summary recipes, in
// nsys's registration order (the .nsys-analysis Options between
// force_overwrite and mode).
var summaryOptions = []string{"input", "start", "end", "csv", "filter_time", "filter_nvtx"}

// statsNotebook is the notebook every summary recipe writes.
const statsNotebook = "stats.ipynb"

// noData is a mapper's answer for a report without data for the recipe:
// nothing, and a notice.
func noData(o *Options, r *Report) (*Part, error) {
	if o.Log != nil {
		o.Log(fmt.Sprintf("%s was successfully processed, but no data was found.", filepath.Base(r.Path)))
	}
	return nil, nil
}

// positive returns the rows of keep whose end−start is positive; the
// summaries keep only those (docs/recipes.md §2.1).
func positive(s Span, keep []int) []int {
	out := keep[:0:0]
	for _, i := range keep {
		if s.End[i]-s.Start[i] > 0 {
			out = append(out, i)
		}
	}
	return out
}

// durations is end−start of rows as an int64 column, or as a float64 one
// when asFloat (pandas holds a column with NULLs as float64, and so the
// difference; docs/recipes.md §1.2).
func durations(s Span, rows []int, asFloat bool) *Column {
	if asFloat {
		v := make([]float64, len(rows))
		for k, i := range rows {
			v[k] = float64(s.End[i]) - float64(s.Start[i])
		}
		return NewFloats("duration", v, nil)
	}
	v := make([]int64, len(rows))
	for k, i := range rows {
		v[k] = s.End[i] - s.Start[i]
	}
	return NewInts("duration", Int64, v, nil)
}

// nameCol is the rows of a resolved string column as a String column.
func nameCol(name string, v []string, valid Mask, rows []int) *Column {
	c := NewStrings(name, pickStrs(v, rows), valid.pick(rows))
	if c.Valid != nil && allTrue(c.Valid) {
		c.Valid = nil
	}
	return c
}

// apiSum describes the positive durations of a (nameId, start, end) table's
// filtered rows by name, index Name (cuda_api_sum, osrt_sum). A report
// without the table has no data.
func apiSum(ctx context.Context, r *Report, o *Options, table string) (*Part, error) {
	t, err := loadTable(ctx, r.Profile, table, []string{"start", "end", "nameId"}, nil)
	if err != nil {
		return nil, err
	}
	var s Span
	s.Start, s.StartValid = ints(t, "start")
	s.End, s.EndValid = ints(t, "end")
	keep, err := FilterRows(ctx, r.Profile, o, s, nil)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return noData(o, r)
	}
	names, valid := strs(ctx, r.Profile, t, "nameId")
	rows := positive(s, keep)
	name := nameCol("Name", names, valid, rows)
	return StatsPart(Describe([]*Column{name}, durations(s, rows, false)), nil), nil
}
