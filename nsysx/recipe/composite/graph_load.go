package composite

import (
	"context"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// CUDA graph tables (docs/recipes.md §1.9).
const (
	TableGraphNodeEvents = events.TableCUDAGraphNodeEvents
	TableGraphEvents     = events.TableCUDAGraphEvents
	TableGraphTrace      = events.TableGraphTrace
)

// graphData is what the CUDA graph joins read from one report.
type graphData struct {
	Calls  []GraphCall
	Nodes  []GraphNodeEvent
	Graphs []GraphEvent
	Ops    []GraphOp // CUDA_GPU_GRAPH: the GPU composite, then graph-trace rows
	trace  int       // index of the first graph-trace row in ops
}

// LoadGraphData reads the graph tables; a report with none of them (every
// fixture) gives nil.
func LoadGraphData(ctx context.Context, p *nsysx.Profile, gpu *GPU) (*graphData, error) {
	if !p.HasTable(TableGraphNodeEvents) && !p.HasTable(TableGraphEvents) && !p.HasTable(TableGraphTrace) {
		return nil, nil
	}
	g := &graphData{}
	var err error
	if g.Calls, err = loadGraphCalls(ctx, p); err != nil {
		return nil, err
	}
	if g.Ops, err = loadGraphOps(ctx, p, gpu); err != nil {
		return nil, err
	}
	g.trace = gpu.Len()
	t, err := LoadTable(ctx, p, TableGraphNodeEvents, []string{"start", "graphNodeId"}, []string{"end", "globalTid", "originalGraphNodeId"})
	if err != nil {
		return nil, err
	}
	start, end, tid, _ := eventCols(t)
	node, nodeValid := Ints(t, "graphNodeId")
	orig, origValid := Ints(t, "originalGraphNodeId")
	for i := range start {
		if nodeValid.Valid(i) {
			g.Nodes = append(g.Nodes, GraphNodeEvent{Start: start[i], End: end[i], GlobalTid: tid[i],
				NodeID: node[i], Orig: orig[i], HasOrig: origValid.Valid(i)})
		}
	}
	if t, err = LoadTable(ctx, p, TableGraphEvents, []string{"start", "graphId"}, []string{"end", "globalTid"}); err != nil {
		return nil, err
	}
	start, end, tid, _ = eventCols(t)
	graph, graphValid := Ints(t, "graphId")
	for i := range start {
		if graphValid.Valid(i) {
			g.Graphs = append(g.Graphs, GraphEvent{Start: start[i], End: end[i], GlobalTid: tid[i], GraphID: graph[i]})
		}
	}
	return g, nil
}

// loadGraphCalls reads the runtime calls with their names.
func loadGraphCalls(ctx context.Context, p *nsysx.Profile) ([]GraphCall, error) {
	rt, err := loadRuntimeCalls(ctx, p)
	if err != nil {
		return nil, err
	}
	var out []GraphCall
	for i := range rt.start {
		if rt.joinable(i) {
			out = append(out, GraphCall{Start: rt.start[i], End: rt.end[i], GlobalTid: rt.gtid[i], CorrID: rt.corr[i], Name: rt.name[i]})
		}
	}
	return out, nil
}

// loadGraphOps is CUDA_GPU_GRAPH: the GPU composite's rows with their
// graphNodeId, then the graph-trace rows with their graphId.
func loadGraphOps(ctx context.Context, p *nsysx.Profile, gpu *GPU) ([]GraphOp, error) {
	var nodeIDs [3][]int64
	var nodeValid [3]pyframe.Mask
	for kind, table := range []string{TableKernel, TableMemcpy, TableMemset} {
		t, err := LoadTable(ctx, p, table, []string{"start"}, []string{"graphNodeId"})
		if err != nil {
			return nil, err
		}
		nodeIDs[kind], nodeValid[kind] = Ints(t, "graphNodeId")
	}
	t, err := LoadTable(ctx, p, TableGraphTrace, []string{"start", "end"},
		[]string{"deviceId", "contextId", "streamId", "correlationId", "globalPid", "graphId"})
	if err != nil {
		return nil, err
	}
	trace := &GPU{} // the graph-trace rows have the GPU composite's columns
	trace.add(t, GPUKernel)
	trace.PID = Derive(trace.GlobalPid, PidOf)
	graph, graphValid := Ints(t, "graphId")
	ops := make([]GraphOp, 0, gpu.Len()+trace.Len())
	for i := 0; i < gpu.Len(); i++ {
		k, r := gpu.Kind[i], gpu.Row[i]
		op := gpu.graphOp(i)
		op.NodeID, op.HasNode = nodeIDs[k][r], nodeValid[k].Valid(r) && gpu.GlobalPidValid.Valid(i)
		ops = append(ops, op)
	}
	for i := 0; i < trace.Len(); i++ {
		op := trace.graphOp(i)
		op.GraphID, op.HasGraph = graph[i], graphValid.Valid(i) && trace.GlobalPidValid.Valid(i)
		ops = append(ops, op)
	}
	return ops, nil
}

// graphOp is GPU row i as a CUDA_GPU_GRAPH row, without its graph keys.
func (g *GPU) graphOp(i int) GraphOp {
	return GraphOp{Start: g.Start[i], End: g.End[i], Pid: g.PID[i], Device: g.DeviceID[i],
		Context: g.ContextID[i], Stream: g.StreamID[i], CorrID: g.CorrelationID[i]}
}

// TraceRows joins the graph-trace rows of CUDA_GPU_GRAPH to the runtime on
// (correlationId, pid), in runtime order, as the plain join does for the
// other GPU rows.
func (g *graphData) TraceRows() []GraphRow {
	by := map[[2]int64][]int{}
	for i := g.trace; i < len(g.Ops); i++ {
		o := g.Ops[i]
		k := [2]int64{o.CorrID, o.Pid}
		by[k] = append(by[k], i)
	}
	var out []GraphRow
	for _, c := range g.Calls {
		for _, i := range by[[2]int64{c.CorrID, PidOf(c.GlobalTid)}] {
			out = append(out, GraphRow{Start: c.Start, End: c.End, GlobalTid: c.GlobalTid, CorrID: c.CorrID, Name: c.Name, Op: g.Ops[i]})
		}
	}
	return out
}
