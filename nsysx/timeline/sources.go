package timeline

import (
	"fmt"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// NVTX event types (ENUM_NSYS_EVENT_TYPE).
const (
	nvtxMark      = 34
	nvtxPushPop   = 59
	nvtxStartEnd  = 60
	nvtxDomainNew = 75
)

// gpu walks the kernel, memcpy and memset tables, then the executions of
// CUDA graphs traced whole.
func (w *walker) gpu() error {
	common := []string{"start", "end", "globalPid", "deviceId", "streamId", "correlationId", "contextId"}
	kcols := append(append([]string{}, common...), "demangledName", "shortName", "gridX", "gridY", "gridZ",
		"blockX", "blockY", "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory")
	w.nodeCol, w.graphCol = -1, -1 // node-level CUDA graph traces
	if w.p.HasColumn(gpuTables[0], "graphNodeId") {
		w.nodeCol, kcols = len(kcols), append(kcols, "graphNodeId")
		if w.p.HasColumn(gpuTables[0], "graphId") {
			w.graphCol, kcols = len(kcols), append(kcols, "graphId")
		}
	}
	if err := w.scan(gpuTables[0], kcols, w.kernel); err != nil {
		return err
	}
	if err := w.scan(gpuTables[1], append(append([]string{}, common...), "bytes", "copyKind"), w.memcpy); err != nil {
		return err
	}
	if err := w.scan(gpuTables[2], append(append([]string{}, common...), "bytes", "value"), w.memset); err != nil {
		return err
	}
	for _, g := range w.graphs {
		if err := w.graph(g); err != nil {
			return err
		}
	}
	return nil
}

// graph emits one execution of a CUDA graph traced whole on its stream,
// named by its graph id (by its launch without one), with a flow from its
// cudaGraphLaunch call.
func (w *walker) graph(g nsysx.GraphExec) error {
	t, err := w.streamTrack(g.GlobalPid, g.Device, g.Stream)
	if err == nil {
		t, err = w.laneOf(t, gpuOp{[3]int64{g.GlobalPid, g.Device, g.Stream}, [2]int64{g.Start, g.End}})
	}
	if err != nil {
		return err
	}
	ev := w.reset(KindGraph, g.Name(), g.Start, g.End, t)
	if g.CorrelationID > 0 && g.GlobalPid >= 0 {
		ev.FlowIn = w.flowIn(g.GlobalPid, g.CorrelationID)
	}
	ev.Args = append(ev.Args, Arg{Key: "correlationId", Int: g.CorrelationID}, Arg{Key: "deviceId", Int: g.Device},
		Arg{Key: "contextId", Int: g.Context}, Arg{Key: "streamId", Int: g.Stream}, Arg{Key: "graphId", Int: g.GraphID},
		Arg{Key: "graphExecId", Int: g.GraphExecID})
	return w.emit()
}

// gpuEvent starts a GPU event from the common columns.
func (w *walker) gpuEvent(k Kind, name string, r nsysx.ScanRow) (*Event, error) {
	t, err := w.streamTrack(r.Int(2), r.Int(3), r.Int(4))
	if err == nil {
		t, err = w.laneOf(t, gpuOp{[3]int64{r.Int(2), r.Int(3), r.Int(4)}, [2]int64{r.Int(0), r.Int(1)}})
	}
	if err != nil {
		return nil, err
	}
	ev := w.reset(k, name, r.Int(0), r.Int(1), t)
	ev.FlowIn = w.flowIn(r.Int(2), r.Int(5))
	ev.Args = append(ev.Args, Arg{Key: "correlationId", Int: r.Int(5)}, Arg{Key: "deviceId", Int: r.Int(3)},
		Arg{Key: "contextId", Int: r.Int(6)}, Arg{Key: "streamId", Int: r.Int(4)})
	return ev, nil
}

func (w *walker) kernel(r nsysx.ScanRow) error {
	name := w.name(r.Int(7), "")
	if name == "" {
		name = w.name(r.Int(8), "kernel")
	}
	ev, err := w.gpuEvent(KindKernel, name, r)
	if err != nil {
		return err
	}
	ev.NCCL = isNCCL(name)
	ev.Args = append(ev.Args,
		Arg{Key: "grid", Str: fmt.Sprintf("(%d, %d, %d)", r.Int(9), r.Int(10), r.Int(11)), IsStr: true},
		Arg{Key: "block", Str: fmt.Sprintf("(%d, %d, %d)", r.Int(12), r.Int(13), r.Int(14)), IsStr: true},
		Arg{Key: "registersPerThread", Int: r.Int(15)},
		Arg{Key: "sharedMemory", Int: r.Int(16) + r.Int(17)})
	if w.nodeCol >= 0 && !r.IsNull(w.nodeCol) { // ran as a node of a CUDA graph
		graph := int64(-1)
		if w.graphCol >= 0 && !r.IsNull(w.graphCol) {
			graph = r.Int(w.graphCol)
		}
		graph = w.graphNodes.Graph(r.Int(w.nodeCol), graph)
		ev.Args = append(ev.Args, Arg{Key: "graph", Str: nsysx.GraphName(graph, r.Int(5)), IsStr: true},
			Arg{Key: "graphNodeId", Int: r.Int(w.nodeCol)})
		if graph >= 0 {
			ev.Args = append(ev.Args, Arg{Key: "graphId", Int: graph})
		}
	}
	return w.emit()
}

func (w *walker) memcpy(r nsysx.ScanRow) error {
	label := w.memcpyNames[r.Int(8)]
	if label == "" {
		label = "Unknown"
	}
	ev, err := w.gpuEvent(KindMemcpy, "[CUDA memcpy "+label+"]", r)
	if err != nil {
		return err
	}
	ev.Args = append(ev.Args, Arg{Key: "bytes", Int: r.Int(7)})
	return w.emit()
}

func (w *walker) memset(r nsysx.ScanRow) error {
	ev, err := w.gpuEvent(KindMemset, "[CUDA memset]", r)
	if err != nil {
		return err
	}
	ev.Args = append(ev.Args, Arg{Key: "bytes", Int: r.Int(7)}, Arg{Key: "value", Int: r.Int(8)})
	return w.emit()
}

// nvtx walks NVTX_EVENTS: push/pop ranges on their thread, start/end ranges
// as async slices of their process, marks as instants.
func (w *walker) nvtx() error {
	cols := []string{"start", "end", "eventType", "globalTid", "text", "textId", "domainId", "color", "category"}
	return w.scan(events.TableNVTXEvents, cols, func(r nsysx.ScanRow) error {
		typ := r.Int(2)
		var k Kind
		switch typ {
		case nvtxPushPop:
			k = KindNVTX
		case nvtxStartEnd:
			k = KindNVTXAsync
		case nvtxMark:
			k = KindNVTXMark
		default:
			return nil
		}
		end := r.Int(1)
		if k == KindNVTXMark {
			end = r.Int(0)
		} else if r.IsNull(1) {
			w.stats.Unclosed++
			return nil
		}
		t, err := w.threadTrack(r.Int(3), 0)
		if err != nil {
			return err
		}
		name := r.Str(4)
		if r.IsNull(4) {
			name = w.name(r.Int(5), "")
		}
		ev := w.reset(k, name, r.Int(0), end, t)
		ev.Domain = w.domains[[2]int64{pidOf(r.Int(3)), r.Int(6)}]
		ev.NCCL = ev.Domain == "NCCL"
		if !r.IsNull(7) {
			ev.Color, ev.HasColor = uint32(r.Int(7)), true
		}
		if !r.IsNull(8) && r.Int(8) != 0 {
			ev.Args = append(ev.Args, Arg{Key: "category", Int: r.Int(8)})
		}
		if k == KindNVTXAsync {
			w.async++
			ev.ID = w.async
		}
		return w.emit()
	})
}

// osrt walks the OS runtime library calls.
func (w *walker) osrt() error {
	cols := []string{"start", "end", "globalTid", "nameId", "returnValue"}
	return w.scan(events.TableOSRTAPI, cols, func(r nsysx.ScanRow) error {
		t, err := w.threadTrack(r.Int(2), laneOSRT)
		if err != nil {
			return err
		}
		ev := w.reset(KindOSRT, w.name(r.Int(3), "OS runtime call"), r.Int(0), r.Int(1), t)
		ev.Args = append(ev.Args, Arg{Key: "returnValue", Int: r.Int(4)})
		return w.emit()
	})
}
