package critpath

import (
	"cmp"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Item kinds on the path, and the composition part each counts in.
const (
	iKernel uint8 = iota
	iGraph
	iCopy
	iMemset
	iNCCL
	iAPI
	iSync
	iHost
	iLaunch
	iGPUGap
)

var itemKinds = [...]string{"kernel", "graph", "copy", "memset", "nccl", "api", "sync", "host", "launch", "gpu gap"}

type itemKey struct {
	kind uint8
	name int64 // StringIds id; for host time, an index into ranges.Names (-1: none)
}

// walker accumulates one iteration's critical path.
type walker struct {
	a     *analysis
	lo    int64
	comp  Composition
	items map[itemKey]int64
}

// add counts [x, y] (clipped to the iteration) and reports whether the
// path goes on before it.
func (w *walker) add(x, y int64, k itemKey) bool {
	x = max(x, w.lo)
	if y > x {
		d := y - x
		w.items[k] += d
		switch k.kind {
		case iKernel, iGraph, iGPUGap:
			w.comp.GPU += d
		case iCopy, iMemset:
			w.comp.Copies += d
		case iNCCL:
			w.comp.Communication += d
		case iSync:
			w.comp.SyncWait += d
		default:
			w.comp.Host += d
		}
	}
	return x > w.lo
}

func opItem(n *node) itemKey {
	switch n.kind {
	case kGraph:
		return itemKey{iGraph, n.name}
	case kCopy:
		return itemKey{iCopy, -1}
	case kMemset:
		return itemKey{iMemset, -1}
	case kNCCL:
		return itemKey{iNCCL, n.name}
	}
	return itemKey{iKernel, n.name}
}

// paths walks each iteration's critical path back from its end on the
// baseline replay: the binding predecessor of each node, as replay found
// it, is the path's previous step.
func (a *analysis) paths() {
	all := map[itemKey]int64{}
	base := a.plan(nil)
	for k, it := range a.its {
		w := &walker{a: a, lo: a.at(base, it.Thread, it.Start), items: map[itemKey]int64{}}
		a.walk(w, it.Thread, it.End, base)
		r := &a.res.Iterations[k]
		r.Composition = w.comp
		r.Top = a.topItems(w.items)
		for key, v := range w.items {
			all[key] += v
		}
	}
	a.res.Top = a.topItems(all)
}

// hostKey is host time at t of thread lane li.
func (a *analysis) hostKey(li int32, t int64) itemKey {
	return itemKey{iHost, int64(a.g.rangeAt(a.g.lanes[li].thread, t))}
}

func (a *analysis) walk(w *walker, th model.GlobalTid, end int64, base plan) {
	g := a.g
	li, ok := a.laneOf[th]
	if !ok {
		return // a thread without CUDA calls: the replay is its observed time
	}
	ns := g.lanes[li].nodes
	t := a.at(base, g.lanes[li].thread, end)
	k, _ := slices.BinarySearchFunc(ns, end, func(i int32, t int64) int { return cmp.Compare(g.nodes[i].start, t+1) })
	k--
	if k < 0 {
		w.add(w.lo, t, a.hostKey(li, end))
		return
	}
	i := ns[k]
	n := &g.nodes[i]
	atEnd := true
	if end < n.end { // the iteration ends inside a call
		if !w.add(n.rs, t, itemKey{iAPI, n.name}) {
			return
		}
		atEnd = false
	} else if !w.add(n.re, t, a.hostKey(li, (n.end+end)/2)) {
		return
	}
	for steps := 0; steps <= 4*len(g.nodes); steps++ {
		n = &g.nodes[i]
		switch {
		case !n.gpu() && atEnd:
			if n.bindE == bWait && n.bindWait >= 0 {
				x := &g.nodes[n.bindWait]
				if !w.add(x.re, n.re, itemKey{iSync, n.name}) {
					return
				}
				i = n.bindWait
				continue
			}
			kind := uint8(iAPI)
			if n.class == cSync {
				kind = iSync
			}
			if !w.add(n.rs, n.re, itemKey{kind, n.name}) {
				return
			}
			atEnd = false
		case !n.gpu():
			if n.bindS != bPrev {
				w.add(w.lo, n.rs, itemKey{iHost, -1})
				return
			}
			p := &g.nodes[n.prev]
			if !w.add(p.re, n.rs, a.hostKey(n.lane, (p.end+n.start)/2)) {
				return
			}
			i, atEnd = n.prev, true
		case atEnd:
			if !w.add(n.rs, n.re, opItem(n)) {
				return
			}
			atEnd = false
		default:
			switch n.bindS {
			case bLaunch:
				c := &g.nodes[n.launch]
				if !w.add(c.rs, n.rs, itemKey{iLaunch, c.name}) {
					return
				}
				i, atEnd = n.launch, false
			case bPrev:
				if !w.add(g.nodes[n.prev].re, n.rs, itemKey{iGPUGap, -1}) {
					return
				}
				i, atEnd = n.prev, true
			case bWait:
				if !w.add(g.nodes[n.bindWait].re, n.rs, itemKey{iSync, -1}) {
					return
				}
				i, atEnd = n.bindWait, true
			default:
				w.add(w.lo, n.rs, itemKey{iHost, -1})
				return
			}
		}
	}
}

// topItems are the items with the most time, named.
func (a *analysis) topItems(m map[itemKey]int64) []Item {
	keys := make([]itemKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y itemKey) int {
		return cmp.Or(cmp.Compare(m[y], m[x]), cmp.Compare(x.kind, y.kind), cmp.Compare(x.name, y.name))
	})
	var out []Item
	for _, k := range keys[:min(len(keys), a.top)] {
		out = append(out, Item{Kind: itemKinds[k.kind], Name: a.itemName(k), Time: m[k]})
	}
	return out
}

func (a *analysis) itemName(k itemKey) string {
	switch {
	case k.kind == iHost:
		if k.name < 0 {
			return "(outside NVTX ranges)"
		}
		return a.g.ranges.Names[k.name]
	case k.kind == iCopy:
		return "[CUDA memcpy]"
	case k.kind == iMemset:
		return "[CUDA memset]"
	case k.kind == iGPUGap:
		return "(between queued ops)"
	case k.kind == iGraph:
		return nsysx.GraphName(k.name, -1)
	case k.name < 0:
		return "(unknown)"
	}
	s, ok := a.g.p.String(a.ctx, k.name)
	if !ok {
		return "(unknown)"
	}
	if k.kind == iAPI || k.kind == iSync || k.kind == iLaunch {
		return stripVersion(s)
	}
	return s
}

// stripVersion drops an API name's version suffix ("cudaGraphLaunch_v10000"
// is cudaGraphLaunch).
func stripVersion(s string) string {
	i := strings.LastIndex(s, "_v")
	if i <= 0 || i+2 == len(s) {
		return s
	}
	for _, r := range s[i+2:] {
		if r < '0' || r > '9' {
			return s
		}
	}
	return s[:i]
}
