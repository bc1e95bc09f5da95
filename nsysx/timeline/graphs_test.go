package timeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
)

// A profile whose CUDA graphs were traced whole (train with its kernels
// made graph executions, sqlitecopy.GraphTraced): each execution is a
// complete event on its stream's track, named by its graph id, with a flow
// from its cudaGraphLaunch call; counts and the first execution's fields
// are checked against the raw table. The same on a real capture traced
// whole (testdata/workloads/advise/graph.py, H100, nsys 2025.3.1).
func TestPerfettoGraphTrace(t *testing.T) {
	t.Run("synthetic", func(t *testing.T) {
		checkGraphTrace(t, sqlitecopy.GraphTraced(t, "train", t.TempDir(), "train_graphs.sqlite"))
	})
	t.Run("real", func(t *testing.T) { checkGraphTrace(t, testutil.Profile(t, "advise/graph")) })
}

func checkGraphTrace(t *testing.T, path string) {
	p := nsysxtest.Open(t, path)
	const table = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
	tr, st := export(t, p, nil)
	got := checkWellFormed(t, tr)
	n, kernels := rawCount(t, p, table), 0
	if p.HasTable("CUPTI_ACTIVITY_KIND_KERNEL") { // the real capture's kernels outside the graph
		kernels = rawCount(t, p, "CUPTI_ACTIVITY_KIND_KERNEL")
	}
	if n < 10 || got["cuda_graph"] != n || st.Count(KindGraph) != n || got["kernel"] != kernels {
		t.Errorf("%d graph executions in the trace (stats %d, kernels %d), %d in the table", got["cuda_graph"], st.Count(KindGraph), got["kernel"], n)
	}
	if !strings.Contains(st.Summary(), strconv.Itoa(n)+" CUDA graph executions") {
		t.Errorf("summary %q", st.Summary())
	}

	// flows: every GPU row whose (process, correlationId) is a call's
	rt, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid", "correlationId", "nameId")
	if err != nil {
		t.Fatal(err)
	}
	calls := map[[2]int64]string{}
	for i := 0; i < rt.N; i++ {
		name, _ := p.String(context.Background(), rt.Col("nameId").Int(i))
		calls[[2]int64{rt.Col("globalTid").Int(i) >> 24, rt.Col("correlationId").Int(i)}] = name
	}
	flows := 0
	for _, tb := range []string{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", table} {
		if !p.HasTable(tb) {
			continue
		}
		g, err := p.Load(context.Background(), tb, "globalPid", "correlationId")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < g.N; i++ {
			name, ok := calls[[2]int64{g.Col("globalPid").Int(i) >> 24, g.Col("correlationId").Int(i)}]
			if ok {
				flows++
			}
			if tb == table && (!ok || !strings.HasPrefix(name, "cudaGraphLaunch")) {
				t.Fatalf("graph execution %d: launch call %q", i, name)
			}
		}
	}
	if got["flow"] != flows || st.Flows != flows {
		t.Errorf("%d flows (stats %d), %d in the raw tables", got["flow"], st.Flows, flows)
	}

	g, err := p.Load(context.Background(), table, "start", "end", "streamId", "graphId", "correlationId")
	if err != nil {
		t.Fatal(err)
	}
	streams := map[[2]int64]string{}
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && *e.Name == "thread_name" {
			streams[[2]int64{*e.Pid, *e.Tid}] = e.Args["name"].(string)
		}
	}
	for _, e := range tr.TraceEvents {
		if e.Ph != "X" || *e.Cat != "cuda_graph" || ns(t, e.Ts) != g.Col("start").Int(0) {
			continue
		}
		if ns(t, e.Dur) != g.Col("end").Int(0)-g.Col("start").Int(0) || *e.Name != "CUDA graph "+strconv.FormatInt(g.Col("graphId").Int(0), 10) ||
			fmt.Sprint(e.Args["correlationId"]) != strconv.FormatInt(g.Col("correlationId").Int(0), 10) {
			t.Errorf("first execution: %s dur %s args %v", *e.Name, *e.Dur, e.Args)
		}
		if want := "Stream " + strconv.FormatInt(g.Col("streamId").Int(0), 10); streams[[2]int64{*e.Pid, *e.Tid}] != want {
			t.Errorf("first execution on track %q, want %q", streams[[2]int64{*e.Pid, *e.Tid}], want)
		}
		v := newView(t, p, nil)
		if !strings.Contains(v.Text(), "CUDA graph executions") {
			t.Errorf("view text %q", v.Text())
		}
		return
	}
	t.Fatal("the first graph execution is not in the trace")
}

// In a node-level trace (sqlitecopy.GraphNodeTraced), each kernel that ran
// in a graph carries its node and its graph, found through the graph tables:
// the graph is the node id's thousands.
func TestPerfettoGraphNodes(t *testing.T) {
	p := nsysxtest.Open(t, sqlitecopy.GraphNodeTraced(t, "train", t.TempDir(), "train_nodes.sqlite"))
	tr, _ := export(t, p, nil)
	got := checkWellFormed(t, tr)
	n := 0
	for _, e := range tr.TraceEvents {
		if e.Ph != "X" || *e.Cat != "kernel" {
			continue
		}
		node, err := strconv.ParseInt(fmt.Sprint(e.Args["graphNodeId"]), 10, 64)
		if err != nil {
			t.Fatalf("kernel %s without graphNodeId: %v", *e.Name, e.Args)
		}
		g := strconv.FormatInt(node/1000, 10)
		if fmt.Sprint(e.Args["graphId"]) != g || e.Args["graph"] != "CUDA graph "+g {
			t.Fatalf("kernel of node %d: args %v", node, e.Args)
		}
		n++
	}
	if want := rawCount(t, p, "CUPTI_ACTIVITY_KIND_KERNEL"); n != want || got["kernel"] != want {
		t.Errorf("%d kernels attributed, %d in the table", n, want)
	}
}
