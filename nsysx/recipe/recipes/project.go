package recipes

import (
	"slices"
	"sort"
)

// ProjNVTX is the NVTX side of the GPU projection (docs/recipes.md §1.10),
// one entry per NVTX composite row, in table order. Only rows with Keep set
// take part (non-NULL start and end, NULL endGlobalTid).
type ProjNVTX struct {
	Start, End []int64
	GlobalTid  []int64
	Keep       []bool
}

// ProjCUDA is the CUDA side: one entry per CUDA_COMBINED row (API call
// times Start/End, GPU times GPUStart/GPUEnd), in row order. Graph marks
// the rows of a CUDA graph original (a non-NULL groupId, §1.9); nil means
// none. Keys holds the values of the grouping columns (deviceId, streamId),
// one slice per column.
type ProjCUDA struct {
	Start, End       []int64
	GPUStart, GPUEnd []int64
	GlobalTid        []int64
	Stream           []int64
	Graph            []bool
	Keys             [][]int64
}

// Projection is P's result: one row per projected range, ordered by thread,
// then group, then (start ↑, end ↓, NVTX row ↑). NVTXRow points back into
// ProjNVTX (for text); Keys are the group values. The hierarchy columns are
// filled only when P ran with hierarchy.
type Projection struct {
	Start, End []int64
	NVTXRow    []int
	GlobalTid  []int64
	Keys       [][]int64

	RangeID, Level, Children []int64
	Parent                   []int64
	ParentValid              []bool
	Stack                    [][]int64
}

// Len is the number of projected rows.
func (p *Projection) Len() int { return len(p.Start) }

// Project runs the NVTX→GPU projection P(nvtx, cuda, groupCols, hierarchy)
// of docs/recipes.md §1.10: every CUDA row is attributed to the NVTX
// ranges of its thread that contain its API call; each range (per group of
// the CUDA rows) becomes the span of its GPU work.
func Project(n *ProjNVTX, c *ProjCUDA, hierarchy bool) *Projection {
	out := &Projection{Keys: make([][]int64, len(c.Keys))}
	nt := byThread(n.GlobalTid, n.Keep)
	ct := byThread(c.GlobalTid, nil)
	tids := make([]int64, 0, len(nt))
	for t := range nt {
		if _, ok := ct[t]; ok {
			tids = append(tids, t)
		}
	}
	slices.Sort(tids)
	counter := int64(0)
	for _, t := range tids {
		th := newThreadProj(n, nt[t])
		for _, g := range splitGroups(c, ct[t]) {
			rows := th.project(c, g)
			out.appendGroup(th, c, g, rows, t, hierarchy, &counter)
		}
	}
	out.clip()
	return out
}

// clip gives back the columns' spare capacity (up to half of each, as
// they grew by appending): a trace keeps them, the columns of its frame,
// until every report is mapped and written.
func (p *Projection) clip() {
	p.Start, p.End, p.GlobalTid = clipSpare(p.Start), clipSpare(p.End), clipSpare(p.GlobalTid)
	for k := range p.Keys {
		p.Keys[k] = clipSpare(p.Keys[k])
	}
	p.NVTXRow = clipSpare(p.NVTXRow)
	p.RangeID, p.Level, p.Children = clipSpare(p.RangeID), clipSpare(p.Level), clipSpare(p.Children)
	p.Parent, p.ParentValid, p.Stack = clipSpare(p.Parent), clipSpare(p.ParentValid), clipSpare(p.Stack)
}

// clipSpare is s, copied to storage of its own length when more than an
// eighth of its capacity is unused.
func clipSpare[T any](s []T) []T {
	if cap(s)-len(s) <= cap(s)/8 {
		return s
	}
	return slices.Clone(s)
}

// byThread lists row positions per globalTid, in row order.
func byThread(gtid []int64, keep []bool) map[int64][]int {
	count := map[int64]int{} // rows per thread, to size each list once
	for i, t := range gtid {
		if keep == nil || keep[i] {
			count[t]++
		}
	}
	m := make(map[int64][]int, len(count))
	for t, n := range count {
		m[t] = make([]int, 0, n)
	}
	for i, t := range gtid {
		if keep == nil || keep[i] {
			m[t] = append(m[t], i)
		}
	}
	return m
}

// splitGroups splits a thread's CUDA rows by the key columns, groups in
// ascending key order (as unsigned values), rows in order within a group.
func splitGroups(c *ProjCUDA, rows []int) [][]int {
	if len(c.Keys) == 0 {
		return [][]int{rows}
	}
	idx := map[string]int{}
	var groups [][]int
	key := make([]byte, 0, 8*len(c.Keys))
	for _, r := range rows {
		key = key[:0]
		for _, k := range c.Keys {
			v := uint64(k[r])
			key = append(key, byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
		}
		g, ok := idx[string(key)]
		if !ok {
			g = len(groups)
			idx[string(key)] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], r)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i][0], groups[j][0]
		for _, k := range c.Keys {
			if k[a] != k[b] {
				return uint64(k[a]) < uint64(k[b])
			}
		}
		return false
	})
	return groups
}

// threadProj holds one thread's NVTX ranges: their rows, sorted by start,
// and which are innermost (nobody's parent in the stack walk).
type threadProj struct {
	n         *ProjNVTX
	rows      []int // NVTX rows of the thread, table order
	byStart   []int // positions into rows, by start (stable)
	innermost []bool
	// slot is each range's index into the current group's per-range
	// lists (projGroup.streams), -1 outside the group: slices instead of
	// maps keyed by range, reset after each group.
	slot []int32
}

func newThreadProj(n *ProjNVTX, rows []int) *threadProj {
	th := &threadProj{n: n, rows: rows, innermost: make([]bool, len(rows)), slot: make([]int32, len(rows))}
	for i := range th.slot {
		th.slot[i] = -1
	}
	var stack []int
	for i, r := range rows {
		th.innermost[i] = true
		for len(stack) > 0 && n.End[r] > n.End[rows[stack[len(stack)-1]]] {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			th.innermost[stack[len(stack)-1]] = false
		}
		stack = append(stack, i)
	}
	th.byStart = make([]int, len(rows))
	for i := range th.byStart {
		th.byStart[i] = i
	}
	sortStableBy(th.byStart, func(i int) int64 { return n.Start[rows[i]] })
	return th
}

// sortStableBy sorts positions stably by key, unless they already are in
// order (ranges and calls come in table order, mostly by start).
func sortStableBy(pos []int, key func(int) int64) {
	for k := 1; k < len(pos); k++ {
		if key(pos[k]) < key(pos[k-1]) {
			sort.SliceStable(pos, func(a, b int) bool { return key(pos[a]) < key(pos[b]) })
			return
		}
	}
}

// members returns, for each CUDA row of g (by position in g), the ranges
// (positions into th.rows, ascending) that contain its API call:
// n.start ≤ c.start < n.end and c.end ≤ n.end. A sweep over the CUDA rows
// by start keeps only the ranges still open, so the cost is the rows times
// the nesting depth.
func (th *threadProj) members(c *ProjCUDA, g []int) [][]int {
	order := make([]int, len(g))
	for i := range order {
		order[i] = i
	}
	sortStableBy(order, func(i int) int64 { return c.Start[g[i]] })
	out := make([][]int, len(g))
	var active, arena []int // the members share chunks of arena
	next := 0
	for _, gi := range order {
		cr := g[gi]
		cs, ce := c.Start[cr], c.End[cr]
		for next < len(th.byStart) && th.n.Start[th.rows[th.byStart[next]]] <= cs {
			active = append(active, th.byStart[next])
			next++
		}
		kept := active[:0]
		for _, a := range active {
			if th.n.End[th.rows[a]] > cs {
				kept = append(kept, a)
			}
		}
		active = kept
		if len(arena) < len(active) {
			arena = make([]int, max(stackChunk, len(active)))
		}
		m := arena[:0:len(active)]
		for _, a := range active {
			if ce <= th.n.End[th.rows[a]] {
				m = append(m, a)
			}
		}
		arena = arena[len(m):]
		slices.Sort(m)
		out[gi] = m
	}
	return out
}

// projRow is one output row of a group before numbering.
type projRow struct {
	start, end int64
	rng        int   // position into th.rows
	slot       int32 // the range's slot in the group (threadProj.slot)
}

// projGroup is a group's projected rows with each range's stream set.
type projGroup struct {
	rows    []projRow
	streams [][]int64 // per slot: the range's sorted streams
}

// project computes one group's rows: graph originals in innermost ranges
// become rows of their own, every other CUDA row widens its ranges; then
// the rows are sorted by (start ↑, end ↓, NVTX row ↑). Every row of a range
// carries the range's stream set (all its CUDA rows' streams in the group),
// separate graph rows included.
func (th *threadProj) project(c *ProjCUDA, g []int) *projGroup {
	mem := th.members(c, g)
	gr := &projGroup{}
	type span struct {
		s, e int64
		set  bool
	}
	var wide []span   // per slot
	var inGroup []int // the ranges given a slot
	var wideOrder []int
	for gi, cr := range g {
		for _, r := range mem[gi] {
			sl := th.slot[r]
			if sl < 0 {
				sl = int32(len(inGroup))
				th.slot[r] = sl
				inGroup = append(inGroup, r)
				gr.streams = append(gr.streams, nil)
				wide = append(wide, span{})
			}
			gr.streams[sl] = addStream(gr.streams[sl], c.Stream[cr])
			if c.Graph != nil && c.Graph[cr] && th.innermost[r] {
				gr.rows = append(gr.rows, projRow{c.GPUStart[cr], c.GPUEnd[cr], r, sl})
				continue
			}
			w := &wide[sl]
			if !w.set {
				*w = span{c.GPUStart[cr], c.GPUEnd[cr], true}
				wideOrder = append(wideOrder, r)
				continue
			}
			w.s, w.e = min(w.s, c.GPUStart[cr]), max(w.e, c.GPUEnd[cr])
		}
	}
	slices.Sort(wideOrder)
	for _, r := range wideOrder {
		sl := th.slot[r]
		gr.rows = append(gr.rows, projRow{wide[sl].s, wide[sl].e, r, sl})
	}
	for _, r := range inGroup {
		th.slot[r] = -1
	}
	sort.SliceStable(gr.rows, func(i, j int) bool {
		a, b := gr.rows[i], gr.rows[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return th.rows[a.rng] < th.rows[b.rng]
	})
	return gr
}

func addStream(set []int64, s int64) []int64 {
	i, found := slices.BinarySearch(set, s)
	if found {
		return set
	}
	return slices.Insert(set, i, s)
}

// intersects reports whether two sorted sets share an element.
func intersects(a, b []int64) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// appendGroup appends a group's rows to the projection, numbering them
// and walking the stream-aware stack when hierarchy is set.
func (p *Projection) appendGroup(th *threadProj, c *ProjCUDA, g []int, gr *projGroup, tid int64, hierarchy bool, counter *int64) {
	for _, r := range gr.rows {
		p.Start = append(p.Start, r.start)
		p.End = append(p.End, r.end)
		p.NVTXRow = append(p.NVTXRow, th.rows[r.rng])
		p.GlobalTid = append(p.GlobalTid, tid)
		for k, col := range c.Keys {
			p.Keys[k] = append(p.Keys[k], col[g[0]])
		}
	}
	if hierarchy {
		p.hierarchy(gr, counter)
	}
}

// stackChunk is the values per chunk that hierarchy cuts range stacks from.
const stackChunk = 1 << 14

// hierarchy numbers a group's rows (report-wide counter) and derives
// parentId, stackLevel, rangeStack and childrenCount from a stack walk in
// which only the entries sharing a stream with the row count (§1.10).
func (p *Projection) hierarchy(gr *projGroup, counter *int64) {
	n := len(gr.rows)
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = *counter
		*counter++
	}
	children := make([]int64, n)
	parent := make([]int, n)
	var stack, cur []int
	var arena []int64 // the range stacks share chunks: fewer objects for the GC
	for i, r := range gr.rows {
		for len(stack) > 0 && r.end > gr.rows[stack[len(stack)-1]].end {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, i)
		mine := gr.streams[r.slot]
		cur = cur[:0]
		for _, e := range stack {
			if intersects(gr.streams[gr.rows[e].slot], mine) {
				cur = append(cur, e)
			}
		}
		if len(arena) < len(cur) {
			arena = make([]int64, max(stackChunk, len(cur)))
		}
		rs := arena[:len(cur):len(cur)] // capped: an append copies
		arena = arena[len(cur):]
		for k, e := range cur {
			rs[k] = ids[e]
		}
		parent[i] = -1
		if len(cur) >= 2 {
			parent[i] = cur[len(cur)-2]
			children[parent[i]]++
		}
		p.Stack = append(p.Stack, rs)
		p.Level = append(p.Level, int64(len(cur)-1))
	}
	for i := range gr.rows {
		p.RangeID = append(p.RangeID, ids[i])
		if parent[i] >= 0 {
			p.Parent = append(p.Parent, ids[parent[i]])
			p.ParentValid = append(p.ParentValid, true)
		} else {
			p.Parent = append(p.Parent, 0)
			p.ParentValid = append(p.ParentValid, false)
		}
	}
	p.Children = append(p.Children, children...)
}
