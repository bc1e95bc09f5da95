package stats

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

func init() {
	register(&Report{Name: "nvtx_pushpop_trace", Title: "NVTX Push/Pop Range Trace", Aliases: []string{"nvtxpptrace"},
		Help: "Every NVTX push/pop range in start order with its duration, the time spent in and outside its child ranges, " +
			"its nesting level, parent and the stack of range ids above it.",
		Run: runNVTXPushPopTrace})
}

// runNVTXPushPopTrace lists push/pop ranges with their place in each
// thread's range tree (docs/stats.md §4.13).
func runNVTXPushPopTrace(c *Ctx) (*Result, error) {
	if r, skip := nvtxPrereq(c); skip {
		return r, nil
	}
	if r, err := c.SetupFilter(); r != nil || err != nil {
		return r, err
	}
	d, err := loadNVTX(c, nvtxSel{pushPop: true, ids: true, rowids: true})
	if err != nil {
		return nil, err
	}
	m, mOK := d.maxPP.value()
	sp := d.spans(m, mOK)
	t := sp.tree(true)
	pp := &pushPopTrace{d: d, sp: sp, t: t}
	pp.children()
	pp.sortRows()
	pp.stacks = newRangeStacks(d, t)
	pp.nameTrees()
	sp.threads, t.order = nil, nil // not needed by the columns
	return pp.result(c), nil
}

// pushPopTrace is what the columns of nvtx_pushpop_trace are computed from
// as they are written: no copy of the millions of rows is made.
type pushPopTrace struct {
	d        *nvtxData
	sp       *nvtxSpans
	t        *nvtxTree
	childDur []int64
	childNum []int32
	order    []int32 // the rows: ranges reachable from a root
	stacks   *rangeStacks
	treeOf   []int32 // index in trees of each range's NameTree
	trees    []Value
}

// children sums each range's children's durations and counts them.
func (pp *pushPopTrace) children() {
	d, sp, t := pp.d, pp.sp, pp.t
	pp.childDur, pp.childNum = make([]int64, d.n), make([]int32, d.n)
	for i := 0; i < d.n; i++ {
		if p := t.parent[i]; p >= 0 {
			pp.childNum[p]++
			if !sp.effNull[i] {
				pp.childDur[p] += sp.eff[i] - d.start[i]
			}
		}
	}
}

// sortRows orders the reachable ranges by start, then duration (NULL
// first), then rowid.
func (pp *pushPopTrace) sortRows() {
	d, sp := pp.d, pp.sp
	pp.order = make([]int32, 0, d.n)
	for i := 0; i < d.n; i++ {
		if pp.t.level[i] >= 0 {
			pp.order = append(pp.order, int32(i))
		}
	}
	less := func(a, b int32) bool {
		if d.start[a] != d.start[b] {
			return d.start[a] < d.start[b]
		}
		if sp.effNull[a] != sp.effNull[b] {
			return sp.effNull[a]
		}
		da, db := sp.eff[a]-d.start[a], sp.eff[b]-d.start[b]
		if da != db {
			return da < db
		}
		return a < b // rowid order
	}
	order := pp.order
	for k := 1; k < len(order); k++ {
		if less(order[k], order[k-1]) {
			sort.Slice(order, func(i, j int) bool { return less(order[i], order[j]) })
			break
		}
	}
}

// nameTrees makes the NameTree texts, "--" per level then the name: one
// string per (level, name) pair.
func (pp *pushPopTrace) nameTrees() {
	pp.treeOf = make([]int32, pp.d.n)
	seen := map[[2]int32]int32{}
	for _, i := range pp.order {
		k := [2]int32{pp.t.level[i], pp.d.pair[i]}
		x, ok := seen[k]
		if !ok {
			name := pp.d.name(int(i))
			x = int32(len(pp.trees))
			pp.trees = append(pp.trees, TextV(strings.Repeat("--", int(pp.t.level[i]))+name))
			seen[k] = x
		}
		pp.treeOf[i] = x
	}
}

func (pp *pushPopTrace) result(c *Ctx) *Result {
	d, sp, t := pp.d, pp.sp, pp.t
	res := NewResult(c.Report.Name, c.Report.Title)
	col := func(name string, kind Kind, fn func(i int32) Value) {
		res.Cols = append(res.Cols, ComputedCol(name, kind, len(pp.order), func(k int) Value { return fn(pp.order[k]) }))
	}
	dur := func(i int32) (int64, bool) { return sp.eff[i] - d.start[i], !sp.effNull[i] }
	col("Start:ts_ns", IntKind, func(i int32) Value { return IntV(d.start[i]) })
	col("End:ts_ns", IntKind, func(i int32) Value {
		if sp.effNull[i] {
			return Null
		}
		return IntV(sp.eff[i])
	})
	col("Duration:dur_ns", IntKind, func(i int32) Value {
		if v, ok := dur(i); ok {
			return IntV(v)
		}
		return Null
	})
	col("DurChild:dur_ns", IntKind, func(i int32) Value { return IntV(pp.childDur[i]) })
	col("DurNonChild:dur_ns", IntKind, func(i int32) Value {
		if v, ok := dur(i); ok {
			return IntV(v - pp.childDur[i])
		}
		return Null
	})
	col("Name", TextKind, func(i int32) Value { return TextV(d.name(int(i))) })
	col("PID", IntKind, func(i int32) Value { p, _ := gtidPIDTID(d, i); return p })
	col("TID", IntKind, func(i int32) Value { _, t := gtidPIDTID(d, i); return t })
	col("Lvl", IntKind, func(i int32) Value { return IntV(int64(t.level[i])) })
	col("NumChild", IntKind, func(i int32) Value { return IntV(int64(pp.childNum[i])) })
	col("RangeId", IntKind, func(i int32) Value { return IntV(d.rowid[i]) })
	col("ParentId", IntKind, func(i int32) Value {
		if p := t.parent[i]; p >= 0 {
			return IntV(d.rowid[p])
		}
		return Null
	})
	col("RangeStack", TextKind, func(i int32) Value { return TextV(pp.stacks.at(i)) })
	col("NameTree", TextKind, func(i int32) Value { return pp.trees[pp.treeOf[i]] })
	return res
}

// gtidPIDTID returns the PID and TID of range i (NULL without a thread).
func gtidPIDTID(d *nvtxData, i int32) (Value, Value) {
	if d.flags[i]&nvNoTid != 0 {
		return Null, Null
	}
	g := d.gtid(int(i))
	return IntV(gPID(g)), IntV(gTID(g))
}

// rangeStacks holds each reachable range's RangeStack, ":" followed by the
// rowids from its root down to itself joined by ":". A range's stack is a
// prefix of its descendants' stacks, so the strings share bytes: the buffer
// holds one root-to-leaf path per leaf, and every range points at a prefix of
// the first path written below it. A stack of n nested ranges costs O(n)
// bytes, not O(n²).
type rangeStacks struct {
	buf  []byte
	off  []int64
	size []int32 // 0: unreachable
}

// at returns range i's RangeStack ("" when it is unreachable).
func (s *rangeStacks) at(i int32) string {
	if s.size[i] == 0 {
		return ""
	}
	return unsafe.String(&s.buf[s.off[i]], int(s.size[i]))
}

func newRangeStacks(d *nvtxData, t *nvtxTree) *rangeStacks {
	s := &rangeStacks{off: make([]int64, d.n), size: make([]int32, d.n)}
	kids, nkids, roots, total := s.layout(d, t)
	s.buf = make([]byte, 0, total)
	s.write(d, roots, kids, nkids)
	return s
}

// layout sets each reachable range's stack length (parents come first in
// t.order) and lists the children of each range (kids[nkids[i]:nkids[i+1]]),
// the roots, and the bytes of all root-to-leaf paths.
func (s *rangeStacks) layout(d *nvtxData, t *nvtxTree) (kids, nkids, roots []int32, total int64) {
	n := d.n
	nkids = make([]int32, n+1)
	for _, i := range t.order {
		if t.level[i] < 0 {
			continue
		}
		l := int32(1 + digits(d.rowid[i]))
		if p := t.parent[i]; p >= 0 {
			l += s.size[p]
			nkids[p+1]++
		}
		s.size[i] = l
	}
	for i := 0; i < n; i++ {
		nkids[i+1] += nkids[i]
	}
	kids = make([]int32, nkids[n])
	fill := append([]int32(nil), nkids[:n]...)
	for _, i := range t.order {
		if t.level[i] < 0 {
			continue
		}
		if p := t.parent[i]; p >= 0 {
			kids[fill[p]] = i
			fill[p]++
		} else {
			roots = append(roots, i)
		}
		if nkids[i+1] == nkids[i] {
			total += int64(s.size[i]) // a leaf: its path is written once
		}
	}
	return kids, nkids, roots, total
}

// write walks each root's tree depth first, writing the path of every leaf
// and pointing each range not yet placed at the path being written.
func (s *rangeStacks) write(d *nvtxData, roots, kids, nkids []int32) {
	assigned := make([]bool, d.n)
	type frame struct {
		node int32
		next int32 // next child position in kids
	}
	var path []byte
	var dfs []frame
	for _, r := range roots {
		dfs = append(dfs[:0], frame{r, nkids[r]})
		path = append(path[:0], ':')
		path = strconv.AppendInt(path, d.rowid[r], 10)
		for len(dfs) > 0 {
			f := &dfs[len(dfs)-1]
			if f.next == nkids[f.node] && nkids[f.node] == nkids[f.node+1] { // a leaf: write its path
				o := int64(len(s.buf))
				s.buf = append(s.buf, path...)
				for k := len(dfs) - 1; k >= 0 && !assigned[dfs[k].node]; k-- {
					assigned[dfs[k].node] = true
					s.off[dfs[k].node] = o
				}
			}
			if f.next < nkids[f.node+1] {
				c := kids[f.next]
				f.next++
				path = append(path, ':')
				path = strconv.AppendInt(path, d.rowid[c], 10)
				dfs = append(dfs, frame{c, nkids[c]})
				continue
			}
			path = path[:len(path)-int(1+digits(d.rowid[f.node]))]
			dfs = dfs[:len(dfs)-1]
		}
	}
}

// digits is the length of n in decimal.
func digits(n int64) int {
	k := 1
	if n < 0 {
		k++
		if n == math.MinInt64 {
			return 20
		}
		n = -n
	}
	for ; n >= 10; n /= 10 {
		k++
	}
	return k
}
