package stats

import (
	"sort"
)

// This file holds the interval machinery of the NVTX reports built on
// nsys's R-trees (nvtx_pushpop_trace, nvtx_gpu_proj_*, nvtx_kern_sum): the
// parent relation between ranges and the ranges enclosing a CUDA API call.
// Both are sweeps over each thread's ranges in start order.

// nvtxSpans are the intervals the sweeps work on: one per range of an
// nvtxData, with the effective end (end, or the report's maximum for an
// unclosed range).
type nvtxSpans struct {
	d       *nvtxData
	eff     []int64
	effNull []bool    // the effective end is NULL (an unclosed range and no maximum)
	threads [][]int32 // per thread, ranges sorted by (start, end desc, rowid)
	byTid   map[int64]int
}

// spans computes effective ends with maximum m (ok false: NULL) and groups
// the ranges by thread. The effective ends take over d.end's storage: d.end
// is nil afterwards.
func (d *nvtxData) spans(m int64, mOK bool) *nvtxSpans {
	sp := &nvtxSpans{d: d, eff: d.end, effNull: make([]bool, d.n), byTid: map[int64]int{}}
	d.end = nil
	counts := map[int64]int{}
	for i := 0; i < d.n; i++ {
		if d.flags[i]&nvOpen != 0 {
			sp.eff[i], sp.effNull[i] = m, !mOK
		}
		if d.flags[i]&nvNoTid == 0 && !sp.effNull[i] {
			counts[d.gtid(i)]++
		}
	}
	for i := 0; i < d.n; i++ {
		if d.flags[i]&nvNoTid != 0 || sp.effNull[i] {
			continue
		}
		g := d.gtid(i)
		k, ok := sp.byTid[g]
		if !ok {
			k = len(sp.threads)
			sp.byTid[g] = k
			sp.threads = append(sp.threads, make([]int32, 0, counts[g]))
		}
		sp.threads[k] = append(sp.threads[k], int32(i))
	}
	for _, rs := range sp.threads {
		sp.sortRanges(rs)
	}
	return sp
}

// before is the sweep order: start ascending, effective end descending (a
// container before what it contains), rowid ascending.
func (sp *nvtxSpans) before(a, b int32) bool {
	d := sp.d
	if d.start[a] != d.start[b] {
		return d.start[a] < d.start[b]
	}
	if sp.eff[a] != sp.eff[b] {
		return sp.eff[a] > sp.eff[b]
	}
	return a < b // rowid order
}

func (sp *nvtxSpans) sortRanges(rs []int32) {
	for k := 1; k < len(rs); k++ {
		if sp.before(rs[k], rs[k-1]) {
			sort.Slice(rs, func(i, j int) bool { return sp.before(rs[i], rs[j]) })
			return
		}
	}
}

func (sp *nvtxSpans) same(a, b int32) bool {
	return sp.d.start[a] == sp.d.start[b] && sp.eff[a] == sp.eff[b]
}

// nvtxTree is nsys's NVTX_PARENT relation: a range's parent is the other
// range of the same thread that contains it (inclusive) with the least
// tightness (c.start-p.start)+(p.end-c.end), i.e. the shortest container;
// ties go to the lower rowid. Two ranges with identical bounds are each
// other's parents, so they and everything under them are unreachable from
// the roots: their level is -1.
type nvtxTree struct {
	parent []int32 // -1 for a root
	level  []int32 // -1 when unreachable from a root
	order  []int32 // every range, parents before their children
}

// tree computes every range's parent and level; withOrder fills t.order (which the range stacks walk); without it, order
// stays nil.
func (sp *nvtxSpans) tree(withOrder bool) *nvtxTree {
	n := sp.d.n
	t := &nvtxTree{parent: make([]int32, n), level: make([]int32, n)}
	if withOrder {
		t.order = make([]int32, 0, n)
	}
	for i := range t.parent {
		t.parent[i], t.level[i] = -1, -2
	}
	inThread := make([]bool, n)
	for _, rs := range sp.threads {
		if !sp.stackParents(rs, t.parent) {
			for _, r := range rs {
				t.parent[r] = -1
			}
			sp.fenwickParents(rs, t.parent)
		}
		for _, r := range rs {
			inThread[r] = true
		}
	}
	// Ranges outside any thread list (NULL thread or end) are roots.
	for i := 0; i < n; i++ {
		if !inThread[i] {
			t.level[i] = 0
			if withOrder {
				t.order = append(t.order, int32(i))
			}
		}
	}
	for _, rs := range sp.threads {
		for _, r := range rs {
			p := t.parent[r]
			switch {
			case p < 0:
				t.level[r] = 0
			case t.level[p] >= 0:
				t.level[r] = t.level[p] + 1
			default:
				t.level[r] = -1
			}
			if withOrder {
				t.order = append(t.order, r)
			}
		}
	}
	return t
}

// stackParents computes the parents of one thread's sorted ranges with a
// stack, which is exact when the ranges nest (push/pop ranges always do). It
// returns false on the first pair of crossing ranges.
func (sp *nvtxSpans) stackParents(rs []int32, parent []int32) bool {
	d := sp.d
	stack := make([]int32, 0, 64)
	twinned := false // the top's parent was set to its first twin
	for _, c := range rs {
		for len(stack) > 0 && sp.eff[stack[len(stack)-1]] < d.start[c] {
			stack = stack[:len(stack)-1]
			twinned = false
		}
		if len(stack) == 0 {
			stack = append(stack, c)
			continue
		}
		top := stack[len(stack)-1]
		switch {
		case sp.same(top, c):
			parent[c] = top // the lowest-rowid twin
			if !twinned {
				parent[top] = c
				twinned = true
			}
		case sp.eff[top] >= sp.eff[c]:
			parent[c] = top
			stack = append(stack, c)
			twinned = false
		default:
			return false
		}
	}
	return true
}

// fenwickParents is the general parent computation for ranges that cross
// (start/end ranges): in sweep order, the shortest inserted range whose end
// reaches the candidate's end, found with a Fenwick tree of minima over end
// ranks.
func (sp *nvtxSpans) fenwickParents(rs []int32, parent []int32) {
	d := sp.d
	ends := make([]int64, len(rs))
	for k, r := range rs {
		ends[k] = sp.eff[r]
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i] > ends[j] })
	w := 0
	for k := range ends {
		if k == 0 || ends[k] != ends[w-1] {
			ends[w] = ends[k]
			w++
		}
	}
	ends = ends[:w]
	rank := func(e int64) int { // 1-based position among descending ends
		return sort.Search(len(ends), func(i int) bool { return ends[i] <= e }) + 1
	}
	fw := make([]int32, len(ends)+1)
	for i := range fw {
		fw[i] = -1
	}
	better := func(a, b int32) bool { // a is a tighter container than b
		if b < 0 {
			return true
		}
		da, db := sp.eff[a]-d.start[a], sp.eff[b]-d.start[b]
		if da != db {
			return da < db
		}
		return a < b // rowid order
	}
	for k := 0; k < len(rs); {
		c := rs[k]
		j := k + 1
		for j < len(rs) && sp.same(rs[j], c) {
			j++
		}
		if j-k > 1 { // identical ranges: each other's parents
			parent[c] = rs[k+1]
			for _, t := range rs[k+1 : j] {
				parent[t] = c
			}
		} else {
			best := int32(-1)
			for x := rank(sp.eff[c]); x > 0; x -= x & -x {
				if fw[x] >= 0 && better(fw[x], best) {
					best = fw[x]
				}
			}
			parent[c] = best
		}
		for x := rank(sp.eff[c]); x < len(fw); x += x & -x {
			if better(c, fw[x]) {
				fw[x] = c
			}
		}
		k = j
	}
}

// callSpan is a CUDA API call seen by the containment sweep.
type callSpan struct {
	gtid, start, end int64
}

// enclosing returns, for each call, the ranges of the call's thread that
// contain it (range start <= call start and effective end >= call end): the
// ranges of call i are list[start[i]:start[i]+count[i]] (in the order the
// threads were swept; every entry of list belongs to one call).
func (sp *nvtxSpans) enclosing(calls []callSpan) (start, count, list []int32) {
	byThread := map[int][]int32{}
	for i, cl := range calls {
		if k, ok := sp.byTid[cl.gtid]; ok {
			byThread[k] = append(byThread[k], int32(i))
		}
	}
	// Per call, a slice into a shared buffer.
	start = make([]int32, len(calls))
	count = make([]int32, len(calls))
	var buf []int32
	d := sp.d
	for k, cs := range byThread {
		sorted := true
		for j := 1; j < len(cs); j++ {
			if calls[cs[j]].start < calls[cs[j-1]].start {
				sorted = false
				break
			}
		}
		if !sorted {
			sort.SliceStable(cs, func(a, b int) bool { return calls[cs[a]].start < calls[cs[b]].start })
		}
		rs := sp.threads[k]
		var active []int32
		ri := 0
		for _, ci := range cs {
			cl := calls[ci]
			for ri < len(rs) && d.start[rs[ri]] <= cl.start {
				active = append(active, rs[ri])
				ri++
			}
			start[ci] = int32(len(buf))
			w := 0
			for _, r := range active {
				if sp.eff[r] < cl.start {
					continue
				}
				active[w] = r
				w++
				if sp.eff[r] >= cl.end {
					buf = append(buf, r)
				}
			}
			active = active[:w]
			count[ci] = int32(len(buf)) - start[ci]
		}
	}
	return start, count, buf
}
