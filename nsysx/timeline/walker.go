package timeline

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Synthetic trace ids start at lane<<22: Linux pids and tids stay below 2^22.
const (
	laneAPI    = 1 << 22
	laneOSRT   = 2 << 22
	laneStream = 3 << 22
	laneGPU    = 4 << 22
)

type walker struct {
	ctx  context.Context
	p    *nsysx.Profile
	f    *nsysx.Filter
	sink Sink

	procNames   map[int64]string // pid -> name
	threadNames map[model.GlobalTid]string
	gpuNames    map[int64]string // deviceId -> name
	memcpyNames map[int64]string // copyKind -> label
	domains     map[[2]int64]string

	tracks  map[[3]int64]*Track
	nGPU    int64
	nStream int64

	// GPU operations that overlap an earlier one of their stream (programmatic
	// dependent launch starts a kernel before the previous one ends): their
	// lane, 1 and up, each a track of its own, so that no two complete
	// events of one track partly overlap (viewers draw those as nesting)
	lanes     map[gpuOp]int64
	laneTrack map[[4]int64]*Track

	graphs     []nsysx.GraphExec // executions of CUDA graphs traced whole, read with the flow keys
	graphNodes nsysx.GraphNodes  // graph node -> graph, for the kernels of node-level traces
	nodeCol    int               // positions of the kernel scan's graphNodeId and graphId, -1 when absent
	graphCol   int

	keys  []uint64 // flow keys (pid, correlationId) of the GPU work, sorted
	state []uint32 // per first position of a key: 0 no API call seen, else 1 + flows ended
	async int64

	stats Stats
	ev    Event
}

func newWalker(ctx context.Context, p *nsysx.Profile, f *nsysx.Filter, sink Sink) (*walker, error) {
	if f != nil {
		msg, err := f.Resolve(ctx, p.Profile)
		if err != nil {
			return nil, err
		}
		if msg != "" {
			return nil, &nsysx.SkipError{Msg: msg}
		}
	}
	// StringIds unreadable: its error; absent or empty: SKIPPED, as stats does.
	msg, err := events.CheckNames(ctx, p.Profile, p.Path)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		return nil, &nsysx.SkipError{Msg: msg}
	}
	w := &walker{ctx: ctx, p: p, f: f, sink: sink, tracks: map[[3]int64]*Track{}, domains: map[[2]int64]string{}}
	if w.procNames, err = events.ProcessNames(ctx, p.Profile); err != nil {
		return nil, err
	}
	if w.gpuNames, err = events.GPUNames(ctx, p.Profile); err != nil {
		return nil, err
	}
	if w.memcpyNames, err = events.MemcpyKinds(ctx, p.Profile); err != nil {
		return nil, err
	}
	if w.threadNames, err = events.ThreadNames(ctx, p.Profile); err != nil {
		return nil, err
	}
	return w, w.loadDomains()
}

// loadDomains reads the NVTX domain names (NvtxDomainCreate events).
func (w *walker) loadDomains() error {
	cols := []string{"eventType", "globalTid", "domainId", "text"}
	if !w.p.HasTable(events.TableNVTXEvents) {
		return nil
	}
	return w.p.Scan(w.ctx, events.TableNVTXEvents, nil, cols, func(r nsysx.ScanRow) error {
		if r.Int(0) == 75 {
			w.domains[[2]int64{pidOf(r.Int(1)), r.Int(2)}] = r.Str(3)
		}
		return nil
	})
}

func pidOf(g int64) int64 { return model.GlobalTid(g).PID() }
func tidOf(g int64) int64 { return model.GlobalTid(g).TID() }

func flowKey(pid, corr int64) uint64 { return uint64(pid)<<40 | uint64(corr)&(1<<40-1) }

// threadTrack returns the track of a thread's lane (0 NVTX, laneAPI, laneOSRT).
func (w *walker) threadTrack(gtid int64, lane int64) (*Track, error) {
	k := [3]int64{0, gtid, lane}
	if t := w.tracks[k]; t != nil {
		return t, nil
	}
	pid, tid := pidOf(gtid), tidOf(gtid)
	name := threadLabel(w.threadNames[model.GlobalTid(gtid)], tid)
	switch lane {
	case laneAPI:
		name = "CUDA API: " + name
	case laneOSRT:
		name = "OS runtime: " + name
	}
	proc := w.procNames[pid]
	if proc == "" {
		proc = "Process"
	}
	t := &Track{Pid: pid, Tid: tid + lane, Process: fmt.Sprintf("%s (%d)", proc, pid), Thread: name,
		ProcessSort: pid, ThreadSort: tid*4 + lane>>22}
	w.tracks[k] = t
	return t, w.sink.Track(t)
}

// streamTrack returns the track of a CUDA stream of a process's GPU.
func (w *walker) streamTrack(gpid, dev, stream int64) (*Track, error) {
	k := [3]int64{gpid, dev, stream + 1}
	if t := w.tracks[k]; t != nil {
		return t, nil
	}
	gk := [3]int64{gpid, dev, 0}
	g := w.tracks[gk]
	if g == nil {
		name := w.gpuNames[dev]
		if name == "" {
			name = "GPU"
		}
		g = &Track{Pid: laneGPU + w.nGPU, Process: fmt.Sprintf("GPU %d: %s (pid %d)", dev, name, pidOf(gpid)),
			ProcessSort: 1<<24 + pidOf(gpid)*1024 + dev, GPU: true}
		w.nGPU++
		w.tracks[gk] = g
	}
	t := &Track{Pid: g.Pid, Tid: laneStream + w.nStream, Process: g.Process, Thread: fmt.Sprintf("Stream %d", stream),
		ProcessSort: g.ProcessSort, ThreadSort: stream, GPU: true}
	w.nStream++
	w.tracks[k] = t
	return t, w.sink.Track(t)
}

var gpuTables = []string{events.TableKernel, events.TableMemcpy, events.TableMemset}

// collectFlowKeys gathers the (pid, correlationId) of every GPU operation.
func (w *walker) collectFlowKeys() error {
	streams := map[[3]int64][][2]int64{} // (globalPid, device, stream) -> [start, end] of its operations
	for _, t := range gpuTables {
		err := w.scan(t, []string{"globalPid", "correlationId", "start", "end", "deviceId", "streamId"}, func(r nsysx.ScanRow) error {
			if !r.IsNull(1) && r.Int(1) != 0 {
				w.keys = append(w.keys, flowKey(pidOf(r.Int(0)), r.Int(1)))
			}
			k := [3]int64{r.Int(0), r.Int(4), r.Int(5)}
			streams[k] = append(streams[k], [2]int64{r.Int(2), r.Int(3)})
			return nil
		})
		if err != nil {
			return err
		}
	}
	var err error
	if w.graphs, err = w.p.GraphExecs(w.ctx, w.f); err != nil {
		return fmt.Errorf("reading the CUDA graph executions: %w", err)
	}
	if w.graphNodes, err = w.p.GraphNodes(w.ctx); err != nil {
		return fmt.Errorf("reading the CUDA graph nodes: %w", err)
	}
	for _, g := range w.graphs {
		if g.CorrelationID > 0 && g.GlobalPid >= 0 {
			w.keys = append(w.keys, flowKey(pidOf(g.GlobalPid), g.CorrelationID))
		}
		k := [3]int64{g.GlobalPid, g.Device, g.Stream}
		streams[k] = append(streams[k], [2]int64{g.Start, g.End})
	}
	slices.Sort(w.keys)
	w.state = make([]uint32, len(w.keys))
	w.lanes, w.laneTrack = map[gpuOp]int64{}, map[[4]int64]*Track{}
	for k, ops := range streams {
		slices.SortFunc(ops, func(a, b [2]int64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
		var ends []int64 // per lane, the end of its last operation
		for _, op := range ops {
			l := slices.IndexFunc(ends, func(e int64) bool { return e <= op[0] })
			if l < 0 {
				l = len(ends)
				ends = append(ends, 0)
			}
			ends[l] = op[1]
			if l > 0 {
				w.lanes[gpuOp{k, op}] = int64(l)
			}
		}
	}
	return nil
}

// gpuOp names one GPU operation: its stream (globalPid, device, stream) and
// its [start, end].
type gpuOp struct {
	stream [3]int64
	span   [2]int64
}

// laneOf returns the track of GPU operation op: its stream's track t, or
// for an operation that overlaps an earlier one of the stream, the track
// of its lane ("Stream 7 (overlapping 1)", sorted after the stream's).
func (w *walker) laneOf(t *Track, op gpuOp) (*Track, error) {
	l := w.lanes[op]
	if l == 0 {
		return t, nil
	}
	k := [4]int64{op.stream[0], op.stream[1], op.stream[2], l}
	if lt := w.laneTrack[k]; lt != nil {
		return lt, nil
	}
	lt := &Track{Pid: t.Pid, Tid: laneStream + w.nStream, Process: t.Process, Thread: fmt.Sprintf("%s (overlapping %d)", t.Thread, l),
		ProcessSort: t.ProcessSort, ThreadSort: t.ThreadSort, GPU: true}
	w.nStream++
	w.laneTrack[k] = lt
	return lt, w.sink.Track(lt)
}

// keyRange is the positions [lo, hi) of key k.
func (w *walker) keyRange(k uint64) (int, int) {
	lo := sort.Search(len(w.keys), func(i int) bool { return w.keys[i] >= k })
	hi := lo
	for hi < len(w.keys) && w.keys[hi] == k {
		hi++
	}
	return lo, hi
}

// emit sends w.ev after checking its times.
func (w *walker) emit() error {
	if w.ev.End < w.ev.Start {
		w.ev.End = w.ev.Start
		w.stats.Clamped++
	}
	w.stats.Events[w.ev.Kind]++
	return w.sink.Event(&w.ev)
}

func (w *walker) reset(k Kind, name string, s, e int64, t *Track) *Event {
	ev := &w.ev
	*ev = Event{Kind: k, Name: name, Start: s, End: e, Track: t, Args: ev.Args[:0], FlowOut: ev.FlowOut[:0]}
	return ev
}

func (w *walker) api() error {
	cols := []string{"start", "end", "globalTid", "correlationId", "nameId", "returnValue"}
	return w.scan(events.TableRuntime, cols, func(r nsysx.ScanRow) error {
		t, err := w.threadTrack(r.Int(2), laneAPI)
		if err != nil {
			return err
		}
		name := nsysx.StripAPIVersion(w.name(r.Int(4), "CUDA API"))
		ev := w.reset(KindAPI, name, r.Int(0), r.Int(1), t)
		ev.Args = append(ev.Args, Arg{Key: "correlationId", Int: r.Int(3)}, Arg{Key: "returnValue", Int: r.Int(5)})
		if corr := r.Int(3); corr != 0 && len(w.keys) > 0 {
			lo, hi := w.keyRange(flowKey(pidOf(r.Int(2)), corr))
			if lo < hi && w.state[lo] == 0 {
				w.state[lo] = 1
				for i := lo; i < hi; i++ {
					ev.FlowOut = append(ev.FlowOut, int64(i)+1)
				}
			}
		}
		return w.emit()
	})
}

// flowIn returns the flow id ending at a GPU operation, or 0.
func (w *walker) flowIn(gpid, corr int64) int64 {
	if corr == 0 || len(w.keys) == 0 {
		return 0
	}
	lo, hi := w.keyRange(flowKey(pidOf(gpid), corr))
	if lo == hi || w.state[lo] == 0 || int(w.state[lo]-1) >= hi-lo {
		return 0
	}
	id := int64(lo) + int64(w.state[lo])
	w.state[lo]++
	w.stats.Flows++
	return id
}

func isNCCL(name string) bool { return strings.HasPrefix(name, "nccl") }
