package composite

import (
	"sort"
	"strings"
)

// GraphCall is one CUDA runtime call, the right side of the as-of joins of
// the CUDA graph composite (docs/recipes.md §1.9).
type GraphCall struct {
	Start, End, GlobalTid, CorrID int64
	Name                          string
}

// GraphNodeEvent is one CUDA_GRAPH_NODE_EVENTS row; HasOrig is false when
// originalGraphNodeId is NULL (an original node).
type GraphNodeEvent struct {
	Start, End, GlobalTid, NodeID, Orig int64
	HasOrig                             bool
}

// GraphEvent is one CUDA_GRAPH_EVENTS row.
type GraphEvent struct {
	Start, End, GlobalTid, GraphID int64
}

// GraphOp is one GPU row of CUDA_GPU_GRAPH: a kernel, memcpy or memset
// (with its graphNodeId) or a graph-trace row (with its graphId).
type GraphOp struct {
	Start, End, Pid, Device, Context, Stream, CorrID int64
	NodeID, GraphID                                  int64
	HasNode, HasGraph                                bool
}

// GraphRow is one row the graph joins add to CUDA_COMBINED: the API side
// (Start, End, GlobalTid, Name, CorrID) taken from the graph event and its
// runtime call, the GPU side from the op. Group is the groupId of a graph
// original (HasGroup); derived rows and graph launches have none.
type GraphRow struct {
	Start, End, GlobalTid, CorrID int64
	Name                          string
	Op                            GraphOp
	Group                         int64
	HasGroup                      bool
}

// asofCalls attaches to each event (by its start and thread) the latest
// runtime call of the same thread with start ≤ the event's start; events
// with no such call get -1. Events are visited in start order (stable), the
// order of the as-of join's result, which is returned.
func asofCalls(calls []GraphCall, starts, tids []int64) (order []int, match []int) {
	byTid := map[int64][]int{}
	for i, c := range calls {
		byTid[c.GlobalTid] = append(byTid[c.GlobalTid], i)
	}
	for _, l := range byTid {
		sort.SliceStable(l, func(a, b int) bool { return calls[l[a]].Start < calls[l[b]].Start })
	}
	order = make([]int, len(starts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return starts[order[a]] < starts[order[b]] })
	match = make([]int, len(starts))
	for i := range starts {
		l := byTid[tids[i]]
		k := sort.Search(len(l), func(j int) bool { return calls[l[j]].Start > starts[i] })
		match[i] = -1
		if k > 0 {
			match[i] = l[k-1]
		}
	}
	return order, match
}

// nodeRow is a node event after the as-of join.
type nodeRow struct {
	ev   GraphNodeEvent
	call GraphCall
}

// GraphNodeRows joins CUDA graph node events to their GPU ops: originals
// (with a groupId) are matched through their instantiated copies, derived
// rows directly, both on (graphNodeId, pid).
func GraphNodeRows(calls []GraphCall, evs []GraphNodeEvent, ops []GraphOp) []GraphRow {
	rows := lastPerNode(calls, evs)
	inst := map[int64]int64{}
	for _, r := range rows {
		if r.ev.HasOrig && strings.Contains(r.call.Name, "GraphInstantiate") {
			inst[r.ev.Orig] = r.ev.NodeID
		}
	}
	var originals, derived []nodeRow
	for _, r := range rows {
		switch {
		case !r.ev.HasOrig:
			originals = append(originals, r)
		case strings.Contains(r.call.Name, "GraphInstantiate"):
			derived = append(derived, r)
		default:
			id, ok := inst[r.ev.Orig]
			if !ok {
				continue
			}
			r.ev.NodeID = id
			derived = append(derived, r)
		}
	}
	opsBy := opsByID(ops, func(o *GraphOp) (int64, bool) { return o.NodeID, o.HasNode })
	var out []GraphRow
	for _, o := range joinOriginals(originals, derived) {
		out = appendOps(out, o.nodeRow, o.group, true, opsBy[[2]int64{o.ev.NodeID, PidOf(o.ev.GlobalTid)}], ops)
	}
	for _, d := range derived {
		out = appendOps(out, d, 0, false, opsBy[[2]int64{d.ev.NodeID, PidOf(d.ev.GlobalTid)}], ops)
	}
	return out
}

// opsByID indexes the ops by (id, pid), id being the node or graph id
// that id returns for the ops that have one.
func opsByID(ops []GraphOp, id func(o *GraphOp) (int64, bool)) map[[2]int64][]int {
	by := map[[2]int64][]int{}
	for i := range ops {
		if v, ok := id(&ops[i]); ok {
			k := [2]int64{v, ops[i].Pid}
			by[k] = append(by[k], i)
		}
	}
	return by
}

// lastPerNode as-of joins the node events to the runtime calls, drops the
// unmatched ones and keeps the last row per graphNodeId.
func lastPerNode(calls []GraphCall, evs []GraphNodeEvent) []nodeRow {
	starts := make([]int64, len(evs))
	tids := make([]int64, len(evs))
	for i, e := range evs {
		starts[i], tids[i] = e.Start, e.GlobalTid
	}
	order, match := asofCalls(calls, starts, tids)
	var joined []nodeRow
	for _, i := range order {
		if match[i] >= 0 {
			joined = append(joined, nodeRow{evs[i], calls[match[i]]})
		}
	}
	last := map[int64]int{}
	for i, r := range joined {
		last[r.ev.NodeID] = i
	}
	var out []nodeRow
	for i, r := range joined {
		if last[r.ev.NodeID] == i {
			out = append(out, r)
		}
	}
	return out
}

// groupedOriginal is an original node joined to one derived row: it takes
// the derived graphNodeId and its group number.
type groupedOriginal struct {
	nodeRow
	group int64
}

// joinOriginals inner-joins the originals to the derived rows on
// (graphNodeId = originalGraphNodeId, globalTid), in the originals' order,
// numbering the (graphNodeId, globalTid) pairs densely in sorted order.
func joinOriginals(originals, derived []nodeRow) []groupedOriginal {
	by := map[[2]int64][]int{}
	for i, d := range derived {
		k := [2]int64{d.ev.Orig, d.ev.GlobalTid}
		by[k] = append(by[k], i)
	}
	var keys [][2]int64
	seen := map[[2]int64]bool{}
	for _, o := range originals {
		k := [2]int64{o.ev.NodeID, o.ev.GlobalTid}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	group := map[[2]int64]int64{}
	for i, k := range keys {
		group[k] = int64(i)
	}
	var out []groupedOriginal
	for _, o := range originals {
		k := [2]int64{o.ev.NodeID, o.ev.GlobalTid}
		for _, di := range by[k] {
			r := o
			r.ev.NodeID = derived[di].ev.NodeID
			out = append(out, groupedOriginal{r, group[k]})
		}
	}
	return out
}

func appendOps(out []GraphRow, r nodeRow, group int64, hasGroup bool, idx []int, ops []GraphOp) []GraphRow {
	for _, i := range idx {
		out = append(out, GraphRow{
			Start: r.ev.Start, End: r.ev.End, GlobalTid: r.ev.GlobalTid, CorrID: r.call.CorrID,
			Name: r.call.Name, Op: ops[i], Group: group, HasGroup: hasGroup,
		})
	}
	return out
}

// GraphLaunchRows joins CUDA_GRAPH_EVENTS to the graph-trace ops: as-of
// joined to the runtime calls, the last row per (correlationId, pid), then
// matched on (graphId, pid).
func GraphLaunchRows(calls []GraphCall, evs []GraphEvent, ops []GraphOp) []GraphRow {
	starts := make([]int64, len(evs))
	tids := make([]int64, len(evs))
	for i, e := range evs {
		starts[i], tids[i] = e.Start, e.GlobalTid
	}
	order, match := asofCalls(calls, starts, tids)
	type joined struct {
		ev   GraphEvent
		call GraphCall
	}
	var js []joined
	last := map[[2]int64]int{}
	for _, i := range order {
		if match[i] < 0 {
			continue
		}
		c := calls[match[i]]
		last[[2]int64{c.CorrID, PidOf(evs[i].GlobalTid)}] = len(js)
		js = append(js, joined{evs[i], c})
	}
	opsBy := opsByID(ops, func(o *GraphOp) (int64, bool) { return o.GraphID, o.HasGraph })
	var out []GraphRow
	for i, j := range js {
		pid := PidOf(j.ev.GlobalTid)
		if last[[2]int64{j.call.CorrID, pid}] != i {
			continue
		}
		for _, oi := range opsBy[[2]int64{j.ev.GraphID, pid}] {
			out = append(out, GraphRow{Start: j.ev.Start, End: j.ev.End, GlobalTid: j.ev.GlobalTid,
				CorrID: j.call.CorrID, Name: j.call.Name, Op: ops[oi]})
		}
	}
	return out
}
