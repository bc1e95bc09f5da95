package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() { composite.ProjectNVTX = projectChosen }

// projectChosen is the --filter-projected-nvtx hook (docs/recipes.md §1.4
// step 2): the chosen NVTX rows projected onto the GPU with CUDA_COMBINED.
func projectChosen(ctx context.Context, p *nsysx.Profile, nv *composite.NVTX, rows []int) (start, end []int64, err error) {
	c, err := composite.LoadCombined(ctx, p, nil)
	if err != nil {
		return nil, nil, err
	}
	keep := make([]bool, nv.Len())
	for _, i := range rows {
		keep[i] = true
	}
	pr := Project(projNVTX(nv, keep), projCUDA(combinedCUDA(c), pyframe.Seq(c.Len()), nil), false)
	return pr.Start, pr.End, nil
}

// projNVTX is the NVTX composite as P's input: the rows in keep (all when
// nil) that have a start, an end and a thread, and end on their own thread
// (a NULL endGlobalTid).
func projNVTX(nv *composite.NVTX, keep []bool) *ProjNVTX {
	n := nv.Len()
	out := &ProjNVTX{Start: nv.Start, End: nv.End, GlobalTid: nv.GlobalTid, Keep: make([]bool, n)}
	for i := range n {
		out.Keep[i] = (keep == nil || keep[i]) && nv.EndValid.Valid(i) && nv.GlobalTidValid.Valid(i) &&
			!nv.EndGlobalTidValid.Valid(i)
	}
	return out
}

// cudaRows is the CUDA side of the projection recipes: CUDA_COMBINED,
// optionally with the CUDA graph rows of §1.9 appended (Graph marks the
// graph originals).
type cudaRows struct {
	Start, End, GPUStart, GPUEnd []int64
	GlobalTid, Stream, Device    []int64
	Graph                        []bool
}

func (c *cudaRows) span() composite.Span { return composite.Span{Start: c.GPUStart, End: c.GPUEnd} }

func combinedCUDA(c *composite.Combined) *cudaRows {
	return &cudaRows{Start: c.Start, End: c.End, GPUStart: c.GPUStart, GPUEnd: c.GPUEnd,
		GlobalTid: c.GlobalTid, Stream: c.StreamID, Device: c.DeviceID}
}

// projCUDA is P's CUDA input over rows of c, grouped by keys (each one of
// c's columns, e.g. c.Device).
func projCUDA(c *cudaRows, rows []int, keys [][]int64) *ProjCUDA {
	out := &ProjCUDA{
		Start: pyframe.Pick(c.Start, rows), End: pyframe.Pick(c.End, rows),
		GPUStart: pyframe.Pick(c.GPUStart, rows), GPUEnd: pyframe.Pick(c.GPUEnd, rows),
		GlobalTid: pyframe.Pick(c.GlobalTid, rows), Stream: pyframe.Pick(c.Stream, rows),
	}
	if c.Graph != nil {
		out.Graph = pyframe.Pick(c.Graph, rows)
	}
	for _, k := range keys {
		out.Keys = append(out.Keys, pyframe.Pick(k, rows))
	}
	return out
}

// loadProjCUDA reads the CUDA side of nvtx_gpu_proj_sum/trace: the runtime
// joined with CUDA_GPU_GRAPH (the GPU composite plus graph-trace rows) and
// the CUDA graph node and launch rows (docs/recipes.md §1.9, §2.7).
func loadProjCUDA(ctx context.Context, p *nsysx.Profile) (*cudaRows, error) {
	gpu, err := composite.LoadGPU(ctx, p)
	if err != nil {
		return nil, err
	}
	comb, err := composite.LoadCombined(ctx, p, gpu)
	if err != nil {
		return nil, err
	}
	out := combinedCUDA(comb)
	g, err := composite.LoadGraphData(ctx, p, gpu)
	if err != nil || g == nil {
		return out, err
	}
	out.Graph = make([]bool, len(out.Start))
	var extra []composite.GraphRow
	extra = append(extra, g.TraceRows()...)
	extra = append(extra, composite.GraphNodeRows(g.Calls, g.Nodes, g.Ops)...)
	extra = append(extra, composite.GraphLaunchRows(g.Calls, g.Graphs, g.Ops)...)
	out.appendGraphRows(extra)
	return out, nil
}

// appendGraphRows appends the rows the graph joins add (Graph: a graph
// original's row).
func (c *cudaRows) appendGraphRows(rows []composite.GraphRow) {
	for _, r := range rows {
		c.Start = append(c.Start, r.Start)
		c.End = append(c.End, r.End)
		c.GPUStart = append(c.GPUStart, r.Op.Start)
		c.GPUEnd = append(c.GPUEnd, r.Op.End)
		c.GlobalTid = append(c.GlobalTid, r.GlobalTid)
		c.Stream = append(c.Stream, r.Op.Stream)
		c.Device = append(c.Device, r.Op.Device)
		c.Graph = append(c.Graph, r.HasGroup)
	}
}
