package recipe

import "context"

func init() {
	Register(&Recipe{
		Name:        "cuda_gpu_kern_sum",
		DisplayName: "CUDA GPU Kernel Summary",
		Help:        "Per-rank and overall statistics of CUDA kernel durations, by kernel (short) name and by device.",
		Options:     summaryOptions,
		Notebook:    statsNotebook,
		Map:         mapKernSum,
		Reduce:      StatsReduce,
	})
}

// mapKernSum describes the filtered kernels' positive durations by short
// name, and by (short name, device) (docs/recipes.md §2.2).
func mapKernSum(ctx context.Context, r *Report, o *Options, _ any) (*Part, error) {
	k, keep, err := filteredKernels(ctx, r, o, nil, kernelShort)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return noData(o, r)
	}
	rows := positive(k.Span(), keep)
	dur := durations(k.Span(), rows, false)
	name := nameCol("Name", k.ShortName, k.ShortValid, rows)
	dev := NewInts("Device ID", Uint32, pickInts(k.DeviceID, rows), nil)
	return StatsPart(Describe([]*Column{name}, dur), Describe([]*Column{name, dev}, dur)), nil
}
