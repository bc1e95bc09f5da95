package recipes

import (
	"context"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	registerHeatmap("nccl_gpu_time_util_map", "NCCL GPU Time Utilization Heatmap", "Per GPU of each process, the share of each time bin spent in any kernel, NCCL kernels, compute kernels and both at once.",
		heatmapOptions, 0.25, mapNCCLUtil) // a pass over the kernels' short names; with NCCL kernels, the kernel table's columns, as cuda_gpu_time_util_map's load path
}

// isNCCL says whether kernel row i is an NCCL kernel: its short name starts
// with "nccl" (case-sensitive; docs/recipes.md §2.22).
func isNCCL(k *composite.Kernel, i int) bool {
	return k.ShortValid.Valid(i) && strings.HasPrefix(k.ShortName[i], "nccl")
}

// noNCCL reports whether a streamed pass over the kernels' short names
// (ScanInts: nothing loaded) finds no NCCL kernel, so that a report
// without any has no data whatever the filters, without loading its
// kernels. False when the pass does not apply or finds one.
func noNCCL(ctx context.Context, p *nsysx.Profile) bool {
	if p.StringsErr(ctx) != nil {
		return false
	}
	seen := map[int64]bool{} // name id: NCCL's
	ok, err := p.ScanInts(ctx, composite.TableKernel, []string{"shortName"}, func(v []int64, null uint32) error {
		if null != 0 {
			return nil
		}
		is, done := seen[v[0]]
		if !done {
			name, _ := p.String(ctx, v[0])
			is = strings.HasPrefix(name, "nccl")
			seen[v[0]] = is
		}
		if is {
			return composite.ErrScanOff
		}
		return nil
	})
	return ok && err == nil
}

// splitNCCL splits rows into NCCL and compute kernels, keeping order.
func splitNCCL(k *composite.Kernel, rows []int) (nccl, comp []int) {
	for _, i := range rows {
		if isNCCL(k, i) {
			nccl = append(nccl, i)
		} else {
			comp = append(comp, i)
		}
	}
	return nccl, comp
}

// mapNCCLUtil bins, per (pid, device), the consolidated kernels (All),
// NCCL kernels, compute kernels, and the overlap pieces of the
// consolidated NCCL and compute ranges (docs/recipes.md §2.23). A report
// without NCCL kernels yields nothing.
func mapNCCLUtil(ctx context.Context, r *recipe.Report, o *recipe.Options, shared any) (*recipe.Part, error) {
	a, off, maxT, err := alignmentOf(shared, r)
	if err != nil {
		return nil, err
	}
	if noNCCL(ctx, r.Profile) {
		return noData(o, r)
	}
	k, keep, err := composite.FilteredKernels(ctx, r, o, nil, composite.KernelShort|composite.KernelPid)
	if err != nil {
		return nil, err
	}
	if n, _ := splitNCCL(k, keep); len(n) == 0 {
		return noData(o, r)
	}
	bins := func(v []composite.Interval) []float64 { return HeatBins(v, a.BinSize, a.Bins, off, maxT) }
	h := newHeatFrame(a, []string{"All", "NCCL", "Compute", "Overlap"}, []string{"PID", "Device ID"})
	keys, groups := byDevice(k.PID, k.DeviceID, keep)
	for _, key := range keys {
		rows := groups[key]
		n, c := splitNCCL(k, rows)
		all := composite.Consolidate(shifted(k, rows, off))
		nc, cc := composite.Consolidate(shifted(k, n, off)), composite.Consolidate(shifted(k, c, off))
		h.add([]int64{key.pid, key.dev}, bins(all), bins(nc), bins(cc), bins(composite.PieceSpans(composite.OverlapPieces(nc, cc))))
	}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": h.frame()}}, nil
}
