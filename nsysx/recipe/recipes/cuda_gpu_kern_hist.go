package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/stats"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "cuda_gpu_kern_hist",
		DisplayName: "CUDA GPU Kernel Duration Histogram",
		Help:        "Every kernel's duration and short name, per rank, for a histogram of kernel durations.",
		Options:     []string{"input", "start", "end", "filter_time", "filter_nvtx"},
		Notebook:    "histogram.ipynb",
		Map:         mapKernHist,
		Reduce:      reduceFrames("analysis", "analysis"),
	})
}

// mapKernHist lists the filtered kernels with a positive duration: Duration
// and Name (the short name), labelled by their row in the kernel table
// (docs/recipes.md §2.12). The kernels are streamed as cuda_gpu_kern_sum's
// map groups them (groupValues, by shortName id): each kept row's group
// (Groups.Of) and the group's values in row order give the rows back in
// order, each name resolved once per id; nothing is loaded. Without an
// NVTX filter the table is grouped first without the rows' positions (in
// ranges read at once where the report has spare cores); only when that
// drops a row is it grouped again with them (kernHistLabelled).
func mapKernHist(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	keep, err := rowKeep(ctx, r, o, tableSpan(ctx, r, events.TableKernel))
	if err != nil {
		return nil, err
	}
	var labels []int64
	contiguous := true
	var g *stats.Groups[stats.IDKey]
	if keepAnyRow(o) {
		// Every row kept (the usual case): the rows' positions are not
		// needed, and the table may be grouped in ranges read at once.
		g, err = groupValues(ctx, r, events.TableKernel, "shortName", stats.ValueSpec{Keep: keep(0), KeepAnyRow: true})
		if err != nil {
			return nil, err
		}
	}
	if g == nil || len(g.Of) != g.Read {
		g, labels, contiguous, err = kernHistLabelled(ctx, r, keep(0))
		if err != nil {
			return nil, err
		}
	}
	if err := composite.NamesErr(ctx, r.Profile); err != nil {
		return nil, err
	}
	if len(g.Of) == 0 {
		return noData(o, r)
	}
	name := idName(ctx, r, g)
	names, valid := make([]string, len(g.Keys)), make([]bool, len(g.Keys))
	for k := range g.Keys {
		names[k], valid[k] = name(k)
	}
	dur, rowName := make([]int64, len(g.Of)), make([]string, len(g.Of))
	var mask pyframe.Mask
	next := make([]int, len(g.Keys))
	for j, k := range g.Of {
		dur[j], rowName[j] = g.Aggs[k].Values()[next[k]], names[k]
		next[k]++
		if !valid[k] && mask == nil {
			mask = make(pyframe.Mask, len(g.Of))
			for i := range mask {
				mask[i] = true
			}
		}
		if mask != nil {
			mask[j] = valid[k]
		}
	}
	f := &pyframe.Frame{Cols: []*pyframe.Column{
		pyframe.NewInts("Duration", pyframe.Int64, dur, nil),
		pyframe.NewStrings("Name", rowName, mask),
	}}
	if contiguous {
		f.Index = pyframe.RangeIndex // pandas keeps a RangeIndex when nothing was dropped
		return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": f}}, nil
	}
	f.Cols = append(f.Cols, pyframe.NewInts(pyframe.LevelIndexName, pyframe.Int64, labels, nil))
	f.Index, f.IndexCols = pyframe.LevelIndex, []string{pyframe.LevelIndexName}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": f}}, nil
}

// kernHistLabelled groups the kernels kept by kept, row by row, with the
// labels of the rows kept: contiguous when they are the rows 0..n−1 (then
// labels is empty), else every kept row's position in the table.
func kernHistLabelled(ctx context.Context, r *recipe.Report, kept func(row int, s, e int64) bool) (g *stats.Groups[stats.IDKey], labels []int64, contiguous bool, err error) {
	// labels are the kept rows' positions, listed only from the first row
	// dropped on (n rows kept before it: the labels 0..n−1).
	contiguous, last, n := true, -1, 0
	g, err = groupValues(ctx, r, events.TableKernel, "shortName", stats.ValueSpec{Keep: func(row int, s, e int64) bool {
		if row <= last { // the rows read again (a scan given up for a load)
			labels, contiguous, n = labels[:0], true, 0
		}
		last = row
		if !kept(row, s, e) {
			return false
		}
		if contiguous && row != n {
			contiguous = false
			for i := range n {
				labels = append(labels, int64(i))
			}
		}
		if !contiguous {
			labels = append(labels, int64(row))
		}
		n++
		return true
	}})
	if g == nil {
		g = &stats.Groups[stats.IDKey]{}
	}
	return g, labels, contiguous, err
}
