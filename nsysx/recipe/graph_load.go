package recipe

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
)

// CUDA graph tables (docs/recipes.md §1.9).
const (
	TableGraphNodeEvents = "CUDA_GRAPH_NODE_EVENTS"
	TableGraphEvents     = "CUDA_GRAPH_EVENTS"
	TableGraphTrace      = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
)

// graphData is what the CUDA graph joins read from one report.
type graphData struct {
	calls  []GraphCall
	nodes  []GraphNodeEvent
	graphs []GraphEvent
	ops    []GraphOp // CUDA_GPU_GRAPH: the GPU composite, then graph-trace rows
	trace  int       // index of the first graph-trace row in ops
}

// loadGraphData reads the graph tables; a report with none of them (every
// fixture) gives nil.
func loadGraphData(ctx context.Context, p *nsysx.Profile, gpu *GPU) (*graphData, error) {
	if !p.HasTable(TableGraphNodeEvents) && !p.HasTable(TableGraphEvents) && !p.HasTable(TableGraphTrace) {
		return nil, nil
	}
	g := &graphData{}
	var err error
	if g.calls, err = loadGraphCalls(ctx, p); err != nil {
		return nil, err
	}
	if g.ops, err = loadGraphOps(ctx, p, gpu); err != nil {
		return nil, err
	}
	g.trace = gpu.Len()
	t, err := loadTable(ctx, p, TableGraphNodeEvents, []string{"start", "graphNodeId"}, []string{"end", "globalTid", "originalGraphNodeId"})
	if err != nil {
		return nil, err
	}
	start, _ := ints(t, "start")
	end, _ := ints(t, "end")
	tid, _ := ints(t, "globalTid")
	node, nodeValid := ints(t, "graphNodeId")
	orig, origValid := ints(t, "originalGraphNodeId")
	for i := range start {
		if nodeValid.Valid(i) {
			g.nodes = append(g.nodes, GraphNodeEvent{Start: start[i], End: end[i], GlobalTid: tid[i],
				NodeID: node[i], Orig: orig[i], HasOrig: origValid.Valid(i)})
		}
	}
	if t, err = loadTable(ctx, p, TableGraphEvents, []string{"start", "graphId"}, []string{"end", "globalTid"}); err != nil {
		return nil, err
	}
	start, _ = ints(t, "start")
	end, _ = ints(t, "end")
	tid, _ = ints(t, "globalTid")
	graph, graphValid := ints(t, "graphId")
	for i := range start {
		if graphValid.Valid(i) {
			g.graphs = append(g.graphs, GraphEvent{Start: start[i], End: end[i], GlobalTid: tid[i], GraphID: graph[i]})
		}
	}
	return g, nil
}

// loadGraphCalls reads the runtime calls with their names.
func loadGraphCalls(ctx context.Context, p *nsysx.Profile) ([]GraphCall, error) {
	t, err := loadTable(ctx, p, TableRuntime, []string{"start", "end", "nameId"}, []string{"correlationId", "globalTid"})
	if err != nil {
		return nil, err
	}
	start, _ := ints(t, "start")
	end, _ := ints(t, "end")
	corr, corrValid := ints(t, "correlationId")
	tid, tidValid := ints(t, "globalTid")
	if err := p.StringsErr(ctx); err != nil {
		return nil, err
	}
	name, _ := strs(ctx, p, t, "nameId")
	var out []GraphCall
	for i := range start {
		if corrValid.Valid(i) && tidValid.Valid(i) {
			out = append(out, GraphCall{Start: start[i], End: end[i], GlobalTid: tid[i], CorrID: corr[i], Name: name[i]})
		}
	}
	return out, nil
}

// loadGraphOps is CUDA_GPU_GRAPH: the GPU composite's rows with their
// graphNodeId, then the graph-trace rows with their graphId.
func loadGraphOps(ctx context.Context, p *nsysx.Profile, gpu *GPU) ([]GraphOp, error) {
	var nodeIDs [3][]int64
	var nodeValid [3]Mask
	for kind, table := range []string{TableKernel, TableMemcpy, TableMemset} {
		t, err := loadTable(ctx, p, table, []string{"start"}, []string{"graphNodeId"})
		if err != nil {
			return nil, err
		}
		nodeIDs[kind], nodeValid[kind] = ints(t, "graphNodeId")
	}
	ops := make([]GraphOp, 0, gpu.Len())
	for i := 0; i < gpu.Len(); i++ {
		k, r := gpu.Kind[i], gpu.Row[i]
		ops = append(ops, GraphOp{Start: gpu.Start[i], End: gpu.End[i], Pid: gpu.PID[i], Device: gpu.DeviceID[i],
			Context: gpu.ContextID[i], Stream: gpu.StreamID[i], CorrID: gpu.CorrelationID[i],
			NodeID: nodeIDs[k][r], HasNode: nodeValid[k].Valid(r) && gpu.GlobalPidValid.Valid(i)})
	}
	t, err := loadTable(ctx, p, TableGraphTrace, []string{"start", "end"},
		[]string{"deviceId", "contextId", "streamId", "correlationId", "globalPid", "graphId"})
	if err != nil {
		return nil, err
	}
	start, _ := ints(t, "start")
	end, _ := ints(t, "end")
	dev, _ := ints(t, "deviceId")
	ctxID, _ := ints(t, "contextId")
	stream, _ := ints(t, "streamId")
	corr, _ := ints(t, "correlationId")
	gpid, gpidValid := ints(t, "globalPid")
	graph, graphValid := ints(t, "graphId")
	for i := range start {
		ops = append(ops, GraphOp{Start: start[i], End: end[i], Pid: pidOf(gpid[i]), Device: dev[i], Context: ctxID[i],
			Stream: stream[i], CorrID: corr[i], GraphID: graph[i], HasGraph: graphValid.Valid(i) && gpidValid.Valid(i)})
	}
	return ops, nil
}

// traceRows joins the graph-trace rows of CUDA_GPU_GRAPH to the runtime on
// (correlationId, pid), in runtime order, as the plain join does for the
// other GPU rows.
func (g *graphData) traceRows() []GraphRow {
	by := map[[2]int64][]int{}
	for i := g.trace; i < len(g.ops); i++ {
		o := g.ops[i]
		k := [2]int64{o.CorrID, o.Pid}
		by[k] = append(by[k], i)
	}
	var out []GraphRow
	for _, c := range g.calls {
		for _, i := range by[[2]int64{c.CorrID, pidOf(c.GlobalTid)}] {
			out = append(out, GraphRow{Start: c.Start, End: c.End, GlobalTid: c.GlobalTid, CorrID: c.CorrID, Name: c.Name, Op: g.ops[i]})
		}
	}
	return out
}
