package recipes

import (
	"context"
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	registerHeatmap("mpi_gpu_time_util_map", "MPI and GPU Time Utilization Heatmap", "Per process, the share of each time bin spent in CUDA kernels, in MPI calls and in both, on a timeline aligned across reports.",
		heatmapOptions, 0, mapMPIUtil)
}

// mapMPIUtil is mpi_gpu_time_util_map's mapper (docs/recipes.md §2.25): the
// filtered kernels and MPI events, shifted onto the aligned timeline; a
// report lacking either yields nothing. For each pid, in CPython's
// iteration order of set(kernel pids) | set(MPI pids), Kernel and MPI are
// the bins of the pid's consolidated ranges, and Overlap those of the
// overlap pieces of the two when the pid has both; a column the pid lacks
// holds the zero bins (0 in the session, NULL outside).
func mapMPIUtil(ctx context.Context, r *recipe.Report, o *recipe.Options, shared any) (*recipe.Part, error) {
	a, off, maxT, err := alignmentOf(shared, r)
	if err != nil {
		return nil, err
	}
	m, err := composite.LoadMPI(ctx, r.Profile)
	if err != nil {
		return nil, err
	}
	var nv *composite.NVTX // both frames are filtered: load the NVTX ranges once
	if o.FilterNVTX != nil || o.FilterProjectedNVTX != nil {
		if nv, err = composite.LoadNVTX(ctx, r.Profile); err != nil {
			return nil, err
		}
	} else if m.Span().Len() == 0 {
		return noData(o, r) // no MPI: the kernels are not read (a filter's errors still are)
	}
	k, keep, err := composite.FilteredKernels(ctx, r, o, nv, composite.KernelPid)
	if err != nil {
		return nil, err
	}
	mkeep, err := composite.FilterRows(ctx, r.Profile, o, m.Span(), nv)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 || len(mkeep) == 0 {
		return noData(o, r)
	}
	kpids, kgroups := byPID(k.PID, k.Start, k.End, keep, off)
	mpids, mgroups := byPID(m.PID, m.Start, m.End, mkeep, off)
	bins := func(v []composite.Interval) []float64 { return HeatBins(v, a.BinSize, a.Bins, off, maxT) }
	h := newHeatFrame(a, []string{"Kernel", "MPI", "Overlap"}, []string{"PID"})
	for _, pid := range pyframe.PyUnionOrder(kpids, mpids) {
		zero := ZeroBins(a.BinSize, a.Bins, off, maxT)
		kb, mb, ob := zero, zero, zero
		kv, hasK := kgroups[pid]
		mv, hasM := mgroups[pid]
		if hasK {
			kv = composite.Consolidate(kv)
			kb = bins(kv)
		}
		if hasM {
			mv = composite.Consolidate(mv)
			mb = bins(mv)
		}
		if hasK && hasM {
			ob = bins(composite.PieceSpans(composite.OverlapPieces(kv, mv)))
		}
		h.add([]int64{pid}, kb, mb, ob)
	}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": h.frame()}}, nil
}

// byPID groups the shifted [start, end] of rows by pid; the pids come
// ascending, as pandas' groupby keys.
func byPID(pid, start, end []int64, rows []int, off int64) ([]int64, map[int64][]composite.Interval) {
	m := map[int64][]composite.Interval{}
	var keys []int64
	for _, i := range rows {
		if _, ok := m[pid[i]]; !ok {
			keys = append(keys, pid[i])
		}
		m[pid[i]] = append(m[pid[i]], composite.Interval{Start: start[i] + off, End: end[i] + off})
	}
	sort.Slice(keys, func(a, b int) bool { return uint64(keys[a]) < uint64(keys[b]) })
	return keys, m
}
