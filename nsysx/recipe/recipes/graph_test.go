package recipes

import (
	"reflect"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// A hand-made graph capture on one thread (pid 1): two kernel nodes are
// added (100, 101), the graph is instantiated (executable nodes 200, 201),
// one executable node's parameters are set (an event with original 101),
// and the graph is launched (graph 7).
func graphCase() ([]composite.GraphCall, []composite.GraphNodeEvent, []composite.GraphEvent, []composite.GraphOp) {
	const tid = 1<<24 | 9
	calls := []composite.GraphCall{
		{Start: 10, End: 15, GlobalTid: tid, CorrID: 1, Name: "cudaGraphAddKernelNode_v10000"},
		{Start: 20, End: 25, GlobalTid: tid, CorrID: 2, Name: "cudaGraphAddKernelNode_v10000"},
		{Start: 30, End: 38, GlobalTid: tid, CorrID: 3, Name: "cudaGraphInstantiate_v10000"},
		{Start: 39, End: 40, GlobalTid: tid, CorrID: 4, Name: "cudaGraphExecKernelNodeSetParams_v10000"},
		{Start: 41, End: 45, GlobalTid: tid, CorrID: 5, Name: "cudaGraphLaunch_v10000"},
		{Start: 0, End: 100, GlobalTid: 2<<24 | 1, CorrID: 9, Name: "other thread"},
	}
	nodes := []composite.GraphNodeEvent{
		{Start: 11, End: 12, GlobalTid: tid, NodeID: 100},
		{Start: 5, End: 6, GlobalTid: tid, NodeID: 150},   // before any call on its thread: dropped
		{Start: 13, End: 14, GlobalTid: tid, NodeID: 100}, // the last row of node 100 wins
		{Start: 21, End: 22, GlobalTid: tid, NodeID: 101},
		{Start: 31, End: 31, GlobalTid: tid, NodeID: 200, Orig: 100, HasOrig: true},
		{Start: 32, End: 32, GlobalTid: tid, NodeID: 201, Orig: 101, HasOrig: true},
		{Start: 39, End: 39, GlobalTid: tid, NodeID: 300, Orig: 101, HasOrig: true}, // remapped to 201
		{Start: 40, End: 40, GlobalTid: tid, NodeID: 301, Orig: 555, HasOrig: true}, // unknown original: dropped
	}
	graphs := []composite.GraphEvent{
		{Start: 42, End: 43, GlobalTid: tid, GraphID: 7},
		{Start: 44, End: 44, GlobalTid: tid, GraphID: 8}, // same call as the one above: the last wins
	}
	ops := []composite.GraphOp{
		{Start: 1000, End: 1100, Pid: 1, Stream: 3, CorrID: 5, NodeID: 200, HasNode: true},
		{Start: 1100, End: 1200, Pid: 1, Stream: 3, CorrID: 5, NodeID: 201, HasNode: true},
		{Start: 1000, End: 1200, Pid: 1, Stream: 3, CorrID: 5, GraphID: 8, HasGraph: true},
		{Start: 1000, End: 1200, Pid: 1, Stream: 3, CorrID: 5, GraphID: 7, HasGraph: true},
		{Start: 5000, End: 5100, Pid: 2, Stream: 3, NodeID: 200, HasNode: true}, // other process
	}
	return calls, nodes, graphs, ops
}

func TestGraphNodeRows(t *testing.T) {
	calls, nodes, _, ops := graphCase()
	got := composite.GraphNodeRows(calls, nodes, ops)
	const tid = 1<<24 | 9
	add := "cudaGraphAddKernelNode_v10000"
	inst := "cudaGraphInstantiate_v10000"
	set := "cudaGraphExecKernelNodeSetParams_v10000"
	want := []composite.GraphRow{
		// originals, in as-of order, each through every derived row of it
		{Start: 13, End: 14, GlobalTid: tid, CorrID: 1, Name: add, Op: ops[0], Group: 0, HasGroup: true},
		{Start: 21, End: 22, GlobalTid: tid, CorrID: 2, Name: add, Op: ops[1], Group: 1, HasGroup: true},
		{Start: 21, End: 22, GlobalTid: tid, CorrID: 2, Name: add, Op: ops[1], Group: 1, HasGroup: true},
		// derived rows
		{Start: 31, End: 31, GlobalTid: tid, CorrID: 3, Name: inst, Op: ops[0]},
		{Start: 32, End: 32, GlobalTid: tid, CorrID: 3, Name: inst, Op: ops[1]},
		{Start: 39, End: 39, GlobalTid: tid, CorrID: 4, Name: set, Op: ops[1]},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}
}

func TestGraphLaunchRows(t *testing.T) {
	calls, _, graphs, ops := graphCase()
	got := composite.GraphLaunchRows(calls, graphs, ops)
	want := []composite.GraphRow{{Start: 44, End: 44, GlobalTid: 1<<24 | 9, CorrID: 5, Name: "cudaGraphLaunch_v10000", Op: ops[2]}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// TestGraphProjection: a graph original inside an innermost range gives
// a row of its own per GPU op, not a widened span.
func TestGraphProjection(t *testing.T) {
	calls, nodes, _, ops := graphCase()
	rows := composite.GraphNodeRows(calls, nodes, ops)
	n := &ProjNVTX{
		Start: []int64{0, 10, 30}, End: []int64{50, 26, 40},
		GlobalTid: []int64{1<<24 | 9, 1<<24 | 9, 1<<24 | 9}, Keep: []bool{true, true, true},
	}
	c := &cudaRows{}
	c.appendGraphRows(rows)
	p := Project(n, projCUDA(c, pyframe.Seq(len(rows)), nil), false)
	// "build" [10,26] is innermost: its three original rows stay separate;
	// "outer" widens over everything; "inst" [30,40] widens its derived rows.
	wantStart := []int64{1000, 1000, 1000, 1100, 1100}
	wantEnd := []int64{1200, 1200, 1100, 1200, 1200}
	wantRow := []int{0, 2, 1, 1, 1}
	if !reflect.DeepEqual(p.Start, wantStart) || !reflect.DeepEqual(p.End, wantEnd) || !reflect.DeepEqual(p.NVTXRow, wantRow) {
		t.Fatalf("got start %v end %v rows %v", p.Start, p.End, p.NVTXRow)
	}
}
