package recipe

import "context"

func init() {
	registerHeatmap("cuda_gpu_time_util_map", "CUDA GPU Time Utilization Heatmap", "Per GPU of each process, the share of each time bin in which CUDA kernels ran, on a timeline aligned across reports.",
		[]string{"input", "start", "end", "bins", "disable_alignment", "cumulative", "filter_time", "filter_nvtx"}, mapCudaUtil)
}

// mapCudaUtil bins the filtered kernels, shifted onto the aligned timeline,
// per (pid, device): the kernels consolidated first (overlaps counted once)
// unless --cumulative, which adds every kernel and so can exceed 100
// (docs/recipes.md §2.13).
func mapCudaUtil(ctx context.Context, r *Report, o *Options, shared any) (*Part, error) {
	a, off, maxT, err := alignmentOf(shared, r)
	if err != nil {
		return nil, err
	}
	k, keep, err := filteredKernels(ctx, r, o, nil, kernelPid)
	if err != nil || len(keep) == 0 {
		return noDataOr(o, r, err)
	}
	h := newHeatFrame(a, []string{"Kernel"}, []string{"PID", "Device ID"})
	keys, groups := byDevice(k.PID, k.DeviceID, keep)
	for _, key := range keys {
		v := shifted(k, groups[key], off)
		if !o.Cumulative {
			v = Consolidate(v)
		}
		h.add([]int64{key.pid, key.dev}, HeatBins(v, a.BinSize, a.Bins, off, maxT))
	}
	return &Part{Frames: map[string]*Frame{"analysis": h.frame()}}, nil
}

// filteredKernels loads the CUDA_KERNEL composite and the rows that pass the
// frame filter (docs/recipes.md §1.4); nv is the NVTX composite when the
// caller has loaded it (nil: loaded when a filter needs it); need names
// the columns read besides the times and device.
func filteredKernels(ctx context.Context, r *Report, o *Options, nv *NVTX, need kernelCols) (*Kernel, []int, error) {
	k, err := loadKernel(ctx, r.Profile, need)
	if err != nil {
		return nil, nil, err
	}
	keep, err := FilterRows(ctx, r.Profile, o, k.Span(), nv)
	return k, keep, err
}
