package recipes

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/stats"
)

// mapKernSum describes the filtered kernels' positive durations by short
// name, and by (short name, device) (docs/recipes.md §2.2): the kernels
// grouped by (shortName id, device) with the reports' aggregation
// (groupValues), the groups then named and merged by name.
func mapKernSum(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	keep, err := rowKeep(ctx, r, o, tableSpan(ctx, r, events.TableKernel))
	if err != nil {
		return nil, err
	}
	g, err := groupValues(ctx, r, events.TableKernel, "shortName", stats.ValueSpec{Sub: "deviceId", Keep: keep(0), KeepAnyRow: keepAnyRow(o)})
	if err != nil {
		return nil, err
	}
	if err := composite.NamesErr(ctx, r.Profile); err != nil {
		return nil, err
	}
	if g == nil || len(g.Of) == 0 {
		return noData(o, r)
	}
	ng := nameGroups(len(g.Keys), func(k int) int { return g.Aggs[k].N() }, idName(ctx, r, g))
	stats1 := describeGroups(valueSource{g}, ng.name, len(ng.names), []*pyframe.Column{ng.nameColumn("Name", ng.names)}, pyframe.Int64)
	return recipe.StatsPart(stats1, describeByDevice(valueSource{g}, ng, func(k int) int64 { return g.Keys[k].Sub }, stats1, pyframe.Int64)), nil
}

// idName names group k of g by its id's StringIds text (ok false: a NULL
// id, or one StringIds lacks).
func idName(ctx context.Context, r *recipe.Report, g *stats.Groups[stats.IDKey]) func(k int) (string, bool) {
	return func(k int) (string, bool) {
		id := g.Keys[k].ID
		if id.Kind != stats.IntKind {
			return "", false
		}
		return r.Profile.String(ctx, id.I)
	}
}

// describeByDevice is the description by (name, device) of src's named
// groups (group k on device dev(k)), in key order: name, then device
// (signed, as Describe orders a Uint32 key). When every name is on one
// device, the groups are the names' (byName's statistics with the pair
// index).
func describeByDevice(src valueSource, ng namedGroups, dev func(k int) int64, byName *pyframe.Frame, kind pyframe.Kind) *pyframe.Frame {
	type pair struct{ name, dev int64 }
	var pairs []pair
	index := map[pair]int32{}
	to := make([]int32, len(ng.name))
	for k := range ng.name {
		to[k] = -1
		if j := ng.name[k]; j >= 0 {
			p := pair{int64(j), dev(k)}
			if _, seen := index[p]; !seen {
				index[p] = int32(len(pairs))
				pairs = append(pairs, p)
			}
		}
	}
	sort.Slice(pairs, func(a, b int) bool {
		if pairs[a].name != pairs[b].name {
			return pairs[a].name < pairs[b].name
		}
		return pairs[a].dev < pairs[b].dev
	})
	names, devs := make([]string, len(pairs)), make([]int64, len(pairs))
	for i, p := range pairs {
		index[p] = int32(i)
		names[i], devs[i] = ng.names[p.name], p.dev
	}
	for k := range ng.name {
		if j := ng.name[k]; j >= 0 {
			to[k] = index[pair{int64(j), dev(k)}]
		}
	}
	cols := []*pyframe.Column{ng.nameColumn("Name", names), pyframe.NewInts("Device ID", pyframe.Uint32, devs, nil)}
	if len(pairs) == len(ng.names) {
		return withIndex(byName, len(pyframe.StatNames), cols)
	}
	return describeGroups(src, to, len(pairs), cols, kind)
}

// withIndex is a copy of f's first n columns with the index columns index.
func withIndex(f *pyframe.Frame, n int, index []*pyframe.Column) *pyframe.Frame {
	out := &pyframe.Frame{Index: pyframe.NamedIndex}
	all := pyframe.Seq(f.Rows())
	for _, c := range f.Cols[:n] {
		out.Cols = append(out.Cols, c.Pick(all))
	}
	for _, c := range index {
		out.Cols = append(out.Cols, c)
		out.IndexCols = append(out.IndexCols, c.Name)
	}
	return out
}
