package critpath

import (
	"cmp"
	"slices"
	"sort"

	"github.com/nsysx/nsysx/nsysx/model"
)

// hostScale is a host[:REGEX]=FACTOR change on one thread: the union of
// the matching ranges (all time when Match is nil), with the covered time
// before each interval's start.
type hostScale struct {
	factor float64
	all    bool
	iv     [][2]int64
	before []int64
}

// covered is the time of the union in [a, b].
func (h *hostScale) covered(a, b int64) int64 {
	if h.all {
		return b - a
	}
	return h.upTo(b) - h.upTo(a)
}

func (h *hostScale) upTo(t int64) int64 {
	k := sort.Search(len(h.iv), func(i int) bool { return h.iv[i][0] >= t })
	if k == 0 {
		return 0
	}
	last := h.iv[k-1]
	return h.before[k-1] + min(t, last[1]) - last[0]
}

// plan turns the what-ifs into the replay's durations (nil: the measured
// ones).
func (a *analysis) plan(ws []WhatIf) plan {
	g := a.g
	kf, cf, lf := map[int64]float64{}, 1.0, 1.0
	var kAll []float64
	var kRe []WhatIf
	drop := false
	hosts := map[int32][]*hostScale{}
	for _, w := range ws {
		switch w.Target {
		case "kernels":
			if w.Match == nil {
				kAll = append(kAll, w.Factor)
			} else {
				kRe = append(kRe, w)
			}
		case "memcpy":
			cf *= w.Factor
		case "launch":
			lf *= w.Factor
		case "sync":
			drop = true
		case "host":
			for li, l := range g.lanes {
				if l.host {
					hosts[int32(li)] = append(hosts[int32(li)], a.hostScale(l.thread, w))
				}
			}
		}
	}
	kfactor := func(n *node) float64 {
		f := 1.0
		for _, x := range kAll {
			f *= x
		}
		if len(kRe) == 0 || n.kind == kGraph {
			return f
		}
		if v, ok := kf[n.name<<1]; ok { // cached by short name (a kernel's long name follows it)
			return f * v
		}
		v := 1.0
		short, _ := g.p.String(a.ctx, n.name)
		long, _ := g.p.String(a.ctx, n.long)
		for _, w := range kRe {
			if w.Match.MatchString(short) || (long != "" && w.Match.MatchString(long)) {
				v *= w.Factor
			}
		}
		kf[n.name<<1] = v
		return f * v
	}
	return plan{
		dur: func(_ int32, n *node) int64 {
			d := n.end - n.start
			switch n.kind {
			case kCall:
				if n.class == cLaunch {
					return scale(d, lf)
				}
				return d
			case kKernel, kNCCL, kGraph:
				return scale(d, kfactor(n))
			case kCopy:
				return scale(d, cf)
			}
			return d
		},
		hostGap: func(li int32, x, y int64) int64 {
			d := float64(y - x)
			for _, h := range hosts[li] {
				d -= (1 - h.factor) * float64(h.covered(x, y))
			}
			return max(0, int64(d+0.5))
		},
		noWait: func(n *node) bool { return drop && a.inIteration(n.start) },
	}
}

func scale(d int64, f float64) int64 {
	if f == 1 {
		return d
	}
	return int64(float64(d)*f + 0.5)
}

// inIteration reports whether t falls in an iteration.
func (a *analysis) inIteration(t int64) bool {
	k := sort.Search(len(a.its), func(i int) bool { return a.its[i].End > t })
	return k < len(a.its) && a.its[k].Start <= t
}

// hostScale is w on thread th: the union of th's ranges whose name w
// matches.
func (a *analysis) hostScale(th model.GlobalTid, w WhatIf) *hostScale {
	h := &hostScale{factor: w.Factor, all: w.Match == nil}
	if h.all {
		return h
	}
	names := a.g.ranges.Names
	var iv [][2]int64
	for _, r := range a.g.byThr[th] {
		if w.Match.MatchString(names[r.Name]) {
			iv = append(iv, [2]int64{r.Start, r.End})
		}
	}
	h.iv = union(iv)
	var c int64
	for _, x := range h.iv {
		h.before = append(h.before, c)
		c += x[1] - x[0]
	}
	return h
}

// union merges sorted intervals.
func union(iv [][2]int64) [][2]int64 {
	slices.SortFunc(iv, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	var out [][2]int64
	for _, x := range iv {
		if k := len(out); k > 0 && x[0] <= out[k-1][1] {
			out[k-1][1] = max(out[k-1][1], x[1])
			continue
		}
		out = append(out, x)
	}
	return out
}

// rangeAt is the name (an index into ranges.Names) of the innermost NVTX
// range of th around t; -1 for none.
func (g *graph) rangeAt(th model.GlobalTid, t int64) int32 {
	rs := g.byThr[th]
	k := sort.Search(len(rs), func(i int) bool { return rs[i].Start > t })
	for j := k - 1; j >= 0 && j >= k-64; j-- {
		if rs[j].End >= t {
			return rs[j].Name
		}
	}
	return -1
}
