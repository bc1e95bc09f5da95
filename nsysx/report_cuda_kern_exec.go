package nsysx

func init() {
	register(&Report{Name: "cuda_kern_exec_sum", Title: "CUDA Kernel Launch & Exec Time Summary", Aliases: []string{"kernexecsum"},
		Help:    "Per launching thread, API and kernel: API time, queue time (launch to start) and kernel time statistics.",
		Options: kernelNameOpts, run: runKernExec(false)})
	register(&Report{Name: "cuda_kern_exec_trace", Title: "CUDA Kernel Launch & Exec Time Trace", Aliases: []string{"kernexectrace"},
		Help:    "Every kernel with its launching API call: API duration, queue time, kernel duration and total latency.",
		Options: kernelNameOpts, run: runKernExec(true)})
}

type execPair struct {
	k, r int // kernel row, runtime row
}

// kernExec is the join both reports start from: every kernel with the
// runtime call(s) that launched it.
type kernExec struct {
	k, rt          *Table
	names          *kernNames
	pairs          []execPair
	rs, re, rg, rn *Column // runtime start, end, globalTid, nameId
	ks, ke, kd     *Column // kernel start, end, deviceId
	api            apiNames
	devDict        []Value // devices, when deviceId is not an integer column
}

func runKernExec(trace bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := c.skipNoStrings(); skip {
			return r, nil
		}
		if !c.Has(tKernel) {
			return c.Skip(c.Path() + " does not contain CUDA kernel data.")
		}
		if !c.Has(tRuntime) {
			return c.Skip(c.Path() + " does not contain CUDA API data.")
		}
		x, skip, err := loadKernExec(c, trace)
		if skip != nil || err != nil {
			return skip, err
		}
		if trace {
			return kernExecTrace(c, x), nil
		}
		return kernExecSum(c, x), nil
	}
}

func loadKernExec(c *Ctx, trace bool) (*kernExec, *Result, error) {
	kcols := []string{"start", "end", "deviceId", "correlationId", "globalPid"}
	if trace {
		kcols = append(kcols, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ")
	}
	if err := c.Prefetch(append([]string{tKernel}, kcols...), []string{tRuntime, "start", "end", "globalTid", "correlationId", "nameId"}); err != nil {
		return nil, nil, err
	}
	k, err := c.Load(tKernel, kcols...)
	if err != nil {
		return nil, nil, err
	}
	names, skip, err := c.kernelNames()
	if skip != nil || err != nil {
		return nil, skip, err
	}
	ri, err := c.runtimeIndex(false, "nameId")
	if err != nil {
		return nil, nil, err
	}
	x := &kernExec{k: k, rt: ri.t, names: names}
	var buf []int32
	var cur runtimeCursor
	kc, kg := k.Col("correlationId"), k.Col("globalPid")
	for i := 0; i < k.N; i++ {
		if kc.IsNull(i) || kg.IsNull(i) {
			continue
		}
		buf = cur.match(ri, kg.Ints[i], kc.Ints[i], buf)
		for _, j := range buf {
			x.pairs = append(x.pairs, execPair{i, int(j)})
		}
	}
	x.rs, x.re, x.rg, x.rn = ri.t.Col("start"), ri.t.Col("end"), ri.t.Col("globalTid"), ri.t.Col("nameId")
	x.ks, x.ke, x.kd = k.Col("start"), k.Col("end"), k.Col("deviceId")
	x.api = apiNames{c: c, rn: x.rn, name: map[int64]Value{}, ids: map[int64]int32{}, byName: map[Value]int32{}}
	return x, nil, nil
}

// apiNames resolves runtime calls' names (version suffix stripped) and
// numbers the distinct ones, so that grouping hashes integers.
type apiNames struct {
	c      *Ctx
	rn     *Column
	name   map[int64]Value // nameId -> stripped name
	ids    map[int64]int32 // nameId (-1: NULL) -> index into dict
	byName map[Value]int32
	dict   []Value
}

func (a *apiNames) of(j int) Value {
	if a.rn.IsNull(j) {
		return Null
	}
	v, ok := a.name[a.rn.Ints[j]]
	if !ok {
		v = stripV(a.c.Str(a.rn, j))
		a.name[a.rn.Ints[j]] = v
	}
	return v
}

func (a *apiNames) id(j int) int32 {
	k := int64(-1)
	if !a.rn.IsNull(j) {
		k = a.rn.Ints[j]
	}
	x, ok := a.ids[k]
	if !ok {
		v := a.of(j)
		if x, ok = a.byName[v]; !ok {
			x = int32(len(a.dict))
			a.dict = append(a.dict, v)
			a.byName[v] = x
		}
		a.ids[k] = x
	}
	return x
}

func kernExecTrace(c *Ctx, x *kernExec) *Result {
	res := NewResult(c.Report.Name, c.Report.Title, "API Start:ts_ns", "API Dur:dur_ns", "Queue Start:ts_ns", "Queue Dur:dur_ns",
		"Kernel Start:ts_ns", "Kernel Dur:dur_ns", "Total Dur:dur_ns", "PID", "TID", "DevId", "API Function", "GridXYZ", "BlockXYZ", "Kernel Name")
	rs, re, ks, ke, k, pairs := x.rs.Ints, x.re.Ints, x.ks.Ints, x.ke.Ints, x.k, x.pairs
	// order: API start, ties by kernel rowid
	idx := make([]int, len(pairs))
	for i := range idx {
		idx[i] = i
	}
	sortStable(idx, func(a, b int) bool {
		if x, y := rs[pairs[a].r], rs[pairs[b].r]; x != y {
			return x < y
		}
		return pairs[a].k < pairs[b].k
	})
	for _, pi := range idx {
		p := pairs[pi]
		q := ks[p.k] - re[p.r]
		qs, qd := Null, Null
		if q >= 0 {
			qs, qd = IntV(re[p.r]), IntV(q)
		}
		g := x.rg.Ints[p.r]
		res.Add(IntV(rs[p.r]), IntV(re[p.r]-rs[p.r]), qs, qd, IntV(ks[p.k]), IntV(ke[p.k]-ks[p.k]), IntV(max(re[p.r], ke[p.k])-rs[p.r]),
			IntV(gPID(g)), IntV(gTID(g)), nv(x.kd, p.k), x.api.of(p.r),
			TextV(geometry(k.Col("gridX"), k.Col("gridY"), k.Col("gridZ"), p.k)),
			TextV(geometry(k.Col("blockX"), k.Col("blockY"), k.Col("blockZ"), p.k)), x.names.at(p.k))
	}
	return res
}

// execKey groups the summary: launching thread, device, API and kernel
// (all integers: the device as its value and whether it is NULL).
type execKey struct {
	pid, tid, dev int64
	api, ker      int32
	devNull       bool
}

type execGroup struct{ t, a, q, k Agg }

// dev is kernel i's device as a key: its value (an index into devDict if
// the column is not an integer one) and whether it is NULL.
func (x *kernExec) dev(i int) (int64, bool) {
	switch {
	case x.kd == nil || x.kd.IsNull(i):
		return 0, true
	case x.kd.Type == Int:
		return x.kd.Ints[i], false
	}
	v := x.kd.value(i)
	for j, d := range x.devDict {
		if d == v {
			return int64(j), false
		}
	}
	x.devDict = append(x.devDict, v)
	return int64(len(x.devDict) - 1), false
}

func kernExecSum(c *Ctx, x *kernExec) *Result {
	groups := map[execKey]*execGroup{}
	var keys []execKey
	rs, re, ks, ke := x.rs.Ints, x.re.Ints, x.ks.Ints, x.ke.Ints
	for _, p := range x.pairs {
		g := x.rg.Ints[p.r]
		kk := execKey{pid: gPID(g), tid: gTID(g), api: x.api.id(p.r), ker: x.names.ids[p.k]}
		kk.dev, kk.devNull = x.dev(p.k)
		gr := groups[kk]
		if gr == nil {
			gr = &execGroup{}
			groups[kk] = gr
			keys = append(keys, kk)
		}
		gr.a.Add(re[p.r] - rs[p.r])
		if q := ks[p.k] - re[p.r]; q >= 0 {
			gr.q.Add(q)
		} else {
			gr.q.AddNull()
		}
		gr.k.Add(ke[p.k] - ks[p.k])
		gr.t.Add(max(re[p.r], ke[p.k]) - rs[p.r])
	}
	return kernExecRows(c, x, groups, keys)
}

func kernExecRows(c *Ctx, x *kernExec, groups map[execKey]*execGroup, keys []execKey) *Result {
	cols := []string{"PID", "TID", "DevId", "Count", "QCount"}
	for _, p := range []string{"T", "A", "Q", "K"} {
		cols = append(cols, p+"Avg:dur_ns", p+"Med:dur_ns", p+"Min:dur_ns", p+"Max:dur_ns", p+"StdDev:dur_ns")
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(cols, "API Name", "Kernel Name")...)
	for _, kk := range keys {
		gr := groups[kk]
		dev := Null
		if !kk.devNull {
			dev = IntV(kk.dev)
			if x.kd.Type != Int {
				dev = x.devDict[kk.dev]
			}
		}
		row := []Value{IntV(kk.pid), IntV(kk.tid), dev, IntV(gr.k.Count()), IntV(int64(gr.q.N()))}
		for _, a := range []*Agg{&gr.t, &gr.a, &gr.q, &gr.k} {
			row = append(row, R1(a.Avg()), R1(a.Median()), a.Min(), a.Max(), R1(a.Stdev()))
		}
		res.Add(append(row, x.api.dict[kk.api], x.names.dict[kk.ker])...)
	}
	n := len(res.Cols)
	sortRows(res, byKeys(0, 1, 2, n-2, n-1))
	sortRows(res, byKeys(-6))
	return res
}
