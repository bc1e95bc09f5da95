package stats

import (
	"math"
	"sync"
)

func init() {
	register(&Report{Name: "nvtx_gpu_proj_trace", Title: "NVTX GPU Projection Trace", Aliases: []string{"nvtxgpuproj"},
		Help: "NVTX ranges projected onto the GPU: for each range that launched GPU work, the span from the start of its first " +
			"kernel, memcpy or memset to the end of its last, next to the range's own times, nesting level and parent.",
		Run: runNVTXGPUProj(false)})
	register(&Report{Name: "nvtx_gpu_proj_sum", Title: "NVTX GPU Projection Summary",
		Help: "NVTX GPU projections grouped by range name and style: total projected and original range time, " +
			"projected duration statistics, GPU operation counts, average nesting level and children.",
		Run: runNVTXGPUProj(true)})
}

// projRange accumulates the GPU operations attributed to one range: 24
// bytes, as a PyTorch capture projects millions of ranges.
type projRange struct {
	start, end int64 // min op start, max op end (projNoEnd: no op has an end)
	ops        int32 // distinct correlation ids (at most the calls, which int32 indexes)
	child      int32 // children (per the parent relation) that have GPU operations
}

// projNoEnd is projRange.end when none of the range's operations has an end.
const projNoEnd = math.MinInt64

func (p *projRange) hasEnd() bool { return p.end != projNoEnd }

// projSet holds the projections of the ranges that have GPU operations
// (a minority of all ranges): at[i] is range i's index in ranges, or -1.
type projSet struct {
	at     []int32
	ranges []projRange
}

func newProjSet(n int) *projSet {
	s := &projSet{at: make([]int32, n)}
	for i := range s.at {
		s.at[i] = -1
	}
	return s
}

// get returns range i's projection, nil when it has no GPU operations.
func (s *projSet) get(i int32) *projRange {
	if k := s.at[i]; k >= 0 {
		return &s.ranges[k]
	}
	return nil
}

// add merges a call's operations o into range i's projection.
func (s *projSet) add(i int32, o callOps) *projRange {
	if k := s.at[i]; k >= 0 {
		p := &s.ranges[k]
		p.start = min(p.start, o.start)
		if o.hasEnd && o.end > p.end {
			p.end = o.end
		}
		return p
	}
	s.at[i] = int32(len(s.ranges))
	end := o.end
	if !o.hasEnd {
		end = projNoEnd
	}
	s.ranges = append(s.ranges, projRange{start: o.start, end: end})
	return &s.ranges[len(s.ranges)-1]
}

// reserve sizes the ranges for the distinct ranges of rc's calls, marking
// them (at = -2, still no projection) on the way: one allocation for
// millions of projections instead of a doubling array.
func (s *projSet) reserve(rc *rangeCalls) {
	n := 0
	for _, r := range rc.list {
		if s.at[r] == -1 {
			s.at[r] = -2
			n++
		}
	}
	s.ranges = make([]projRange, 0, n)
}

// countChildren sets each projection's child count.
func (s *projSet) countChildren(t *nvtxTree) {
	for i, k := range s.at {
		if p := t.parent[i]; p >= 0 && k >= 0 {
			if pp := s.get(p); pp != nil {
				pp.child++
			}
		}
	}
}

func runNVTXGPUProj(summary bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := nvtxPrereq(c); skip {
			return r, nil
		}
		if !c.Has(tRuntime) {
			return c.Skip(c.Path() + " does not contain CUDA API data.")
		}
		if r, err := c.SetupFilter(); r != nil || err != nil {
			return r, err
		}
		if !c.Has(tKernel) && !c.Has(tMemcpy) && !c.Has(tMemset) {
			return c.Skip(c.Path() + " does not contain GPU operation data.")
		}
		d, ri, err := loadNVTXAndRuntime(c, !summary)
		if err != nil {
			return nil, err
		}
		m, mOK := d.maxPP.merge(d.maxSE).value()
		sp := d.spans(m, mOK)
		if summary {
			d.tid = nil // grouped by thread in the spans; the summary shows no thread
		}
		proj, err := projectRanges(c, d, sp, ri)
		if err != nil {
			return nil, err
		}
		t := sp.tree(!summary)
		sp.threads = nil
		proj.countChildren(t)
		if summary {
			return projSummary(c, d, sp, t, proj), nil
		}
		return projTrace(c, d, sp, t, proj), nil
	}
}

// callOps is the span of the GPU operations of one CUDA API call.
type callOps struct {
	start, end int64
	hasEnd     bool
}

// projectRanges attributes every kernel, memcpy and memset to the ranges
// enclosing its launching call (docs/stats.md §4.15).
func projectRanges(c *Ctx, d *nvtxData, sp *nvtxSpans, ri *runtimeIndex) (*projSet, error) {
	rc := newRangeCalls(ri)
	ops := make([]callOps, 0, ri.t.N) // at most one per call
	for _, tn := range []string{tKernel, tMemcpy, tMemset} {
		if !c.Has(tn) {
			continue
		}
		t, err := c.View(tn).Load("start", "end", "correlationId", "globalPid")
		if err != nil {
			return nil, err
		}
		ops = callSpans(t, ri, rc, ops)
	}
	rc.finish(sp)
	proj := newProjSet(d.n)
	proj.reserve(rc)
	corr := ri.t.Col("correlationId")
	exact := ri.more != nil // two calls may share a correlation id: count ids, not calls
	seen := map[[2]int64]struct{}{}
	for k, j := range rc.rows {
		for _, r := range rc.ranges(int32(k)) {
			p := proj.add(r, ops[k])
			if exact {
				key := [2]int64{int64(r), corr.Ints[j]}
				if _, dup := seen[key]; dup {
					continue
				}
				seen[key] = struct{}{}
			}
			p.ops++
		}
	}
	return proj, nil
}

// callSpans widens ops[k], the span of call k's GPU operations, by the
// operations of table t (kernels, memcpys or memsets), adding calls new to rc.
func callSpans(t *Table, ri *runtimeIndex, rc *rangeCalls, ops []callOps) []callOps {
	st, en, corr, gpid := t.Col("start"), t.Col("end"), t.Col("correlationId"), t.Col("globalPid")
	var buf []int32
	for i := 0; i < t.N; i++ {
		if corr.IsNull(i) || gpid.IsNull(i) {
			continue
		}
		buf = ri.match(gpid.Ints[i], corr.Ints[i], buf)
		for _, j := range buf {
			k := rc.call(j)
			if int(k) == len(ops) {
				ops = append(ops, callOps{start: st.Ints[i], end: en.Ints[i], hasEnd: !en.IsNull(i)})
				continue
			}
			o := &ops[k]
			o.start = min(o.start, st.Ints[i])
			if !en.IsNull(i) && (!o.hasEnd || en.Ints[i] > o.end) {
				o.end, o.hasEnd = en.Ints[i], true
			}
		}
	}
	return ops
}

// projDur returns a range's projected duration, NULL when its ops have no end.
func (p *projRange) dur() Value {
	if !p.hasEnd() {
		return Null
	}
	return IntV(p.end - p.start)
}

func projTrace(c *Ctx, d *nvtxData, sp *nvtxSpans, t *nvtxTree, proj *projSet) *Result {
	// The stacks are built on first use: a table that never shows them
	// (the NVTX timeline plot reads only the projections) never pays for them.
	stacks := sync.OnceValue(func() *rangeStacks { return newRangeStacks(d, t) })
	rows := make([]int32, 0, len(proj.ranges)) // RangeId order: the ranges are in rowid order
	for i, k := range proj.at {
		if k >= 0 {
			rows = append(rows, int32(i))
		}
	}
	res := NewResult(c.Report.Name, c.Report.Title)
	col := func(name string, kind Kind, fn func(i int32) Value) {
		res.Cols = append(res.Cols, ComputedCol(name, kind, len(rows), func(k int) Value { return fn(rows[k]) }))
	}
	reach := func(i int32, v Value) Value {
		if t.level[i] < 0 {
			return Null
		}
		return v
	}
	col("Name", TextKind, func(i int32) Value { return TextV(d.name(int(i))) })
	col("Projected Start:ts_ns", IntKind, func(i int32) Value { return IntV(proj.get(i).start) })
	col("Projected Duration:dur_ns", IntKind, func(i int32) Value { return proj.get(i).dur() })
	col("Orig Start:ts_ns", IntKind, func(i int32) Value { return IntV(d.start[i]) })
	col("Orig Duration:dur_ns", IntKind, func(i int32) Value { return IntV(sp.eff[i] - d.start[i]) })
	col("Style", TextKind, func(i int32) Value { return TextV(nvtxStyle(d.flags[i])) })
	col("PID", IntKind, func(i int32) Value { p, _ := gtidPIDTID(d, i); return p })
	col("TID", IntKind, func(i int32) Value { _, t := gtidPIDTID(d, i); return t })
	col("NumGPUOps", IntKind, func(i int32) Value { return IntV(int64(proj.get(i).ops)) })
	col("Lvl", IntKind, func(i int32) Value { return reach(i, IntV(int64(t.level[i]))) })
	col("NumChild", IntKind, func(i int32) Value { return IntV(int64(proj.get(i).child)) })
	col("RangeId", IntKind, func(i int32) Value { return IntV(d.rowid[i]) })
	col("ParentId", IntKind, func(i int32) Value {
		if p := t.parent[i]; p >= 0 {
			return reach(i, IntV(d.rowid[p]))
		}
		return Null
	})
	col("RangeStack", TextKind, func(i int32) Value { return reach(i, TextV(stacks().at(i))) })
	return res
}

// projSum is the rest of a row of nvtx_gpu_proj_sum beside its
// nvtxSumGroup (name, style, projected total and values): the group's
// projected durations durs[lo:hi] (in range order), their statistics and
// NULLs, and its sums over its ranges.
type projSum struct {
	st                  groupStats
	lo, hi, nulls       int32
	rangeTime, ops      int64
	lvlSum, lvlN        int64
	childSum, instances int64
}

func projSummary(c *Ctx, d *nvtxData, sp *nvtxSpans, t *nvtxTree, proj *projSet) *Result {
	groups, sums := projGroups(d, sp, t, proj)
	avg := func(sum, n int64) Value {
		if n == 0 {
			return Null
		}
		return FloatV(Round1(float64(sum) / float64(n)))
	}
	cols := []string{"Range", "Style", "Total Proj Time:dur_ns", "Total Range Time:dur_ns",
		"Range Instances", "Proj Avg:dur_ns", "Proj Med:dur_ns", "Proj Min:dur_ns", "Proj Max:dur_ns", "Proj StdDev:dur_ns",
		"Total GPU Ops", "Avg GPU Ops", "Avg Range Lvl", "Avg Num Child"}
	return nvtxGroupResult(c, cols, d.names, groups, func(j int) func(g *nvtxSumGroup) Value {
		stat := func(fn func(g *nvtxSumGroup, x *projSum) Value) func(g *nvtxSumGroup) Value {
			return func(g *nvtxSumGroup) Value {
				if g.n == 0 { // no projected duration
					return Null
				}
				return fn(g, &sums[g.more-1])
			}
		}
		sum := func(fn func(x *projSum) Value) func(g *nvtxSumGroup) Value {
			return func(g *nvtxSumGroup) Value { return fn(&sums[g.more-1]) }
		}
		switch j {
		case 1:
			return func(g *nvtxSumGroup) Value { return TextV(nvtxStyle(g.style)) }
		case 2:
			return stat(func(g *nvtxSumGroup, _ *projSum) Value { return IntV(g.total) })
		case 3:
			return sum(func(x *projSum) Value { return IntV(x.rangeTime) })
		case 4:
			return sum(func(x *projSum) Value { return IntV(x.instances) })
		case 5:
			return stat(func(g *nvtxSumGroup, _ *projSum) Value { return FloatV(Round1(float64(g.total) / float64(g.n))) })
		case 6:
			return stat(func(_ *nvtxSumGroup, x *projSum) Value { return FloatV(Round1(x.st.med)) })
		case 7:
			return stat(func(_ *nvtxSumGroup, x *projSum) Value { return IntV(x.st.lo) })
		case 8:
			return stat(func(_ *nvtxSumGroup, x *projSum) Value { return IntV(x.st.hi) })
		case 9: // 0.0 without values, as SQLite's
			return sum(func(x *projSum) Value { return FloatV(Round1(x.st.sd)) })
		case 10:
			return sum(func(x *projSum) Value { return IntV(x.ops) })
		case 11:
			return sum(func(x *projSum) Value { return avg(x.ops, x.instances) })
		case 12:
			return sum(func(x *projSum) Value { return avg(x.lvlSum, x.lvlN) })
		}
		return sum(func(x *projSum) Value { return avg(x.childSum, x.instances) })
	})
}

// projGroups groups the projected ranges by name and style, in the
// summary's order: total projected time descending (NULL last), then name
// and style. The groups are found by name id and style (an array over the
// pairs of them), their projected durations gathered by a counting sort in
// range order (the standard deviation's summation order), without a map of
// names or a slice per group. Each group's more is 1 + the index of its
// projSum.
func projGroups(d *nvtxData, sp *nvtxSpans, t *nvtxTree, proj *projSet) ([]nvtxSumGroup, []projSum) {
	gid := make([]int32, 2*len(d.names)) // (name, style) -> 1 + index into sums
	// no more groups than projected ranges, often nearly as many
	groups, sums := make([]nvtxSumGroup, 0, len(proj.ranges)), make([]projSum, 0, len(proj.ranges))
	for i, k := range proj.at {
		if k < 0 {
			continue
		}
		p := &proj.ranges[k]
		st := d.flags[i] & nvStartEnd
		key := 2*int(d.pairName[d.pair[i]]) + int(st)
		if gid[key] == 0 {
			groups = append(groups, nvtxSumGroup{name: d.pairName[d.pair[i]], style: st})
			sums = append(sums, projSum{})
			gid[key] = int32(len(sums))
		}
		g, x := &groups[gid[key]-1], &sums[gid[key]-1]
		if p.hasEnd() {
			g.n++
		} else {
			x.nulls++
		}
		x.rangeTime += sp.eff[i] - d.start[i]
		x.ops += int64(p.ops)
		if lv := t.level[i]; lv >= 0 {
			x.lvlSum += int64(lv)
			x.lvlN++
		}
		x.childSum += int64(p.child)
		x.instances++
	}
	var next int32 // each group's first position in durs, then its next
	for k := range groups {
		x := &sums[k]
		x.lo, x.hi = next, next
		next += groups[k].n
	}
	durs := make([]int64, next)
	for i, k := range proj.at {
		if k < 0 || !proj.ranges[k].hasEnd() {
			continue
		}
		p := &proj.ranges[k]
		x := &sums[gid[2*int(d.pairName[d.pair[i]])+int(d.flags[i]&nvStartEnd)]-1]
		durs[x.hi] = subInt(p.end, p.start)
		x.hi++
	}
	forEachGroup(len(groups), func(k int) {
		x := &sums[k]
		x.st = statsOf(durs[x.lo:x.hi])
		g := &groups[k]
		g.total, g.more = x.st.total, int32(k+1)
	})
	orderNVTXGroups(d.names, groups)
	return groups, sums
}
