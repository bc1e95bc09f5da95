package critpath

import (
	"cmp"
	"slices"
)

// Defaults of the typical latencies where a profile shows none (ns).
const (
	defLaunchLat = 5000
	defStreamGap = 1000
	defSyncLat   = 2000
)

// measure sets the typical latencies of the profile: the median launch
// latency of ops launched onto an idle stream, the median gap between
// queued ops of a stream, the median time a waiting synchronisation
// takes to return after its work ends, and the median duration of a
// synchronisation that did not wait.
func (g *graph) measure() {
	var launch, gaps, lat, dur []int64
	for i := range g.nodes {
		n := &g.nodes[i]
		if n.gpu() {
			var prevEnd int64 = -1 << 62
			if n.prev >= 0 {
				prevEnd = g.nodes[n.prev].end
			}
			if n.launch >= 0 {
				ls := g.nodes[n.launch].start
				if prevEnd <= ls && n.start >= ls && !n.own && n.waitN == 0 {
					launch = append(launch, n.start-ls)
				} else if n.prev >= 0 && n.start >= prevEnd {
					gaps = append(gaps, n.start-prevEnd)
				}
			}
			continue
		}
		if n.class != cSync || n.waitN == 0 {
			continue
		}
		w := g.waitEnd(n, func(x *node) int64 { return x.end })
		if w > n.start && n.end >= w {
			lat = append(lat, n.end-w)
		} else if w <= n.start {
			dur = append(dur, n.end-n.start)
		}
	}
	g.launchLat = medianOr(launch, defLaunchLat)
	g.streamGap = medianOr(gaps, defStreamGap)
	g.syncLat = medianOr(lat, defSyncLat)
	g.syncDur = medianOr(dur, g.syncLat)
}

func medianOr(v []int64, def int64) int64 {
	if len(v) == 0 {
		return def
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// waitEnd is the latest end (as at reads it) of n's waits; the earliest
// time when there are none.
func (g *graph) waitEnd(n *node, at func(x *node) int64) int64 {
	var w int64 = -1 << 62
	for _, x := range g.waits[n.waitOff : n.waitOff+n.waitN] {
		w = max(w, at(&g.nodes[x]))
	}
	return w
}

// plan is what a replay changes: duration factors per node and host
// time factors (nil: the measured durations).
type plan struct {
	dur     func(i int32, n *node) int64 // a node's duration
	hostGap func(lane int32, a, b int64) int64
	noWait  func(n *node) bool
}

// replay computes every node's replayed start and end: a call starts when
// the previous call of its thread has ended and the host time between
// them has passed, and ends after its duration or, for a synchronisation,
// when the work it waits for has ended and it has returned (syncLat); an
// op starts when its stream's previous op has ended (streamGap), its
// launch call has started (launchLat) and the ops it waits for have
// ended, and lasts its measured duration. Nodes are replayed in the order
// of their observed starts; a predecessor not yet replayed is replayed
// first.
func (g *graph) replay(pl plan) {
	for i := range g.nodes {
		g.nodes[i].done = false
	}
	order := make([]int32, len(g.nodes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(g.nodes[a].start, g.nodes[b].start) })
	for _, i := range order {
		g.eval(i, pl)
	}
}

func (g *graph) eval(i int32, pl plan) {
	n := &g.nodes[i]
	if n.done {
		return
	}
	n.done = true // a cycle (corrupt data) reads the node's observed times
	n.rs, n.re = n.start, n.end
	if n.prev >= 0 {
		g.eval(n.prev, pl)
	}
	d := pl.dur(i, n)
	if !n.gpu() {
		// the start first: a synchronous copy waits for the op it launched,
		// whose start needs the call's
		n.rs, n.bindS = n.start, bOwn
		if n.prev >= 0 {
			p := &g.nodes[n.prev]
			n.rs, n.bindS = p.re+pl.hostGap(n.lane, p.end, n.start), bPrev
		}
		n.re, n.bindE = n.rs+d, bOwn
		g.evalWaits(n, pl)
		if n.waitN > 0 && !pl.noWait(n) {
			if n.start < g.waitEnd(n, func(x *node) int64 { return x.end }) {
				n.re = n.rs + min(d, g.syncDur) // it waited: only part of its time is its own
			}
			if w, x := g.bindingWait(n); w+g.syncLat > n.re {
				n.re, n.bindE, n.bindWait = w+g.syncLat, bWait, x
			}
		} else if n.waitN > 0 {
			n.re = n.rs + min(d, g.syncDur)
		}
		return
	}
	if n.launch >= 0 {
		g.eval(n.launch, pl)
	}
	g.evalWaits(n, pl)
	n.rs, n.bindS = n.start, bOwn
	if n.launch >= 0 {
		lat := g.launchLat
		if n.own { // a synchronous or pageable copy: its staging by the call is measured
			lat = max(0, n.start-g.nodes[n.launch].start)
		}
		n.rs, n.bindS = g.nodes[n.launch].rs+lat, bLaunch
	}
	if n.prev >= 0 {
		if t := g.nodes[n.prev].re + g.streamGap; t > n.rs || n.launch < 0 {
			n.rs, n.bindS = t, bPrev
		}
	}
	if n.launch < 0 && n.prev < 0 {
		n.rs = n.start
	}
	for _, x := range g.waits[n.waitOff : n.waitOff+n.waitN] {
		if t := g.nodes[x].re; t > n.rs {
			n.rs, n.bindS, n.bindWait = t, bWait, x
		}
	}
	n.re = n.rs + d
}

// bindingWait is the latest replayed end among n's waits, and its op.
func (g *graph) bindingWait(n *node) (int64, int32) {
	var w int64 = -1 << 62
	x := int32(-1)
	for _, y := range g.waits[n.waitOff : n.waitOff+n.waitN] {
		if e := g.nodes[y].re; e > w {
			w, x = e, y
		}
	}
	return w, x
}

func (g *graph) evalWaits(n *node, pl plan) {
	for _, x := range g.waits[n.waitOff : n.waitOff+n.waitN] {
		g.eval(x, pl)
	}
}
