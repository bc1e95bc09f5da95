package critpath

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Node kinds.
const (
	kCall uint8 = iota
	kKernel
	kCopy
	kMemset
	kGraph
	kNCCL // a kernel of NCCL (communication)
)

// Call classes.
const (
	cPlain  uint8 = iota
	cLaunch       // launches GPU work (launch=FACTOR scales it)
	cSync         // the host waits for GPU work (the node's waits)
)

// Binding predecessors, as the replay found them.
const (
	bOwn    uint8 = iota // a call's own duration, an op's observed start
	bPrev                // the previous node of the thread or stream
	bLaunch              // an op's launch call
	bWait                // a wait (waitAt)
)

// node is one API call (a host thread's top-level call) or one GPU
// operation. Times are ns; names are StringIds ids.
type node struct {
	start, end int64 // observed
	rs, re     int64 // replayed
	prev       int32 // previous node of the thread or stream; -1
	launch     int32 // an op's launch call; -1
	waitOff    int32 // g.waits[waitOff:waitOff+waitN]: ops whose end this node waits for
	waitN      int32
	lane       int32 // thread or stream index
	name, long int64
	kind       uint8
	class      uint8
	bindS      uint8
	bindE      uint8
	bindWait   int32 // the binding wait's op
	done       bool
	own        bool // an op its launch call waits for (a synchronous or pageable copy)
}

func (n *node) gpu() bool { return n.kind != kCall }

// lane is a host thread or a GPU stream: its nodes in order.
type lane struct {
	thread model.GlobalTid // threads
	stream int64           // streams
	nodes  []int32
	host   bool
}

// graph is one profile's dependency graph.
type graph struct {
	p     *nsysx.Profile
	nodes []node
	waits []int32
	lanes []lane
	// typical latencies (ns) measured on the profile, used where a
	// dependency did not bind in the capture
	launchLat, streamGap, syncLat, syncDur int64
	ranges                                 *events.Ranges
	byThr                                  map[model.GlobalTid][]events.Range // sorted by start
}

func corrKey(pid model.GlobalTid, corr int64) uint64 {
	return uint64(pid.PID())<<40 | uint64(corr)&(1<<40-1)
}

type apiClass struct {
	class   uint8
	sync    string // "device", "stream", "event", "op" (the call's own operations), "wait" (stream wait event)
	memcall bool
	async   bool
}

// classify names what a call does by its name.
func classify(name string) apiClass {
	n := stripVersion(name)
	c := apiClass{async: strings.Contains(n, "Async")}
	switch {
	case n == "cudaDeviceSynchronize" || n == "cuCtxSynchronize":
		c.class, c.sync = cSync, "device"
	case n == "cudaStreamSynchronize" || n == "cuStreamSynchronize":
		c.class, c.sync = cSync, "stream"
	case n == "cudaEventSynchronize" || n == "cuEventSynchronize":
		c.class, c.sync = cSync, "event"
	case strings.Contains(n, "StreamWaitEvent"):
		c.sync = "wait"
	case strings.Contains(n, "Launch"):
		c.class = cLaunch
	case strings.Contains(n, "Memcpy") || strings.Contains(n, "Memset"):
		c.memcall = true
		if !c.async && strings.Contains(n, "Memcpy") {
			c.class, c.sync = cSync, "op"
		}
	}
	return c
}

// build reads p's events into a graph.
func build(ctx context.Context, p *nsysx.Profile) (*graph, error) {
	g := &graph{p: p}
	calls, err := events.APICalls(ctx, p.Profile)
	if err != nil {
		return nil, err
	}
	corr, classes, err := g.addCalls(ctx, calls)
	if err != nil {
		return nil, err
	}
	calls = nil
	ops, err := events.LaunchedOps(ctx, p.Profile)
	if err != nil {
		return nil, err
	}
	if err := g.addOps(ctx, ops, corr, classes); err != nil {
		return nil, err
	}
	ops = nil
	if err := g.addSyncs(ctx, corr, classes); err != nil {
		return nil, err
	}
	g.ranges, err = events.NVTXRanges(ctx, p.Profile, events.RangeOptions{})
	if err != nil {
		return nil, err
	}
	g.byThr = map[model.GlobalTid][]events.Range{}
	for _, r := range g.ranges.List {
		g.byThr[r.Thread] = append(g.byThr[r.Thread], r)
	}
	for _, rs := range g.byThr {
		slices.SortFunc(rs, func(a, b events.Range) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End)) })
	}
	g.measure()
	return g, nil
}

// addCalls adds each thread's top-level calls (calls nested in another,
// such as a driver call inside a runtime call, merge into it) and returns
// the node of each (process, correlation id) and the class of each call.
func (g *graph) addCalls(ctx context.Context, calls []events.APICall) (map[uint64]int32, map[int32]apiClass, error) {
	slices.SortFunc(calls, func(a, b events.APICall) int {
		return cmp.Or(cmp.Compare(a.Thread, b.Thread), cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	corr := make(map[uint64]int32, len(calls))
	classes := map[int32]apiClass{}
	byName := map[int64]apiClass{}
	var cur *lane
	for _, c := range calls {
		if cur == nil || cur.thread != c.Thread {
			g.lanes = append(g.lanes, lane{thread: c.Thread, host: true})
			cur = &g.lanes[len(g.lanes)-1]
		}
		cl, ok := byName[c.Name]
		if !ok {
			s, _ := g.p.String(ctx, c.Name)
			cl = classify(s)
			byName[c.Name] = cl
		}
		top := int32(-1)
		if k := len(cur.nodes); k > 0 && c.Start < g.nodes[cur.nodes[k-1]].end {
			top = cur.nodes[k-1] // nested
		} else {
			top = int32(len(g.nodes))
			prev := int32(-1)
			if k := len(cur.nodes); k > 0 {
				prev = cur.nodes[k-1]
			}
			g.nodes = append(g.nodes, node{start: c.Start, end: c.End, prev: prev, launch: -1, lane: int32(len(g.lanes) - 1),
				name: c.Name, long: -1, kind: kCall, bindWait: -1})
			cur.nodes = append(cur.nodes, top)
		}
		if cl.class != cPlain || cl.sync != "" || cl.memcall {
			old, had := classes[top]
			if !had || old.class == cPlain && old.sync == "" {
				classes[top] = cl
			}
			if n := &g.nodes[top]; n.class == cPlain {
				n.class = cl.class
			}
		}
		if c.Correlation != 0 {
			corr[corrKey(c.Thread, c.Correlation)] = top
		}
	}
	return corr, classes, nil
}

// addOps adds the GPU operations stream by stream, tied to their launch
// calls; a copy whose call waits for it (a synchronous or pageable copy)
// becomes one of its call's waits.
func (g *graph) addOps(ctx context.Context, ops []events.LaunchedOp, corr map[uint64]int32, classes map[int32]apiClass) error {
	slices.SortStableFunc(ops, func(a, b events.LaunchedOp) int {
		return cmp.Or(cmp.Compare(a.Process.PID(), b.Process.PID()), cmp.Compare(a.Device, b.Device),
			cmp.Compare(a.Stream, b.Stream), cmp.Compare(a.Start, b.Start))
	})
	nccl := map[int64]bool{}
	callWaits := map[int32][]int32{}
	var cur *lane
	var key [3]int64
	for _, o := range ops {
		k := [3]int64{o.Process.PID(), o.Device, o.Stream}
		if cur == nil || k != key {
			g.lanes = append(g.lanes, lane{stream: o.Stream})
			cur, key = &g.lanes[len(g.lanes)-1], k
		}
		n := node{start: o.Start, end: o.End, prev: -1, launch: -1, lane: int32(len(g.lanes) - 1), name: o.Name, long: o.Long, bindWait: -1}
		switch o.Kind {
		case events.OpKernel:
			n.kind = kKernel
			isN, ok := nccl[o.Name]
			if !ok {
				s, _ := g.p.String(ctx, o.Name)
				isN = strings.Contains(strings.ToLower(s), "nccl")
				nccl[o.Name] = isN
			}
			if isN {
				n.kind = kNCCL
			}
		case events.OpMemcpy:
			n.kind = kCopy
		case events.OpMemset:
			n.kind = kMemset
		case events.OpGraph:
			n.kind = kGraph
		}
		if k := len(cur.nodes); k > 0 {
			n.prev = cur.nodes[k-1]
		}
		id := int32(len(g.nodes))
		if c, ok := corr[corrKey(o.Process, o.Correlation)]; ok && o.Correlation != 0 {
			n.launch = c
			if cl := classes[c]; cl.sync == "op" || (cl.memcall && o.Kind == events.OpMemcpy && o.Pageable) {
				callWaits[c] = append(callWaits[c], id)
				n.own = true
			}
		}
		g.nodes = append(g.nodes, n)
		cur.nodes = append(cur.nodes, id)
	}
	for c, w := range callWaits {
		g.setWaits(c, w)
		g.nodes[c].class = cSync
	}
	return nil
}

func (g *graph) setWaits(i int32, w []int32) {
	n := &g.nodes[i]
	n.waitOff, n.waitN = int32(len(g.waits)), int32(len(w))
	g.waits = append(g.waits, w...)
}

// streamIndex finds, per stream of a process, its ops in stream order with
// the start of their launch calls: what a synchronisation waits for.
type streamIndex struct {
	lanes map[int64][]int32 // pid -> stream lanes
	byKey map[[2]int64]int32
	at    map[int32][]int64 // lane -> launch time of each op
}

func (g *graph) index() *streamIndex {
	si := &streamIndex{lanes: map[int64][]int32{}, byKey: map[[2]int64]int32{}, at: map[int32][]int64{}}
	for li, l := range g.lanes {
		if l.host || len(l.nodes) == 0 {
			continue
		}
		first := &g.nodes[l.nodes[0]]
		pid := int64(-1)
		if first.launch >= 0 {
			pid = g.lanes[g.nodes[first.launch].lane].thread.PID()
		}
		ts := make([]int64, len(l.nodes))
		for k, id := range l.nodes {
			n := &g.nodes[id]
			ts[k] = n.start
			if n.launch >= 0 {
				ts[k] = g.nodes[n.launch].start
				pid = g.lanes[g.nodes[n.launch].lane].thread.PID()
			}
			if k > 0 {
				ts[k] = max(ts[k], ts[k-1])
			}
		}
		si.at[int32(li)] = ts
		si.lanes[pid] = append(si.lanes[pid], int32(li))
	}
	return si
}

// last is the last op of lane li launched before t; -1 for none.
func (g *graph) last(si *streamIndex, li int32, t int64) int32 {
	ts := si.at[li]
	k := sort.Search(len(ts), func(i int) bool { return ts[i] >= t })
	if k == 0 {
		return -1
	}
	return g.lanes[li].nodes[k-1]
}

// streamLane finds the lane of stream s of process pid; -1 for none.
func (g *graph) streamLane(si *streamIndex, pid, s int64) int32 {
	for _, li := range si.lanes[pid] {
		if g.lanes[li].stream == s {
			return li
		}
	}
	return -1
}
