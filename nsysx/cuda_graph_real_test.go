package nsysx_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx/format"
)

// Real captures of one CUDA-graph workload (testdata/workloads/advise/graph.py:
// 400 tiny kernels and two GEMMs replayed as one graph per step, the host
// never waiting until the end) with --cuda-graph-trace=graph and =node, on
// an H100 with nsys 2025.3.1.

// Both captures: the idle breakdown matches the grid (the window minus the
// union of operations, graph executions included, exactly); nothing says
// the profile lacks CUDA work; the graph-level one says why it has no
// kernel rows.
func TestRealGraphCaptures(t *testing.T) {
	busy := map[string]float64{}
	opTable := map[string]string{"graph": "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "graph_node": "CUPTI_ACTIVITY_KIND_KERNEL"}
	for _, name := range []string{"graph", "graph_node"} {
		path := testutil.Profile(t, "advise/"+name)
		p := nsysxtest.Open(t, path)
		idle, _ := checkGrid(t, p)
		spans := idle.Devices[0].Spans[1:]
		if len(spans) != 30 {
			t.Fatalf("%s: %d iterations, want graph.py's 30 steps", name, len(spans))
		}
		var b, span int64
		for _, sp := range spans {
			b += sp.End - sp.Start - sp.Idle
			span += sp.End - sp.Start
		}
		busy[name] = 100 * float64(b) / float64(span)
		res, err := p.Run(context.Background(), "gpu_idle_breakdown", nil)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := format.Write(&out, res, format.Spec{Name: "column"}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "does not contain") {
			t.Errorf("%s: %s", name, out.String())
		}
		hasNote := strings.Contains(idle.Note, "--cuda-graph-trace=node")
		if hasNote != (name == "graph") {
			t.Errorf("%s: note %q", name, idle.Note)
		}
		// The steps' windows hold the GPU work launched in them: the busy
		// time of the steps is the GPU work the steps launched, by SQL.
		launched := sqlitecopy.Int64(t, path, `WITH st AS (SELECT start s, "end" e FROM NVTX_EVENTS WHERE text = 'step')
			SELECT sum(o."end" - o.start) FROM `+opTable[name]+` o JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = o.correlationId
			JOIN st ON r.start >= st.s AND r.start < st.e`)
		if name == "graph" && math.Abs(float64(b-launched)) > 0.001*float64(launched) {
			t.Errorf("%s: steps busy %d ns, their graph executions %d ns", name, b, launched)
		}
		if name == "graph_node" && b > launched { // kernels of one graph may overlap
			t.Errorf("%s: steps busy %d ns, more than their kernels' %d ns", name, b, launched)
		}
		t.Logf("%s: steps busy %.1f%% of %d ns", name, busy[name], span)
	}
	if d := math.Abs(busy["graph"] - busy["graph_node"]); d > 5 {
		t.Errorf("busy share of the steps: graph-level %.1f%%, node-level %.1f%%", busy["graph"], busy["graph_node"])
	}
}

// The node-level capture: every kernel the graph ran is attributed to a
// graph (the launch statistics add " [CUDA graph]" to its name: this export
// has CUDA_GRAPH_NODE_EVENTS but no CUDA_GRAPH_EVENTS, so which graph is
// unknown), as many as the kernel rows with a graph node id.
func TestRealGraphNodeAttribution(t *testing.T) {
	path := testutil.Profile(t, "advise/graph_node")
	p := nsysxtest.Open(t, path)
	stats, err := p.LaunchStats(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var inGraph int64
	for _, s := range stats {
		if strings.HasSuffix(s.Name, " [CUDA graph]") {
			inGraph += s.Instances
		}
	}
	want := sqlitecopy.Int64(t, path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL")
	if inGraph != want || want < 30*400 {
		t.Errorf("%d kernels attributed to a graph, want %d", inGraph, want)
	}
}
