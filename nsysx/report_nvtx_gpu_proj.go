package nsysx

import (
	"sort"
	"strings"
)

func init() {
	register(&Report{Name: "nvtx_gpu_proj_trace", Title: "NVTX GPU Projection Trace", Aliases: []string{"nvtxgpuproj"},
		Help: "NVTX ranges projected onto the GPU: for each range that launched GPU work, the span from the start of its first " +
			"kernel, memcpy or memset to the end of its last, next to the range's own times, nesting level and parent.",
		run: runNVTXGPUProj(false)})
	register(&Report{Name: "nvtx_gpu_proj_sum", Title: "NVTX GPU Projection Summary",
		Help: "NVTX GPU projections grouped by range name and style: total projected and original range time, " +
			"projected duration statistics, GPU operation counts, average nesting level and children.",
		run: runNVTXGPUProj(true)})
}

// projRange accumulates the GPU operations attributed to one range.
type projRange struct {
	start, end int64 // min op start, max op end
	hasEnd     bool
	ops        int64 // distinct correlation ids
	has        bool
}

func runNVTXGPUProj(summary bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := c.nvtxPrereq(); skip {
			return r, nil
		}
		if !c.Has(tRuntime) {
			return c.Skip(c.Path() + " does not contain CUDA API data.")
		}
		if r, err := c.setupFilter(); r != nil || err != nil {
			return r, err
		}
		if !c.Has(tKernel) && !c.Has(tMemcpy) && !c.Has(tMemset) {
			return c.Skip(c.Path() + " does not contain GPU operation data.")
		}
		d, ri, err := c.loadNVTXAndRuntime()
		if err != nil {
			return nil, err
		}
		if d.multiDomain() {
			return nil, nvtxInternalError(c, "NVTX_EVENTS_RIDX")
		}
		m, mOK := d.maxPP.merge(d.maxSE).value()
		sp := d.spans(m, mOK)
		proj, err := c.projectRanges(d, sp, ri)
		if err != nil {
			return nil, err
		}
		t := sp.tree()
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
// enclosing its launching call (§4.15).
func (c *Ctx) projectRanges(d *nvtxData, sp *nvtxSpans, ri *runtimeIndex) ([]projRange, error) {
	rc := newRangeCalls(ri)
	var ops []callOps
	var buf []int32
	for _, tn := range []string{tKernel, tMemcpy, tMemset} {
		if !c.Has(tn) {
			continue
		}
		t, err := c.Load(tn, "start", "end", "correlationId", "globalPid")
		if err != nil {
			return nil, err
		}
		st, en, corr, gpid := t.Col("start"), t.Col("end"), t.Col("correlationId"), t.Col("globalPid")
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
				if !en.IsNull(i) {
					if !o.hasEnd || en.Ints[i] > o.end {
						o.end, o.hasEnd = en.Ints[i], true
					}
				}
			}
		}
	}
	rc.finish(sp)
	proj := make([]projRange, d.n)
	corr := ri.t.Col("correlationId")
	exact := ri.more != nil // two calls may share a correlation id: count ids, not calls
	seen := map[[2]int64]struct{}{}
	for k, j := range rc.rows {
		o := ops[k]
		for _, r := range rc.ranges(int32(k)) {
			p := &proj[r]
			if !p.has {
				p.start, p.end, p.hasEnd, p.has = o.start, o.end, o.hasEnd, true
			} else {
				p.start = min(p.start, o.start)
				if o.hasEnd && (!p.hasEnd || o.end > p.end) {
					p.end, p.hasEnd = o.end, true
				}
			}
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

// projDur returns a range's projected duration, NULL when its ops have no end.
func (p *projRange) dur() Value {
	if !p.hasEnd {
		return Null
	}
	return IntV(p.end - p.start)
}

// projChildren counts, per range, the children (per the parent relation)
// that have GPU operations.
func projChildren(t *nvtxTree, proj []projRange) []int64 {
	n := make([]int64, len(proj))
	for i := range proj {
		if p := t.parent[i]; p >= 0 && proj[i].has {
			n[p]++
		}
	}
	return n
}

func projTrace(c *Ctx, d *nvtxData, sp *nvtxSpans, t *nvtxTree, proj []projRange) *Result {
	stacks := newRangeStacks(d, t)
	child := projChildren(t, proj)
	var rows []int32 // RangeId order: the ranges are in rowid order
	for i := range proj {
		if proj[i].has {
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
	col("Name", TextKind, func(i int32) Value { name, _ := d.name(int(i)); return TextV(name) })
	col("Projected Start:ts_ns", IntKind, func(i int32) Value { return IntV(proj[i].start) })
	col("Projected Duration:dur_ns", IntKind, func(i int32) Value { return proj[i].dur() })
	col("Orig Start:ts_ns", IntKind, func(i int32) Value { return IntV(d.start[i]) })
	col("Orig Duration:dur_ns", IntKind, func(i int32) Value { return IntV(sp.eff[i] - d.start[i]) })
	col("Style", TextKind, func(i int32) Value { return TextV(nvtxStyle(d.flags[i])) })
	col("PID", IntKind, func(i int32) Value { p, _ := gtidPIDTID(d, i); return p })
	col("TID", IntKind, func(i int32) Value { _, t := gtidPIDTID(d, i); return t })
	col("NumGPUOps", IntKind, func(i int32) Value { return IntV(proj[i].ops) })
	col("Lvl", IntKind, func(i int32) Value { return reach(i, IntV(int64(t.level[i]))) })
	col("NumChild", IntKind, func(i int32) Value { return IntV(child[i]) })
	col("RangeId", IntKind, func(i int32) Value { return IntV(d.rowid[i]) })
	col("ParentId", IntKind, func(i int32) Value {
		if p := t.parent[i]; p >= 0 {
			return reach(i, IntV(d.rowid[p]))
		}
		return Null
	})
	col("RangeStack", TextKind, func(i int32) Value { return reach(i, TextV(stacks.at(i))) })
	return res
}

func projSummary(c *Ctx, d *nvtxData, sp *nvtxSpans, t *nvtxTree, proj []projRange) *Result {
	child := projChildren(t, proj)
	type group struct {
		name, style    string
		proj           Agg
		rangeTime      int64
		ops            int64
		lvlSum, lvlN   int64
		childSum, rows int64
		total          Value
	}
	byKey := map[[2]string]*group{}
	var gs []*group
	for i := 0; i < d.n; i++ {
		p := &proj[i]
		if !p.has {
			continue
		}
		name, _ := d.name(i)
		k := [2]string{name, nvtxStyle(d.flags[i])}
		g := byKey[k]
		if g == nil {
			g = &group{name: k[0], style: k[1]}
			byKey[k] = g
			gs = append(gs, g)
		}
		if p.hasEnd {
			g.proj.Add(subInt(p.end, p.start))
		} else {
			g.proj.AddNull()
		}
		g.rangeTime += sp.eff[i] - d.start[i]
		g.ops += p.ops
		if lv := t.level[i]; lv >= 0 {
			g.lvlSum += int64(lv)
			g.lvlN++
		}
		g.childSum += child[i]
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
