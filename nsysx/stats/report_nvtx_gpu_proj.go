package stats

import (
	"math"
	"sort"
	"strings"
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
		t, err := c.Load(tn, "start", "end", "correlationId", "globalPid")
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

// projGroup is one row of nvtx_gpu_proj_sum: the ranges of one name and style.
type projGroup struct {
	name, style    string
	proj           Agg
	rangeTime      int64
	ops            int64
	lvlSum, lvlN   int64
	childSum, rows int64
	total          Value
}

func projSummary(c *Ctx, d *nvtxData, sp *nvtxSpans, t *nvtxTree, proj *projSet) *Result {
	gs := projGroups(d, sp, t, proj)
	avg := func(sum, n int64) Value {
		if n == 0 {
			return Null
		}
		return FloatV(Round1(float64(sum) / float64(n)))
	}
	res := NewResult(c.Report.Name, c.Report.Title, "Range", "Style", "Total Proj Time:dur_ns", "Total Range Time:dur_ns",
		"Range Instances", "Proj Avg:dur_ns", "Proj Med:dur_ns", "Proj Min:dur_ns", "Proj Max:dur_ns", "Proj StdDev:dur_ns",
		"Total GPU Ops", "Avg GPU Ops", "Avg Range Lvl", "Avg Num Child")
	for _, g := range gs {
		a := &g.proj
		res.Add(TextV(g.name), TextV(g.style), g.total, IntV(g.rangeTime), IntV(g.rows),
			R1(a.Avg()), R1(a.Median()), a.Min(), a.Max(), R1(a.Stdev()),
			IntV(g.ops), avg(g.ops, g.rows), avg(g.lvlSum, g.lvlN), avg(g.childSum, g.rows))
	}
	return res
}

// projGroups groups the projected ranges by name and style, in the
// summary's order: total projected time descending, then name and style.
func projGroups(d *nvtxData, sp *nvtxSpans, t *nvtxTree, proj *projSet) []*projGroup {
	byKey := map[[2]string]*projGroup{}
	var gs []*projGroup
	for i, k := range proj.at {
		if k < 0 {
			continue
		}
		p := &proj.ranges[k]
		name := d.name(i)
		key := [2]string{name, nvtxStyle(d.flags[i])}
		g := byKey[key]
		if g == nil {
			g = &projGroup{name: key[0], style: key[1]}
			byKey[key] = g
			gs = append(gs, g)
		}
		if p.hasEnd() {
			g.proj.Add(subInt(p.end, p.start))
		} else {
			g.proj.AddNull()
		}
		g.rangeTime += sp.eff[i] - d.start[i]
		g.ops += int64(p.ops)
		if lv := t.level[i]; lv >= 0 {
			g.lvlSum += int64(lv)
			g.lvlN++
		}
		g.childSum += int64(p.child)
		g.rows++
	}
	for _, g := range gs {
		g.total = g.proj.Sum()
	}
	sort.Slice(gs, func(i, j int) bool {
		if c := strings.Compare(gs[i].name, gs[j].name); c != 0 {
			return c < 0
		}
		return gs[i].style < gs[j].style
	})
	sort.SliceStable(gs, func(i, j int) bool { return Compare(gs[i].total, gs[j].total) > 0 })
	return gs
}
