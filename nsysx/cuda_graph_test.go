package nsysx_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// CUDA graphs traced whole: train with its kernels made graph executions
// (sqlitecopy.GraphTraced), the layout of an nsys export made with
// --cuda-graph-trace=graph: no kernel table, the executions in
// CUPTI_ACTIVITY_KIND_GRAPH_TRACE.

func graphProfile(t *testing.T) (*nsysx.Profile, string) {
	t.Helper()
	path := sqlitecopy.GraphTraced(t, "train", t.TempDir(), "train_graphs.sqlite")
	return nsysxtest.Open(t, path), path
}

// The executions are GPU work: the idle time is the window minus the union
// of the graph executions and memory operations (checkSpan's exact check,
// the grid reading the graph-trace table itself), and the categories match
// the grid's. A graph execution waits on its cudaGraphLaunch call.
func TestIdleBreakdownGraphTrace(t *testing.T) {
	p, path := graphProfile(t)
	n := sqlitecopy.Int64(t, path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE")
	if n < 10 {
		t.Fatalf("%d graph executions in the fixture", n)
	}
	idle, g := checkGrid(t, p)
	all := idle.Devices[0].Spans[0]
	if busy := (all.End - all.Start) - all.Idle; busy < unionIn(g.ops, all.Start, all.End) || busy == 0 {
		t.Errorf("busy %d ns", busy)
	}
	if !strings.Contains(idle.Note, "traced as whole graphs") || !strings.Contains(idle.Note, "--cuda-graph-trace=node") ||
		!strings.Contains(idle.Note, " "+strconv.FormatInt(n, 10)+" graph executions") {
		t.Errorf("note %q", idle.Note)
	}
	launch := false
	for _, e := range all.Evidence() {
		launch = launch || e.Cat == nsysx.IdleLaunch && strings.Contains(e.Detail, "cudaGraphLaunch")
	}
	if !launch {
		t.Errorf("no launching time in cudaGraphLaunch: %+v", all.Evidence())
	}
}

// The report prints the note above its table; view=launch, which needs
// kernel rows, says why there are none; nsys's own reports are SKIPPED as
// nsys skips them.
func TestIdleBreakdownGraphReport(t *testing.T) {
	p, path := graphProfile(t)
	for _, spec := range []string{"gpu_idle_breakdown", "gpu_idle_breakdown:view=evidence"} {
		r, err := p.Stats(context.Background(), spec)
		if err != nil || r.Skipped != "" || r.Len() == 0 {
			t.Fatalf("%s: %v, skipped %q", spec, err, r.Skipped)
		}
		var b bytes.Buffer
		if err := format.Write(&b, r, format.Spec{Name: "column"}); err != nil {
			t.Fatal(err)
		}
		if out := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(out, "traced as whole graphs") ||
			!strings.Contains(out, "--cuda-graph-trace=node records one row per kernel") {
			t.Errorf("%s: no note on graphs in\n%s", spec, b.String())
		}
	}
	r, err := p.Stats(context.Background(), "gpu_idle_breakdown:view=launch")
	if err != nil || !strings.Contains(r.Skipped, "traced as whole CUDA graphs") || !strings.Contains(r.Skipped, "--cuda-graph-trace=node") ||
		strings.Contains(r.Skipped, "does not contain") {
		t.Errorf("view=launch: %v, skipped %q", err, r.Skipped)
	}
	r, err = p.Stats(context.Background(), "cuda_gpu_kern_sum")
	if err != nil || r.Skipped != path+" does not contain CUDA kernel data." {
		t.Errorf("cuda_gpu_kern_sum: %v, skipped %q", err, r.Skipped)
	}
}

// GraphExecs returns the table's rows, under a filter those that overlap
// the window, as SQLite counts them.
func TestGraphExecs(t *testing.T) {
	p, path := graphProfile(t)
	all, err := p.GraphExecs(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := sqlitecopy.Int64(t, path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE"); int64(len(all)) != n {
		t.Errorf("%d executions, want %d", len(all), n)
	}
	var sum int64
	for _, g := range all {
		sum += g.End - g.Start
		if g.GraphID < 1 || g.GraphID > 3 || g.GraphExecID != g.GraphID+100 || g.CorrelationID <= 0 || g.Device < 0 ||
			g.Name() != "CUDA graph "+strconv.FormatInt(g.GraphID, 10) {
			t.Fatalf("%+v, %q", g, g.Name())
		}
	}
	if want := sqlitecopy.Int64(t, path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE"); sum != want {
		t.Errorf("total %d ns, want %d", sum, want)
	}
	s := sqlitecopy.Int64(t, path, "SELECT start + (end - start) / 3 FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE LIMIT 1 OFFSET 20")
	e := sqlitecopy.Int64(t, path, "SELECT end FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE LIMIT 1 OFFSET 60")
	f, err := nsysx.ParseTimeFilter(strconv.FormatInt(s, 10) + "/" + strconv.FormatInt(e, 10))
	if err != nil {
		t.Fatal(err)
	}
	cut, err := p.GraphExecs(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	want := sqlitecopy.Int64(t, path, `SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE
		WHERE start >= ?1 AND start < ?2 OR end >= ?1 AND end < ?2 OR start < ?1 AND end >= ?2`,
		strconv.FormatInt(s, 10), strconv.FormatInt(e, 10))
	if int64(len(cut)) != want || want < 40 {
		t.Errorf("filtered: %d executions, want %d", len(cut), want)
	}
	if g := (nsysx.GraphExec{GraphID: -1, CorrelationID: 12}); g.Name() != "CUDA graph (launch 12)" {
		t.Errorf("name without a graph id: %q", g.Name())
	}
}

// A node-level trace whose export names graphs only in the graph tables
// (sqlitecopy.GraphNodeTraced): every node, and the node it was made from,
// maps to the graph instantiated in the call that created it; the launch
// statistics sum each kernel name per graph, as many kernels per graph as
// the kernel table has for its nodes; the idle breakdown counts the kernels
// as usual and has no note.
func TestGraphNodesAttribution(t *testing.T) {
	path := sqlitecopy.GraphNodeTraced(t, "train", t.TempDir(), "train_nodes.sqlite")
	p := nsysxtest.Open(t, path)
	nodes, err := p.GraphNodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2*3*sqlitecopy.GraphSize {
		t.Errorf("%d nodes mapped, want %d", len(nodes), 2*3*sqlitecopy.GraphSize)
	}
	for n, g := range nodes {
		if n%1000 >= sqlitecopy.GraphSize || (n%500000)/1000 != g {
			t.Errorf("node %d in graph %d", n, g)
		}
	}
	if nodes.Graph(1001, 9) != 9 || nodes.Graph(-1, -1) != -1 || nodes.Graph(77, -1) != -1 {
		t.Error("Graph: a kernel's own graph id wins, unknown nodes are -1")
	}
	stats, err := p.LaunchStats(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int64{}
	for _, s := range stats {
		_, g, ok := strings.Cut(s.Name, " [CUDA graph ")
		if !ok || !strings.HasSuffix(g, "]") || s.Launched != s.Instances {
			t.Fatalf("%+v: not attributed to a graph, or its launch call not found", s)
		}
		per[strings.TrimSuffix(g, "]")] += s.Instances
	}
	for g := 1; g <= 3; g++ {
		want := sqlitecopy.Int64(t, path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId / 1000 = CAST(? AS INTEGER)", strconv.Itoa(g))
		if per[strconv.Itoa(g)] != want || want == 0 {
			t.Errorf("graph %d: %d kernels, want %d", g, per[strconv.Itoa(g)], want)
		}
	}
	if idle, _ := checkGrid(t, p); idle.Note != "" {
		t.Errorf("note %q", idle.Note)
	}
}
