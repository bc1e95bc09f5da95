package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/stats"
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
	keep, err := rowKeep(ctx, r, o, tableSpan(ctx, r, events.TableMemcpy, events.TableMemset))
	if err != nil {
		return nil, err
	}
	copies := 0 // the memsets follow the memcpys in the filtered frame
	if o.FilterNVTX != nil || o.FilterProjectedNVTX != nil {
		s, err := tableSpan(ctx, r, events.TableMemcpy)()
		if err != nil {
			return nil, err
		}
		copies = s.Len()
	}
	return memSum(ctx, r, o, stats.ValueSpec{Keep: keep(0), KeepAnyRow: keepAnyRow(o)}, stats.ValueSpec{Keep: keep(copies), KeepAnyRow: keepAnyRow(o)}, pyframe.Int64)
}

// memSum describes the values (spec's) of the memcpys (cp) and the memsets
// (set) by operation name and by (name, device): the rows grouped by the
// reports' aggregation (groupValues), memcpys by copy kind, named by
// ENUM_CUDA_MEMCPY_OPER.name, memsets named CUDA_MEMSET (docs/recipes.md
// §2.3). No kept row: no data.
func memSum(ctx context.Context, r *recipe.Report, o *recipe.Options, cp, set stats.ValueSpec, kind pyframe.Kind) (*recipe.Part, error) {
	cp.Sub = "deviceId"
	copies, err := groupValues(ctx, r, events.TableMemcpy, "copyKind", cp)
	if err != nil {
		return nil, err
	}
	sets, err := groupValues(ctx, r, events.TableMemset, "deviceId", set)
	if err != nil {
		return nil, err
	}
	src := valueSource{copies, sets}
	aggs := src.aggs()
	any := false
	for _, a := range aggs {
		any = any || a.N()+a.Nulls() > 0
	}
	if !any {
		return noData(o, r)
	}
	kinds, err := composite.CopyKindNames(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	var keys []stats.IDKey
	for _, g := range src {
		if g != nil {
			keys = append(keys, g.Keys...)
		}
	}
	ncp := 0
	if copies != nil {
		ncp = len(copies.Keys)
	}
	ng := nameGroups(len(keys), func(k int) int { return aggs[k].N() + aggs[k].Nulls() }, func(k int) (string, bool) {
		if k >= ncp {
			return composite.MemsetName, true
		}
		if keys[k].ID.Kind != stats.IntKind {
			return "", false
		}
		s, ok := kinds[keys[k].ID.I]
		return s, ok
	})
	byName := describeGroups(src, ng.name, len(ng.names), []*pyframe.Column{ng.nameColumn("Name", ng.names)}, kind)
	dev := func(k int) int64 {
		if k < ncp {
			return keys[k].Sub
		}
		return keys[k].ID.I // a memset's group is its device (NULL: 0)
	}
	return recipe.StatsPart(byName, describeByDevice(src, ng, dev, byName, kind)), nil
}
