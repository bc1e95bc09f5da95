package recipes

import (
	"context"
	"fmt"
	"sort"

	"github.com/nsysx/nsysx/internal/checked"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/report"
	"github.com/nsysx/nsysx/nsysx/stats"
)

// The summary recipes' maps over the reports' aggregation
// (docs/architecture.md, "Recipes over the reports' aggregations"): the
// rows of a table are grouped by stats.ValuesByID, the function the stats
// reports of the same name group with, under the recipe's row filter
// (rowKeep) instead of the report's; the groups are then named, put in key
// order and described the pandas way (describeGroups).

// groupValues is stats.ValuesByID of r's table under no report filter, the
// rows kept by spec.Keep; the groups record their rows (TrackRows). A
// report without the table has no groups (nil).
func groupValues(ctx context.Context, r *recipe.Report, table, idCol string, spec stats.ValueSpec) (*stats.Groups[stats.IDKey], error) {
	spec.TrackRows = true
	return groupValuesAs(ctx, r, table, idCol, spec)
}

// groupValuesAs is groupValues recording the groups' rows only when
// spec.TrackRows is set.
func groupValuesAs(ctx context.Context, r *recipe.Report, table, idCol string, spec stats.ValueSpec) (*stats.Groups[stats.IDKey], error) {
	if !r.Profile.HasTable(table) {
		return nil, nil
	}
	g, err := stats.ValuesByID(report.NewCtx(ctx, r.Profile.Profile, nil, nil, nil), table, idCol, spec)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", table, err)
	}
	return g, nil
}

// rowKeep is the recipe's row filter as ValueSpec.Keep functions: keep(offset)
// is the filter of a table whose first row is row offset of the frame the
// filter reads (the memory summaries filter memcpys and memsets as one
// frame), keeping the rows that pass FilterRows (the time window, and
// --filter-nvtx's chains) and whose duration is positive (docs/recipes.md
// §1.4, §2.1). Without an NVTX filter it reads nothing; with one, spans
// gives the frame's times.
func rowKeep(ctx context.Context, r *recipe.Report, o *recipe.Options, spans func() (composite.Span, error)) (keep func(offset int) func(row int, start, end int64) bool, err error) {
	return rowFilter(ctx, r, o, spans, true)
}

// rowFilter is rowKeep, the durations required positive only when
// positive is set (the pace recipes keep every filtered row).
func rowFilter(ctx context.Context, r *recipe.Report, o *recipe.Options, spans func() (composite.Span, error), positive bool) (keep func(offset int) func(row int, start, end int64) bool, err error) {
	if keepAnyRow(o) {
		ws, we := o.Window()
		return func(int) func(int, int64, int64) bool {
			return func(_ int, s, e int64) bool {
				return s >= 0 && e >= ws && (we == nil || s <= *we) && (!positive || positiveDur(s, e))
			}
		}, nil
	}
	s, err := spans()
	if err != nil {
		return nil, err
	}
	rows, err := composite.FilterRows(ctx, r.Profile, o, s, nil)
	if err != nil {
		return nil, err
	}
	kept := make([]bool, s.Len())
	for _, i := range rows {
		kept[i] = true
	}
	return func(offset int) func(int, int64, int64) bool {
		return func(row int, s, e int64) bool { return kept[offset+row] && (!positive || positiveDur(s, e)) }
	}, nil
}

// keepAnyRow is whether rowFilter's functions read only the times, not
// the row (ValueSpec.KeepAnyRow: the table may then be grouped in ranges
// read at once): without an NVTX filter.
func keepAnyRow(o *recipe.Options) bool {
	return o.FilterNVTX == nil && o.FilterProjectedNVTX == nil
}

// positiveDur is whether end − start is positive; a difference that
// overflows is kept, for the grouping to report it (stats' OverflowError).
func positiveDur(s, e int64) bool {
	d, ok := checked.Sub(e, s)
	return !ok || d > 0
}

// tableSpan is the start and end columns of table, for rowKeep.
func tableSpan(ctx context.Context, r *recipe.Report, tables ...string) func() (composite.Span, error) {
	return func() (composite.Span, error) {
		var s composite.Span
		for _, table := range tables {
			t, err := composite.LoadTable(ctx, r.Profile, table, []string{"start", "end"}, nil)
			if err != nil || t == nil {
				if err != nil {
					return s, err
				}
				continue
			}
			st, sv := composite.Ints(t, "start")
			en, ev := composite.Ints(t, "end")
			s.StartValid = appendMask(s.StartValid, len(s.Start), sv, len(st))
			s.EndValid = appendMask(s.EndValid, len(s.End), ev, len(en))
			s.Start, s.End = append(s.Start, st...), append(s.End, en...)
		}
		return s, nil
	}
}

// appendMask is the mask of n rows a (nil: all valid) followed by the mask
// of m rows b.
func appendMask(a pyframe.Mask, n int, b pyframe.Mask, m int) pyframe.Mask {
	if a == nil && b == nil {
		return nil
	}
	out := make(pyframe.Mask, 0, n+m)
	for i := 0; i < n; i++ {
		out = append(out, a.Valid(i))
	}
	for i := 0; i < m; i++ {
		out = append(out, b.Valid(i))
	}
	return out
}

// namedGroups are groups given names: names lists the distinct names
// ascending, and name[g] is group g's, an index into names (−1: none, the
// row's name is NULL). masked is whether some group with values has none
// (pandas then holds the name column with a mask, all valid once the
// NULL rows are dropped).
type namedGroups struct {
	names  []string
	name   []int32
	masked bool
}

// nameGroups names groups by nameOf (ok false: NULL), several groups
// sharing a name when their names are equal.
func nameGroups(n int, count func(g int) int, nameOf func(g int) (string, bool)) namedGroups {
	var ng namedGroups
	ng.name = make([]int32, n)
	byName := map[string]int32{}
	for g := 0; g < n; g++ {
		s, ok := nameOf(g)
		if !ok {
			ng.name[g] = -1
			ng.masked = ng.masked || count(g) > 0
			continue
		}
		j, seen := byName[s]
		if !seen {
			j = int32(len(ng.names))
			byName[s] = j
			ng.names = append(ng.names, s)
		}
		ng.name[g] = j
	}
	ranked := append(make([]string, 0, len(ng.names)), ng.names...)
	sort.Strings(ranked)
	rank := make([]int32, len(ng.names))
	for j, s := range ng.names {
		rank[j] = int32(sort.SearchStrings(ranked, s))
	}
	for g, j := range ng.name {
		if j >= 0 {
			ng.name[g] = rank[j]
		}
	}
	ng.names = ranked
	return ng
}

// shared is whether two or more groups have one name (their values are
// then merged in row order, which needs the groups' rows).
func (ng namedGroups) shared() bool {
	seen := make([]bool, len(ng.names))
	for _, j := range ng.name {
		if j >= 0 {
			if seen[j] {
				return true
			}
			seen[j] = true
		}
	}
	return false
}

// nameColumn is a Name index column of values v, with an all-valid mask
// when masked.
func (ng namedGroups) nameColumn(label string, v []string) *pyframe.Column {
	c := pyframe.NewStrings(label, v, nil)
	if ng.masked {
		c.Valid = make(pyframe.Mask, len(v))
		for i := range c.Valid {
			c.Valid[i] = true
		}
	}
	return c
}

// valueSource is where describeGroups takes the groups' values from: one
// or more Groups (the memcpy and memset tables), their groups numbered
// one after the other.
type valueSource []*stats.Groups[stats.IDKey]

// aggs are the sources' groups, numbered one after the other.
func (src valueSource) aggs() []*stats.Agg {
	var out []*stats.Agg
	for _, g := range src {
		if g == nil {
			continue
		}
		for i := range g.Aggs {
			out = append(out, &g.Aggs[i])
		}
	}
	return out
}

// describeGroups is the pandas description of the sources' values
// regrouped: group g goes to output group to[g] (−1: left out), the nOut
// output groups in key order with the key columns index; each output
// group's values are those of its groups, in row order (the sources'
// rows, one source after the other). kind is the values' kind.
func describeGroups(src valueSource, to []int32, nOut int, index []*pyframe.Column, kind pyframe.Kind) *pyframe.Frame {
	aggs := src.aggs()
	starts := make([]int, nOut+1)
	from := make([]int, nOut) // output group -> its groups (1 when one, 2 or more)
	for g, a := range aggs {
		if o := to[g]; o >= 0 {
			starts[o+1] += len(a.Values())
			from[o]++
		}
	}
	for o := 1; o <= nOut; o++ {
		starts[o] += starts[o-1]
	}
	vals := make([]int64, starts[nOut])
	fill := append([]int(nil), starts[:nOut]...)
	for g, a := range aggs {
		if o := to[g]; o >= 0 && from[o] == 1 {
			fill[o] += copy(vals[fill[o]:], a.Values())
		}
	}
	// Output groups of several groups take their values in row order.
	base, next := 0, make([]int, len(aggs))
	for _, s := range src {
		if s == nil {
			continue
		}
		for _, g := range s.Of {
			k := base + int(g)
			o := to[k]
			if o < 0 || from[o] < 2 {
				continue
			}
			v := aggs[k].Values()
			if next[k] < len(v) {
				vals[fill[o]] = v[next[k]]
				fill[o]++
				next[k]++
			}
		}
		base += len(s.Aggs)
	}
	return pyframe.DescribeGrouped(pyframe.NewInts(valueName(kind), kind, vals, nil), nil, starts, index)
}

// valueName is the name of the described values column (it names nothing
// in the output).
func valueName(kind pyframe.Kind) string {
	if kind == pyframe.Uint64 {
		return "bytes"
	}
	return "duration"
}
