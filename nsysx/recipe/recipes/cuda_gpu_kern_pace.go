package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/stats"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "cuda_gpu_kern_pace",
		DisplayName: "CUDA GPU Kernel Pacing",
		Help:        "The pacing of one CUDA kernel (--name, its short name) over its launches: start, duration and gap to the previous one, per rank.",
		Options:     paceOptions,
		Notebook:    paceNotebook,
		Prepare:     requireName,
		Map:         mapKernPace,
		Reduce:      reducePace,
	})
}

// mapKernPace takes the filtered kernels whose short name is --name, in
// table order (docs/recipes.md §2.11); the stats index is "Shortname".
// When one StringIds id has that text, the kernel table is streamed with
// the reports' aggregation (stats.ValuesByID, its rows where shortName is
// the id) and only those kernels' times are kept; otherwise (no kernel
// table, several ids of that text) the kernel composite is loaded.
func mapKernPace(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	if !r.Profile.HasTable(events.TableKernel) || !r.Profile.HasColumn(events.TableKernel, "shortName") {
		return mapKernPaceComposite(ctx, r, o)
	}
	if err := composite.NamesErr(ctx, r.Profile); err != nil {
		return nil, err
	}
	names, err := r.Profile.Strings(ctx)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for id, s := range names {
		if s == o.Name {
			ids = append(ids, id)
		}
	}
	switch len(ids) {
	case 0:
		return noData(o, r)
	case 1:
	default:
		return mapKernPaceComposite(ctx, r, o)
	}
	keep, err := rowFilter(ctx, r, o, tableSpan(ctx, r, events.TableKernel), false)
	if err != nil {
		return nil, err
	}
	kept := keep(0)
	var start, end []int64
	last := -1
	_, err = groupValuesAs(ctx, r, events.TableKernel, "shortName", stats.ValueSpec{Where: "shortName", Is: ids[0], Keep: func(row int, s, e int64) bool {
		if row <= last { // the rows read again (a scan given up for a load)
			start, end = start[:0], end[:0]
		}
		last = row
		if !kept(row, s, e) {
			return false
		}
		start, end = append(start, s), append(end, e)
		return true
	}})
	if err != nil {
		return nil, err
	}
	if len(start) == 0 {
		return noData(o, r)
	}
	return pacePart(o.Name, pyframe.TitleCase("shortName"), start, end, false), nil
}

// mapKernPaceComposite is mapKernPace over the loaded kernel composite.
func mapKernPaceComposite(ctx context.Context, r *recipe.Report, o *recipe.Options) (*recipe.Part, error) {
	k, keep, err := composite.FilteredKernels(ctx, r, o, nil, composite.KernelShort)
	if err != nil {
		return nil, err
	}
	var start, end []int64
	for _, i := range keep {
		if k.ShortValid.Valid(i) && k.ShortName[i] == o.Name {
			start, end = append(start, k.Start[i]), append(end, k.End[i])
		}
	}
	if len(start) == 0 {
		return noData(o, r)
	}
	return pacePart(o.Name, pyframe.TitleCase("shortName"), start, end, false), nil
}
