package recipes

import (
	"cmp"
	"context"
	"slices"
	"sort"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/report"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "nvtx_gpu_proj_pace",
		DisplayName: "NVTX GPU Projection Pacing",
		Help:        "The pacing of one NVTX range (--name) projected onto the GPU: the GPU span of each iteration, per rank.",
		Options:     []string{"input", "name", "start", "end", "filter_time", "filter_nvtx", "filter_projected_nvtx"},
		Notebook:    paceNotebook,
		Prepare:     requireName,
		Map:         mapNVTXProjPace,
		MapCost:     0.25, // streams NVTX_EVENTS for the rows of --name, then the CUDA rows they can project onto
		Reduce:      reducePace,
	})
}

// mapNVTXProjPace projects the NVTX rows whose text is --name onto
// CUDA_COMBINED (no graph rows) and paces the projected ranges in P's
// order: thread, then start (docs/recipes.md §2.9).
func mapNVTXProjPace(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	var src projSource
	if o.FilterNVTX == nil && o.FilterProjectedNVTX == nil && canScanNVTX(r.Profile) {
		// only the rows of --name take part: scan for them, not the composite
		nv, _, err := scanNamedNVTX(ctx, r.Profile, o.Name)
		if err != nil {
			return nil, err
		}
		cuda, err := rangeCUDA(ctx, r.Profile, nv)
		if err != nil {
			return nil, err
		}
		src = projSource{nv: nv, cuda: cuda}
	} else {
		nv, err := composite.LoadNVTX(ctx, r.Profile)
		if err != nil {
			return nil, err
		}
		keep := make([]bool, nv.Len())
		for i := range keep {
			keep[i] = nv.TextValid.Valid(i) && nv.Text[i] == o.Name
		}
		src = projSource{nv: nv, filter: nv, keep: keep}
	}
	pr, err := projectReport(ctx, r.Profile, o, src)
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return noData(o, r)
	}
	return pacePart(o.Name, "Text", pr.Start, pr.End, false), nil
}

// The CUDA side of a projection of a few ranges (nvtx_gpu_proj_pace's
// --name). P attributes a CUDA row to the ranges of its API call's thread
// that contain the call (n.start ≤ c.start < n.end, c.end ≤ n.end), and a
// range's projection is made of those rows alone; the time window then
// keeps or drops each row on its own GPU times. So the rows of
// CUDA_COMBINED whose call starts outside every range of its thread take
// no part, and leaving them out, in the composite's order, changes
// nothing. rangeCUDA reads only the others: the runtime calls of the
// ranges' threads (a scan gated on globalTid) that start within the span
// of one of them, then the GPU rows of those calls' correlation ids (scans
// gated on correlationId), joined on (pid, correlationId) as
// LoadCombined joins them. On the real PyTorch capture the 600 ranges of
// "forward" keep a third of its 362 K calls, and nothing of the other
// columns of the composite is held (docs/performance.md, "NCCL and pace:
// gated scans read with pread").

// threadSpans are, per thread, the spans of its ranges merged: sorted by
// start, disjoint.
type threadSpans map[int64][][2]int64

// rangeSpans returns the spans of nv's ranges by thread; a range that
// contains no instant (start ≥ end) has none.
func rangeSpans(nv *composite.NVTX) threadSpans {
	w := threadSpans{}
	for i := range nv.Start {
		if nv.Start[i] < nv.End[i] {
			t := nv.GlobalTid[i]
			w[t] = append(w[t], [2]int64{nv.Start[i], nv.End[i]})
		}
	}
	for t, s := range w {
		slices.SortFunc(s, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
		out := s[:1]
		for _, v := range s[1:] {
			if last := &out[len(out)-1]; v[0] <= last[1] {
				last[1] = max(last[1], v[1])
			} else {
				out = append(out, v)
			}
		}
		w[t] = out
	}
	return w
}

// holds reports whether instant s of thread t lies in one of its spans
// (start ≤ s < end).
func (w threadSpans) holds(t, s int64) bool {
	sp := w[t]
	k := sort.Search(len(sp), func(i int) bool { return sp[i][1] > s })
	return k < len(sp) && sp[k][0] <= s
}

// rtKept are the runtime calls a range scan keeps, in row order.
type rtKept struct {
	_                      [64]byte // its own cache lines (see nsysx's ScanParts)
	start, end, corr, gtid []int64
	_                      [64]byte
}

// gpuKept are the GPU rows of one table a scan keeps, in row order.
type gpuKept struct {
	_                                  [64]byte
	start, end, dev, stream, pid, corr []int64
	_                                  [64]byte
}

// rangeCUDA returns the rows of CUDA_COMBINED (no graph rows) whose
// runtime call starts within a range of nv on its thread, in the
// composite's order, as the projection reads them.
func rangeCUDA(ctx context.Context, p *nsysx.Profile, nv *composite.NVTX) (*cudaRows, error) {
	spans := rangeSpans(nv)
	c := &cudaRows{}
	if len(spans) == 0 || !p.HasTable(composite.TableRuntime) {
		return c, nil
	}
	var rts []*rtKept
	_, err := report.ScanPartsWhere(ctx, p.Profile, composite.TableRuntime, []string{"start", "end", "correlationId", "globalTid"}, 3,
		func(v int64) bool { _, ok := spans[v]; return ok },
		func(int) func(nsysx.ScanRow) error {
			k := &rtKept{}
			rts = append(rts, k)
			return func(r nsysx.ScanRow) error {
				if r.IsNull(2) || r.IsNull(3) || !spans.holds(r.Int(3), r.Int(0)) {
					return nil // a call without both join keys joins nothing
				}
				k.start, k.end = append(k.start, r.Int(0)), append(k.end, r.Int(1))
				k.corr, k.gtid = append(k.corr, r.Int(2)), append(k.gtid, r.Int(3))
				return nil
			}
		})
	if err != nil {
		return nil, err
	}
	corrs := map[int64]bool{}
	for _, k := range rts {
		for _, v := range k.corr {
			corrs[v] = true
		}
	}
	if len(corrs) == 0 {
		return c, nil
	}
	gpu, err := scanGPUOf(ctx, p, corrs)
	if err != nil {
		return nil, err
	}
	// the GPU rows of each (pid, correlationId), in the GPU composite's
	// order: the key's first row, and a chain of the next (as gpuJoin)
	head := make(map[[2]int64]int32, len(gpu.start))
	next := make([]int32, len(gpu.start))
	for i := len(gpu.start) - 1; i >= 0; i-- {
		k := [2]int64{gpu.pid[i], gpu.corr[i]}
		next[i] = -1
		if h, ok := head[k]; ok {
			next[i] = h
		}
		head[k] = int32(i)
	}
	for _, k := range rts {
		for i := range k.start {
			g, ok := head[[2]int64{composite.PidOf(k.gtid[i]), k.corr[i]}]
			for ; ok && g >= 0; g = next[g] {
				c.Start, c.End = append(c.Start, k.start[i]), append(c.End, k.end[i])
				c.GPUStart, c.GPUEnd = append(c.GPUStart, gpu.start[g]), append(c.GPUEnd, gpu.end[g])
				c.GlobalTid = append(c.GlobalTid, k.gtid[i])
				c.Stream, c.Device = append(c.Stream, gpu.stream[g]), append(c.Device, gpu.dev[g])
			}
		}
	}
	return c, nil
}

// scanGPUOf returns the rows of the GPU composite (kernels, memcpys,
// memsets, each table in row order) whose correlationId is one of corrs
// and that have both join keys.
func scanGPUOf(ctx context.Context, p *nsysx.Profile, corrs map[int64]bool) (*gpuKept, error) {
	all := &gpuKept{}
	for _, table := range []string{composite.TableKernel, composite.TableMemcpy, composite.TableMemset} {
		if !p.HasTable(table) {
			continue
		}
		var parts []*gpuKept
		_, err := report.ScanPartsWhere(ctx, p.Profile, table, []string{"start", "end", "deviceId", "streamId", "correlationId", "globalPid"}, 4,
			func(v int64) bool { return corrs[v] },
			func(int) func(nsysx.ScanRow) error {
				k := &gpuKept{}
				parts = append(parts, k)
				return func(r nsysx.ScanRow) error {
					if r.IsNull(4) || r.IsNull(5) || !corrs[r.Int(4)] {
						return nil
					}
					k.start, k.end = append(k.start, r.Int(0)), append(k.end, r.Int(1))
					k.dev, k.stream = append(k.dev, r.Int(2)), append(k.stream, r.Int(3))
					k.corr, k.pid = append(k.corr, r.Int(4)), append(k.pid, composite.PidOf(r.Int(5)))
					return nil
				}
			})
		if err != nil {
			return nil, err
		}
		for _, k := range parts {
			all.start, all.end = append(all.start, k.start...), append(all.end, k.end...)
			all.dev, all.stream = append(all.dev, k.dev...), append(all.stream, k.stream...)
			all.corr, all.pid = append(all.corr, k.corr...), append(all.pid, k.pid...)
		}
	}
	return all, nil
}
