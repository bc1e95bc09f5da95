package stats

import (
	"sort"
)

func init() {
	register(&Report{Name: "nvtx_kern_sum", Title: "NVTX Range Kernel Summary", Aliases: []string{"nvtxkernsum"},
		Help: "CUDA kernels grouped by the NVTX ranges that enclose their launch (every range of the stack counts), " +
			"per process and thread: range and kernel instances and kernel duration statistics.",
		Options: kernelNameOpts[:2], Run: runNVTXKernSum})
}

// rangeCalls holds the CUDA API calls that launched the operations of a
// report, and the NVTX ranges enclosing each call.
type rangeCalls struct {
	ri     *runtimeIndex
	callOf []int32 // runtime row -> call, -1 when the row launched nothing
	rows   []int32 // call -> runtime row
	start  []int32 // ranges of call i: list[start[i]:start[i]+count[i]]
	count  []int32
	list   []int32
}

// newRangeCalls indexes the runtime rows matched by ops (match results are
// fed through add) once the matching is done, by finish.
func newRangeCalls(ri *runtimeIndex) *rangeCalls {
	rc := &rangeCalls{ri: ri, callOf: make([]int32, ri.t.N)}
	for i := range rc.callOf {
		rc.callOf[i] = -1
	}
	return rc
}

// call returns the call index of runtime row j, adding it when new.
func (rc *rangeCalls) call(j int32) int32 {
	if k := rc.callOf[j]; k >= 0 {
		return k
	}
	k := int32(len(rc.rows))
	rc.callOf[j] = k
	rc.rows = append(rc.rows, j)
	return k
}

// finish finds the enclosing ranges of every call.
func (rc *rangeCalls) finish(sp *nvtxSpans) {
	st, en, g := rc.ri.t.Col("start"), rc.ri.t.Col("end"), rc.ri.t.Col("globalTid")
	spans := make([]callSpan, len(rc.rows))
	for k, j := range rc.rows {
		if st.IsNull(int(j)) || en.IsNull(int(j)) || g.IsNull(int(j)) {
			spans[k] = callSpan{gtid: -1 << 63}
			continue
		}
		spans[k] = callSpan{gtid: g.Ints[j], start: st.Ints[j], end: en.Ints[j]}
	}
	rc.start, rc.count, rc.list = sp.enclosing(spans)
}

func (rc *rangeCalls) ranges(call int32) []int32 {
	s := rc.start[call]
	return rc.list[s : s+rc.count[call]]
}

// loadNVTXAndRuntime reads the same-thread ranges of both styles (the set R
// of docs/stats.md §4.14), with their rowids when asked, while the runtime
// index is built.
func loadNVTXAndRuntime(c *Ctx, rowids bool) (*nvtxData, *runtimeIndex, error) {
	var d *nvtxData
	var derr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		d, derr = loadNVTX(c, nvtxSel{pushPop: true, startEnd: true, sameThread: true, ids: true, rowids: rowids})
	}()
	ri, err := loadRuntimeIndex(c, false)
	<-done
	if err != nil {
		return nil, nil, err
	}
	return d, ri, derr
}

func runNVTXKernSum(c *Ctx) (*Result, error) {
	if r, skip := nvtxPrereq(c); skip {
		return r, nil
	}
	if !c.Has(tKernel) {
		return c.Skip(c.Path() + " does not contain CUDA kernel data.")
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + " does not contain CUDA API data.")
	}
	if r, err := c.SetupFilter(); r != nil || err != nil {
		return r, err
	}
	d, ri, err := loadNVTXAndRuntime(c, false)
	if err != nil {
		return nil, err
	}
	kn, skip, err := kernelNames(c)
	if skip != nil || err != nil {
		return skip, err
	}
	k, err := kernels(c).Load("start", "end", "correlationId", "globalPid")
	if err != nil {
		return nil, err
	}
	m, mOK := d.maxPP.merge(d.maxSE).value()
	sp := d.spans(m, mOK)
	rc := newRangeCalls(ri)
	ks, ke, corr, gpid := k.Col("start"), k.Col("end"), k.Col("correlationId"), k.Col("globalPid")
	kcall := make([][]int32, k.N) // usually one call per kernel
	var buf []int32
	for i := 0; i < k.N; i++ {
		if corr.IsNull(i) || gpid.IsNull(i) {
			continue
		}
		buf = ri.match(gpid.Ints[i], corr.Ints[i], buf)
		if len(buf) == 0 {
			continue
		}
		cs := make([]int32, len(buf))
		for x, j := range buf {
			cs[x] = rc.call(j)
		}
		kcall[i] = cs
	}
	rc.finish(sp)
	names := nvtxNameIDs(d)
	return kernSumResult(c, d, k, ks, ke, kn, kcall, rc, names)
}

// nvtxNameIDs maps each range to a dense id of its display name, so that
// pairs spelling the same name group together.
func nvtxNameIDs(d *nvtxData) (ids []int32) {
	ids = make([]int32, d.n)
	for i := range ids {
		ids[i] = d.pairName[d.pair[i]]
	}
	return ids
}

// kernGroup is one output row of nvtx_kern_sum being accumulated.
type kernGroup struct {
	pid, tid   Value
	rng        int32 // a range of the group, -1 for the no-range group
	style      uint8
	kname      int32
	agg        Agg
	kernInst   int64
	lastKernel int
	nvtxInst   int64
}

func kernSumResult(c *Ctx, d *nvtxData, k *Table, ks, ke *Column, kn *kernNames, kcall [][]int32, rc *rangeCalls, names []int32) (*Result, error) {
	kg := &kernGrouper{d: d, kn: kn, rc: rc, names: names, ks: ks, ke: ke, g: rc.ri.t.Col("globalTid"),
		groups: map[kernGroupKey]int32{}, seenRange: map[uint64]struct{}{}}
	for i := 0; i < k.N; i++ {
		if len(kcall[i]) == 0 {
			kg.add(i, -1, -1)
			continue
		}
		for _, call := range kcall[i] {
			rs := rc.ranges(call)
			if len(rs) == 0 {
				kg.add(i, call, -1)
			}
			for _, r := range rs {
				kg.add(i, call, r)
			}
		}
	}
	gs := kg.gs
	keys := kernRowKeys(d, kn, gs)
	order := kernRowOrder(gs, keys)
	res := NewResult(c.Report.Name, c.Report.Title, "NVTX Range", "Style", "PID", "TID", "NVTX Inst", "Kern Inst",
		"Total Time:dur_ns", "Avg:dur_ns", "Med:dur_ns", "Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns", "Kernel Name")
	for _, x := range order {
		gr, kk := gs[x], keys[x]
		a := &gr.agg
		res.Add(kk.name, kk.style, gr.pid, gr.tid, IntV(gr.nvtxInst), IntV(gr.kernInst),
			kk.total, R1(a.Avg()), R1(a.Median()), a.Min(), a.Max(), R1(a.Stdev()), kk.kname)
	}
	return res, nil
}

// kernGroupKey groups kernels by the calling thread (when the launch call is
// known), the enclosing range's name and style (when in a range) and the
// kernel name.
type kernGroupKey struct {
	pid, tid int64
	call     bool
	name     int32
	style    uint8
	kname    int32
}

// kernGrouper accumulates the nvtx_kern_sum groups, in first-seen order.
type kernGrouper struct {
	d         *nvtxData
	kn        *kernNames
	rc        *rangeCalls
	names     []int32
	ks, ke, g *Column // kernel start and end, runtime globalTid
	groups    map[kernGroupKey]int32
	gs        []*kernGroup
	seenRange map[uint64]struct{} // group<<32 | range already counted
}

// add counts kernel i, launched by runtime call call (-1: none) inside
// range r (-1: none), into its group.
func (kg *kernGrouper) add(i int, call int32, r int32) {
	key := kernGroupKey{name: -1, kname: kg.kn.ids[i]}
	var pid, tid = Null, Null
	if call >= 0 {
		j := kg.rc.rows[call]
		if !kg.g.IsNull(int(j)) {
			gt := kg.g.Ints[j]
			key.pid, key.tid, key.call = gPID(gt), gTID(gt), true
			pid, tid = IntV(key.pid), IntV(key.tid)
		}
	}
	if r >= 0 {
		key.name, key.style = kg.names[r], kg.d.flags[r]&nvStartEnd
	}
	gi, ok := kg.groups[key]
	if !ok {
		gi = int32(len(kg.gs))
		kg.groups[key] = gi
		kg.gs = append(kg.gs, &kernGroup{pid: pid, tid: tid, rng: r, style: key.style, kname: key.kname, lastKernel: -1})
	}
	gr := kg.gs[gi]
	if d, ok := dur(kg.ks, kg.ke, i); ok {
		gr.agg.Add(d)
	} else {
		gr.agg.AddNull()
	}
	if gr.lastKernel != i {
		gr.lastKernel = i
		gr.kernInst++
	}
	if r >= 0 {
		sk := uint64(gi)<<32 | uint64(uint32(r))
		if _, dup := kg.seenRange[sk]; !dup {
			kg.seenRange[sk] = struct{}{}
			gr.nvtxInst++
		}
	}
}

// kernRowKey is the part of an nvtx_kern_sum row the sort compares.
type kernRowKey struct {
	name, style, kname, total Value
}

// kernRowKeys computes each group's range name and style (NULL outside
// ranges), kernel name and total time.
func kernRowKeys(d *nvtxData, kn *kernNames, gs []*kernGroup) []kernRowKey {
	keys := make([]kernRowKey, len(gs))
	for x, gr := range gs {
		name, style := Null, Null
		if gr.rng >= 0 {
			n := d.name(int(gr.rng))
			name, style = TextV(n), TextV(nvtxStyle(gr.style))
		}
		keys[x] = kernRowKey{name, style, kn.dict[gr.kname], gr.agg.Sum()}
	}
	return keys
}

// kernRowOrder orders the groups by range name, PID, TID, total time
// (descending), style and kernel name; ties keep first-seen order.
func kernRowOrder(gs []*kernGroup, keys []kernRowKey) []int {
	order := make([]int, len(gs))
	for x := range order {
		order[x] = x
	}
	sort.SliceStable(order, func(a, b int) bool {
		ka, kb := keys[order[a]], keys[order[b]]
		ga, gb := gs[order[a]], gs[order[b]]
		for _, cmp := range [...]int{Compare(ka.name, kb.name), Compare(ga.pid, gb.pid), Compare(ga.tid, gb.tid),
			-Compare(ka.total, kb.total), Compare(ka.style, kb.style), Compare(ka.kname, kb.kname)} {
			if cmp != 0 {
				return cmp < 0
			}
		}
		return false
	})
	return order
}
