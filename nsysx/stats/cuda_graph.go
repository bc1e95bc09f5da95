package stats

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// CUDA graphs, for the analyses that count GPU work (the idle breakdown,
// the GPU charts, the timeline): the one place they read nsys's graph
// tables. With nsys's default --cuda-graph-trace=graph, the kernels inside
// a graph have no kernel rows; each execution of the graph is one row of
// the graph-trace table, on the stream it was launched into, with the
// correlation id of its launch call (cudaGraphLaunch). With
// --cuda-graph-trace=node, each kernel of a graph has its row, whose
// graphNodeId (and graphId, in newer exports) names the node (the graph)
// it ran for. See docs/cuda-graphs.md.

const tGraphTrace = events.TableGraphTrace

// GraphExec is one execution of a CUDA graph traced whole (nsys profile
// --cuda-graph-trace=graph). Unknown values (a NULL cell or a column the
// export lacks) read as -1.
type GraphExec struct {
	Start, End    int64
	GlobalPid     int64
	Device        int64
	Context       int64
	Stream        int64
	CorrelationID int64 // of the launch call (cudaGraphLaunch)
	GraphID       int64
	GraphExecID   int64
}

// Name is how the analyses name an execution: GraphName of its graph id
// and launch.
func (g GraphExec) Name() string { return GraphName(g.GraphID, g.CorrelationID) }

// GraphName names a CUDA graph: "CUDA graph 7" by its graph id; without
// one (-1), by its launch, "CUDA graph (launch 1234)" (the correlation id
// of its cudaGraphLaunch call); without either, "CUDA graph".
func GraphName(graphID, launch int64) string {
	switch {
	case graphID >= 0:
		return fmt.Sprintf("CUDA graph %d", graphID)
	case launch >= 0:
		return fmt.Sprintf("CUDA graph (launch %d)", launch)
	}
	return "CUDA graph"
}

// GraphExecs reads the executions of CUDA graphs traced whole, in table
// order, under f (nil: all of them; a filter keeps an execution as it
// keeps a kernel). A profile traced without graphs, or with
// --cuda-graph-trace=node, has none. Rows with a NULL start or end are
// left out.
func GraphExecs(ctx context.Context, p *model.Profile, f *Filter) ([]GraphExec, error) {
	if ctx == nil {
		return nil, report.ErrNilContext
	}
	c := report.NewCtx(ctx, p, nil, nil, f)
	if f != nil {
		if _, err := f.Resolve(ctx, p); err != nil {
			return nil, err
		}
	}
	g, err := graphExecs(c)
	return report.Finish(c, g, err)
}

// graphExecs is GraphExecs under the report's filter.
func graphExecs(c *Ctx) ([]GraphExec, error) {
	if !c.Has(tGraphTrace) {
		return nil, nil
	}
	opt := []string{"globalPid", "deviceId", "contextId", "streamId", "correlationId", "graphId", "graphExecId"}
	cols := []string{"start", "end"}
	for _, col := range opt {
		if c.P.HasColumn(tGraphTrace, col) {
			cols = append(cols, col)
		}
	}
	t, err := graphTraces(c).Load(cols...)
	if err != nil {
		return nil, err
	}
	get := make([]*Column, len(opt))
	for i, col := range opt {
		get[i] = t.Col(col)
	}
	val := func(col *Column, i int) int64 {
		if col == nil || col.IsNull(i) {
			return -1
		}
		return col.Int(i)
	}
	st, en := t.Col("start"), t.Col("end")
	out := make([]GraphExec, 0, t.N)
	for i := 0; i < t.N; i++ {
		if st.IsNull(i) || en.IsNull(i) {
			continue
		}
		out = append(out, GraphExec{Start: st.Int(i), End: en.Int(i), GlobalPid: val(get[0], i), Device: val(get[1], i),
			Context: val(get[2], i), Stream: val(get[3], i), CorrelationID: val(get[4], i), GraphID: val(get[5], i),
			GraphExecID: val(get[6], i)})
	}
	return out, nil
}

// GraphTraceNote is what the analyses say about a profile whose CUDA graphs
// were traced whole (n executions): they count as GPU work, and where to
// get per-kernel rows.
func GraphTraceNote(n int) string {
	return fmt.Sprintf("Kernels inside CUDA graphs were traced as whole graphs (nsys profile --cuda-graph-trace=graph, the default): "+
		"each of the %d graph executions counts as GPU work, without rows for its kernels; "+
		"nsys profile --cuda-graph-trace=node records one row per kernel.", n)
}

// Node-level traces (nsys profile --cuda-graph-trace=node): each kernel of
// a graph has its row, with the graphNodeId of the node it ran for (and,
// in newer exports, the graphId of its graph). Older exports name the
// graph only through the graph tables: CUDA_GRAPH_EVENTS records a
// graph's creation and its instantiation (graphId), CUDA_GRAPH_NODE_EVENTS
// each node's creation (graphNodeId; originalGraphNodeId for the node an
// instantiation or a clone made of another). As nsys's recipes join them
// (docs/recipes.md §1.9), an event belongs to the latest CUDA API call its
// thread started at or before it; the nodes created in the call that
// created or instantiated a graph are that graph's, and so are the nodes
// they were made from (docs/cuda-graphs.md §2).

const (
	tGraphNodeEvents = events.TableCUDAGraphNodeEvents
	tGraphEvents     = events.TableCUDAGraphEvents
)

// GraphNodes maps graph node ids to the id of their graph.
type GraphNodes map[int64]int64

// Graph is the graph id of a kernel that ran for node (NULL: -1, not in a
// graph): graphID when the kernel row has one (≥ 0), else the node's graph
// in m, else -1.
func (m GraphNodes) Graph(node, graphID int64) int64 {
	if graphID >= 0 || node < 0 {
		return graphID
	}
	if g, ok := m[node]; ok {
		return g
	}
	return -1
}

// GraphNodes reads which graph each node of a node-level trace belongs to,
// from the graph tables (see above); empty when the profile lacks them.
func GraphNodesOf(ctx context.Context, p *model.Profile) (GraphNodes, error) {
	if ctx == nil {
		return nil, report.ErrNilContext
	}
	c := report.NewCtx(ctx, p, nil, nil, nil)
	m, err := graphNodes(c)
	return report.Finish(c, m, err)
}

func graphNodes(c *Ctx) (GraphNodes, error) {
	out := GraphNodes{}
	for _, tc := range [][2]string{{tGraphNodeEvents, "graphNodeId"}, {tGraphEvents, "graphId"}, {tRuntime, "correlationId"}} {
		for _, col := range []string{"start", "globalTid", tc[1]} {
			if !c.P.HasColumn(tc[0], col) {
				return out, nil
			}
		}
	}
	rt, err := c.LoadRaw(tRuntime, "start", "globalTid")
	if err != nil {
		return nil, err
	}
	calls := map[int64][]int64{} // globalTid -> call starts, sorted
	rs, rg := rt.Col("start"), rt.Col("globalTid")
	for i := 0; i < rt.N; i++ {
		if !rs.IsNull(i) && !rg.IsNull(i) {
			calls[rg.Int(i)] = append(calls[rg.Int(i)], rs.Int(i))
		}
	}
	for _, v := range calls {
		slices.Sort(v)
	}
	// call is the key of the latest call of thread g started at or before
	// t: (g, its start); ok false when none.
	call := func(t, g int64) ([2]int64, bool) {
		v := calls[g]
		i := sort.Search(len(v), func(i int) bool { return v[i] > t })
		if i == 0 {
			return [2]int64{}, false
		}
		return [2]int64{g, v[i-1]}, true
	}
	ge, err := c.LoadRaw(tGraphEvents, "start", "globalTid", "graphId")
	if err != nil {
		return nil, err
	}
	graphOf := map[[2]int64]int64{} // call -> the graph it created or instantiated (the last event's)
	gs, gg, gid := ge.Col("start"), ge.Col("globalTid"), ge.Col("graphId")
	for i := 0; i < ge.N; i++ {
		if gs.IsNull(i) || gg.IsNull(i) || gid.IsNull(i) {
			continue
		}
		if k, ok := call(gs.Int(i), gg.Int(i)); ok {
			graphOf[k] = gid.Int(i)
		}
	}
	cols := []string{"start", "globalTid", "graphNodeId"}
	hasOrig := c.P.HasColumn(tGraphNodeEvents, "originalGraphNodeId")
	if hasOrig {
		cols = append(cols, "originalGraphNodeId")
	}
	ne, err := c.LoadRaw(tGraphNodeEvents, cols...)
	if err != nil {
		return nil, err
	}
	ns, ng, nid, orig := ne.Col("start"), ne.Col("globalTid"), ne.Col("graphNodeId"), ne.Col("originalGraphNodeId")
	for i := 0; i < ne.N; i++ {
		if ns.IsNull(i) || ng.IsNull(i) || nid.IsNull(i) {
			continue
		}
		k, ok := call(ns.Int(i), ng.Int(i))
		if !ok {
			continue
		}
		if g, ok := graphOf[k]; ok {
			out[nid.Int(i)] = g
			if hasOrig && !orig.IsNull(i) {
				if _, known := out[orig.Int(i)]; !known {
					out[orig.Int(i)] = g
				}
			}
		}
	}
	return out, nil
}

// kernelGraphs tells, for each row of the kernel table as c.Load gives it,
// whether its kernel ran in a CUDA graph (a node-level trace: graphNodeId
// not NULL) and the graph's id (-1 when unknown); nil when the export has
// no graphNodeId column.
func kernelGraphs(c *Ctx) (func(i int) (graph int64, in bool), error) {
	if !c.P.HasColumn(tKernel, "graphNodeId") {
		return nil, nil
	}
	cols := []string{"graphNodeId"}
	if c.P.HasColumn(tKernel, "graphId") {
		cols = append(cols, "graphId")
	}
	t, err := kernels(c).Load(cols...)
	if err != nil {
		return nil, err
	}
	nodes, err := graphNodes(c)
	if err != nil {
		return nil, err
	}
	node, gid := t.Col("graphNodeId"), t.Col("graphId")
	return func(i int) (int64, bool) {
		if node.IsNull(i) {
			return -1, false
		}
		g := int64(-1)
		if gid != nil && !gid.IsNull(i) {
			g = gid.Int(i)
		}
		return nodes.Graph(node.Int(i), g), true
	}, nil
}
