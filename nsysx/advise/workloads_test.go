package advise_test

import (
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/advise"
)

// The injected workloads of testdata/workloads/advise: the first finding
// names the injected problem, and its share of the steps is within 15 %
// of the injected time's share, computed from the profile's rows by SQL.
func TestInjectedWorkloads(t *testing.T) {
	const sleep = 20e6 // host_stall.py's --sleep, ns
	for _, c := range []struct {
		name string
		want advise.Category
		// injected is the injected problem's time in the steps, ns
		injected func(t *testing.T, path string) float64
	}{
		{"host_stall", advise.HostStall, func(t *testing.T, path string) float64 {
			return sleep * query(t, path, iterSQL("step")+`SELECT count(*) FROM it`)
		}},
		{"launch_bound", advise.LaunchBound, func(t *testing.T, path string) float64 {
			// one stream: the steps' time without a kernel running
			return span(t, path, "step") - kernelsIn(t, path, "step")
		}},
		{"pageable_sync", advise.PageableMemcpy, func(t *testing.T, path string) float64 {
			// the batch copies' calls (the .item() copies of 4 bytes wait
			// for the step's kernels: they are not the injected copy)
			return query(t, path, iterSQL("step")+`SELECT sum(r."end" - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r
				JOIN CUPTI_ACTIVITY_KIND_MEMCPY m ON m.correlationId = r.correlationId
				JOIN it ON r.start >= it.s AND r.start < it.e WHERE m.bytes > 1000000`)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := testutil.Profile(t, "advise/"+c.name)
			a := run(t, path)
			top := a.Top()
			want := c.injected(t, path) / span(t, path, "step") * 100
			t.Logf("%s: first %s %.1f%% of %s; injected %.1f%%", c.name, top.Category, top.Share, a.Scope, want)
			if top.Category != c.want {
				t.Fatalf("first finding %s (%.1f%%), want %s", top.Category, top.Share, c.want)
			}
			if !within(top.Share, want, 0.15) {
				t.Errorf("%s share %.1f%%, injected %.1f%%", c.want, top.Share, want)
			}
		})
	}
}

// The healthy GEMM loop: gpu_bound first, nothing else above 3 %.
func TestHealthyWorkload(t *testing.T) {
	a := run(t, testutil.Profile(t, "advise/healthy"))
	if a.Top().Category != advise.GPUBound {
		t.Fatalf("first finding %s, want gpu_bound", a.Top().Category)
	}
	for _, f := range a.Findings[1:] {
		if f.Share > 3 {
			t.Errorf("%s has %.1f%% of the steps at stake", f.Category, f.Share)
		}
	}
}

// The workload captured without CUDA tracing is untraced.
func TestUntracedWorkload(t *testing.T) {
	a := run(t, testutil.Profile(t, "advise/host_stall_nocuda"))
	if len(a.Findings) != 1 || a.Top().Category != advise.Untraced {
		t.Errorf("findings %+v, want one untraced", a.Findings)
	}
}

// The CUDA-graph step (node-level trace) replays launch_bound's tiny
// kernels from a graph: the launch gaps are gone.
func TestGraphWorkload(t *testing.T) {
	g := run(t, testutil.Profile(t, "advise/graph_node"))
	l := run(t, testutil.Profile(t, "advise/launch_bound"))
	if g.Top().Category == advise.LaunchBound {
		t.Fatalf("graph step: first finding launch_bound (%.1f%%)", g.Top().Share)
	}
	if f := g.Find(advise.LaunchBound); f != nil && f.Share > l.Top().Share/2 {
		t.Errorf("graph step launch_bound %.1f%%, launch_bound workload %.1f%%", f.Share, l.Top().Share)
	}
}

// The same CUDA-graph step traced whole (--cuda-graph-trace=graph, nsys's
// default): no kernel rows, yet the executions are the GPU's work, so
// gpu_bound comes first as in the node-level capture, its share within 5
// points of it, and its evidence names the graph.
func TestGraphLevelWorkload(t *testing.T) {
	g := run(t, testutil.Profile(t, "advise/graph"))
	n := run(t, testutil.Profile(t, "advise/graph_node"))
	if g.Top().Category != advise.GPUBound || n.Top().Category != advise.GPUBound {
		t.Fatalf("first findings: graph-level %s, node-level %s; want gpu_bound", g.Top().Category, n.Top().Category)
	}
	if d := g.Top().Share - n.Top().Share; d > 5 || d < -5 {
		t.Errorf("gpu_bound: graph-level %.1f%%, node-level %.1f%%", g.Top().Share, n.Top().Share)
	}
	if !strings.Contains(g.Top().Evidence, "CUDA graph") {
		t.Errorf("evidence %q does not name the graph", g.Top().Evidence)
	}
}
