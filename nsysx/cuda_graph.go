package nsysx

import (
	"context"
	"fmt"
)

// CUDA graphs, for the analyses that count GPU work (the idle breakdown,
// the GPU charts, the timeline): the one place they read nsys's graph
// tables. With nsys's default --cuda-graph-trace=graph, the kernels inside
// a graph have no kernel rows; each execution of the graph is one row of
// the graph-trace table, on the stream it was launched into, with the
// correlation id of its launch call (cudaGraphLaunch). With
// --cuda-graph-trace=node, each kernel of a graph has its row, whose
// graphNodeId (and graphId, in newer exports) names the node (the graph)
// it ran for. See docs/idle.md, "CUDA graphs".

const tGraphTrace = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"

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

// Name is how the analyses name an execution: "CUDA graph 7", or, without
// a graph id, by its launch: "CUDA graph (launch 1234)" (the correlation
// id of its cudaGraphLaunch call).
func (g GraphExec) Name() string {
	switch {
	case g.GraphID >= 0:
		return fmt.Sprintf("CUDA graph %d", g.GraphID)
	case g.CorrelationID >= 0:
		return fmt.Sprintf("CUDA graph (launch %d)", g.CorrelationID)
	}
	return "CUDA graph"
}

// GraphExecs reads the executions of CUDA graphs traced whole, in table
// order, under f (nil: all of them; a filter keeps an execution as it
// keeps a kernel). A profile traced without graphs, or with
// --cuda-graph-trace=node, has none. Rows with a NULL start or end are
// left out.
func (p *Profile) GraphExecs(ctx context.Context, f *Filter) ([]GraphExec, error) {
	if ctx == nil {
		return nil, errNilContext
	}
	c := &Ctx{Context: ctx, P: p, opts: map[string]string{}, Filter: f}
	if f != nil {
		if _, err := f.Resolve(ctx, p); err != nil {
			return nil, err
		}
	}
	g, err := c.graphExecs()
	return finish(c, g, err)
}

// graphExecs is GraphExecs under the report's filter.
func (c *Ctx) graphExecs() ([]GraphExec, error) {
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
	t, err := c.Load(tGraphTrace, cols...)
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
