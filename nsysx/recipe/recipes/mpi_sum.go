package recipes

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/stats"
)

// mapMPISum describes the filtered MPI composite's positive durations by
// text, index Text (docs/recipes.md §2.24). Each MPI table's rows are
// grouped by textId with the reports' aggregation (groupValues, as
// mpi_event_sum's rows are summed), the groups then named and merged by
// text; a text's durations are described in the composite's order (the
// tables stacked, then sorted by start, ties in stacking order), as pandas
// takes them. A table without textId takes the composite's path.
func mapMPISum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	if err := composite.NamesErr(ctx, r.Profile); err != nil {
		return nil, err
	}
	var tables []string
	for _, t := range composite.MPITables {
		if r.Profile.HasTable(t) {
			if !r.Profile.HasColumn(t, "textId") {
				return mapMPISumComposite(ctx, r, o)
			}
			tables = append(tables, t)
		}
	}
	keep, err := rowKeep(ctx, r, o, tableSpan(ctx, r, tables...))
	if err != nil {
		return nil, err
	}
	var src valueSource
	var starts [][]int64 // per table, the kept rows' starts, in the order of its groups' Of
	offset := 0          // the table's first row in the stacked frame the NVTX filter reads
	for _, t := range tables {
		kept := keep(offset)
		var st []int64
		last := -1
		g, err := groupValues(ctx, r, t, "textId", stats.ValueSpec{Keep: func(row int, s, e int64) bool {
			if row <= last { // the rows read again (a scan given up for a load)
				st = st[:0]
			}
			last = row
			if !kept(row, s, e) {
				return false
			}
			st = append(st, s)
			return true
		}})
		if err != nil {
			return nil, err
		}
		src, starts = append(src, g), append(starts, st)
		if o.FilterNVTX != nil || o.FilterProjectedNVTX != nil {
			s, err := tableSpan(ctx, r, t)()
			if err != nil {
				return nil, err
			}
			offset += s.Len()
		}
	}
	aggs := src.aggs()
	if len(aggs) == 0 {
		return noData(o, r)
	}
	base := make([]int, len(src)+1) // each table's first group
	for i, g := range src {
		base[i+1] = base[i] + len(g.Aggs)
	}
	ng := nameGroups(len(aggs), func(k int) int { return aggs[k].N() }, func(k int) (string, bool) {
		i := sort.Search(len(src), func(i int) bool { return base[i+1] > k }) // k's table
		id := src[i].Keys[k-base[i]].ID
		if id.Kind != stats.IntKind {
			return "", false
		}
		return r.Profile.String(ctx, id.I)
	})
	return recipe.StatsPart(describeByStart(src, starts, base, ng), nil), nil
}

// describeByStart describes the named groups' durations (ng) in the order
// of their rows' starts across the tables (a stable sort of the tables'
// kept rows stacked).
func describeByStart(src valueSource, starts [][]int64, base []int, ng namedGroups) *pyframe.Frame {
	type row struct {
		start int64
		group int32 // over all tables
	}
	var rows []row
	for i, g := range src {
		for j, k := range g.Of {
			rows = append(rows, row{starts[i][j], int32(base[i]) + k})
		}
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].start < rows[b].start })
	aggs := src.aggs()
	at := make([]int, len(ng.names)+1) // output group o's values from at[o]
	for k, a := range aggs {
		if o := ng.name[k]; o >= 0 {
			at[o+1] += len(a.Values())
		}
	}
	for o := 1; o < len(at); o++ {
		at[o] += at[o-1]
	}
	vals := make([]int64, at[len(ng.names)])
	fill := append([]int(nil), at[:len(ng.names)]...)
	next := make([]int, len(aggs)) // the group's next value
	for _, rw := range rows {
		k := rw.group
		if o := ng.name[k]; o >= 0 {
			vals[fill[o]] = aggs[k].Values()[next[k]]
			fill[o]++
		}
		next[k]++
	}
	return pyframe.DescribeGrouped(pyframe.NewInts("duration", pyframe.Int64, vals, nil), nil, at, []*pyframe.Column{ng.nameColumn("Text", ng.names)})
}

// mapMPISumComposite is mapMPISum over the loaded MPI composite, for a
// report whose MPI table lacks textId (every text NULL).
func mapMPISumComposite(ctx context.Context, r *recipe.Report, o *recipe.Options) (*recipe.Part, error) {
	m, err := composite.LoadMPI(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	return textSum(ctx, r, o, textRows{m.Span(), m.Text, m.TextValid, false}, nil)
}
