package recipes

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	registerHeatmap("cuda_gpu_time_util_map", "CUDA GPU Time Utilization Heatmap", "Per GPU of each process, the share of each time bin in which CUDA kernels ran, on a timeline aligned across reports.",
		[]string{"input", "start", "end", "bins", "disable_alignment", "cumulative", "filter_time", "filter_nvtx"}, 0.25, mapCudaUtil) // the kernels streamed into their bins (nothing kept); the load path (NVTX filters) holds four int64 columns of the kernel table, a small share of the export
}

// mapCudaUtil bins the filtered kernels, shifted onto the aligned timeline,
// per (pid, device): the kernels consolidated first (overlaps counted once)
// unless --cumulative, which adds every kernel and so can exceed 100
// (docs/recipes.md §2.13).
func mapCudaUtil(ctx context.Context, r *recipe.Report, o *recipe.Options, shared any) (*recipe.Part, error) {
	a, off, maxT, err := alignmentOf(shared, r)
	if err != nil {
		return nil, err
	}
	if part, ok := streamCudaUtil(ctx, r, o, a, off, maxT); ok {
		return part, nil
	}
	k, keep, err := composite.FilteredKernels(ctx, r, o, nil, composite.KernelPid)
	if err != nil || len(keep) == 0 {
		return noDataOr(o, r, err)
	}
	h := newHeatFrame(a, []string{"Kernel"}, []string{"PID", "Device ID"})
	keys, groups := byDevice(k.PID, k.DeviceID, keep)
	for _, key := range keys {
		v := shifted(k, groups[key], off)
		if !o.Cumulative {
			v = composite.Consolidate(v)
		}
		h.add([]int64{key.pid, key.dev}, HeatBins(v, a.BinSize, a.Bins, off, maxT))
	}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": h.frame()}}, nil
}

// streamCudaUtil is mapCudaUtil over the kernels streamed by scanKernels:
// each (pid, device) group bins its shifted ranges as they are read (no
// range kept), consolidated as they come unless --cumulative. ok is false
// when the scan does not apply, or when a group's ranges do not come in
// start order or one ends before it starts (consolidating them needs them
// all): then mapCudaUtil loads.
func streamCudaUtil(ctx context.Context, r *recipe.Report, o *recipe.Options, a *Alignment, off, maxT int64) (*recipe.Part, bool) {
	groups := map[devKey]*heatRun{}
	var last *heatRun
	var lastKey devKey
	bs := float64(a.BinSize)
	n, ok := composite.ScanKernels(ctx, r.Profile, o, "globalPid", func(k composite.KernRow) bool {
		key := devKey{composite.PidOf(k.X), k.Dev}
		if last == nil || key != lastKey {
			if last = groups[key]; last == nil {
				last = &heatRun{bins: make([]float64, a.Bins)}
				groups[key] = last
			}
			lastKey = key
		}
		x := composite.Interval{Start: k.Start + off, End: k.End + off}
		if o.Cumulative {
			addBins(last.bins, x, bs)
			return true
		}
		return last.add(x, bs)
	})
	if !ok {
		return nil, false
	}
	if n == 0 {
		part, _ := noData(o, r)
		return part, true
	}
	keys := make([]devKey, 0, len(groups))
	for key := range groups {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].pid != keys[b].pid {
			return uint64(keys[a].pid) < uint64(keys[b].pid)
		}
		return uint64(keys[a].dev) < uint64(keys[b].dev)
	})
	h := newHeatFrame(a, []string{"Kernel"}, []string{"PID", "Device ID"})
	for _, key := range keys {
		g := groups[key]
		if g.open {
			addBins(g.bins, g.run, bs)
		}
		rectify(g.bins, bs, off, maxT, true)
		h.add([]int64{key.pid, key.dev}, g.bins)
	}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": h.frame()}}, true
}

// heatRun is one group's bins and its open run: the ranges so far, in start
// order, consolidated (Consolidate), with the runs before the open one
// binned as HeatBins bins the consolidated ranges.
type heatRun struct {
	bins []float64
	run  composite.Interval
	open bool
}

// add adds range x; false when x comes before the open run's start or
// ends before it starts.
func (h *heatRun) add(x composite.Interval, bs float64) bool {
	if x.End < x.Start || h.open && x.Start < h.run.Start {
		return false
	}
	if h.open && x.Start <= h.run.End {
		h.run.End = max(h.run.End, x.End)
		return true
	}
	if h.open {
		addBins(h.bins, h.run, bs)
	}
	h.run, h.open = x, true
	return true
}
