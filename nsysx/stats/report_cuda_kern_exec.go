package stats

func init() {
	register(&Report{Name: "cuda_kern_exec_sum", Title: "CUDA Kernel Launch & Exec Time Summary", Aliases: []string{"kernexecsum"},
		Help:    "Per launching thread, API and kernel: API time, queue time (launch to start) and kernel time statistics.",
		Options: kernelNameOpts, Run: runKernExec(false)})
	register(&Report{Name: "cuda_kern_exec_trace", Title: "CUDA Kernel Launch & Exec Time Trace", Aliases: []string{"kernexectrace"},
		Help:    "Every kernel with its launching API call: API duration, queue time, kernel duration and total latency.",
		Options: kernelNameOpts, Run: runKernExec(true)})
}

// execPair is a kernel row and the row of a runtime call that launched it.
type execPair struct{ k, r int32 }

// kernExec is the join both reports start from: every kernel with the
// runtime call(s) that launched it, and the calls' names.
type kernExec struct {
	k, rt          *Table
	names          *kernNames
	pairs          []execPair // in kernel row order, then runtime row order
	rs, re, rg, rn *Column    // runtime start, end, globalTid, nameId
	ks, ke, kd     *Column    // kernel start, end, deviceId
	api            apiNames
}

func runKernExec(trace bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := c.SkipNoStrings(); skip {
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

// loadKernExec loads both tables at once (the kernel name columns with the
// others, so that the kernel table is read once) and joins them.
func loadKernExec(c *Ctx, trace bool) (*kernExec, *Result, error) {
	kcols := append([]string{"start", "end", "deviceId", "correlationId", "globalPid"}, kernelNameCols(c)...)
	if trace {
		kcols = append(kcols, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ")
	}
	if err := c.Prefetch(append([]string{tKernel}, kcols...), []string{tRuntime, "start", "end", "globalTid", "correlationId", "nameId"}); err != nil {
		return nil, nil, err
	}
	k, err := kernels(c).Load(kcols...)
	if err != nil {
		return nil, nil, err
	}
	names, skip, err := kernelNames(c)
	if skip != nil || err != nil {
		return nil, skip, err
	}
	ri, err := loadRuntimeIndex(c, false, "nameId")
	if err != nil {
		return nil, nil, err
	}
	x := &kernExec{k: k, rt: ri.t, names: names, pairs: make([]execPair, 0, k.N)}
	var buf []int32
	var cur runtimeCursor
	kc, kg := k.Col("correlationId"), k.Col("globalPid")
	for i := 0; i < k.N; i++ {
		if kc.IsNull(i) || kg.IsNull(i) {
			continue
		}
		buf = cur.match(ri, kg.Ints[i], kc.Ints[i], buf)
		for _, j := range buf {
			x.pairs = append(x.pairs, execPair{int32(i), j})
		}
	}
	x.rs, x.re, x.rg, x.rn = ri.t.Col("start"), ri.t.Col("end"), ri.t.Col("globalTid"), ri.t.Col("nameId")
	x.ks, x.ke, x.kd = k.Col("start"), k.Col("end"), k.Col("deviceId")
	x.api = newAPINames(c, x.rn, x.pairs)
	return x, nil, nil
}

// apiNames numbers the distinct names (version suffix stripped) of the
// launching calls, all resolved up front: the trace's cells read them
// concurrently.
type apiNames struct {
	rn   *Column
	ids  map[int64]int32 // nameId -> index into dict
	null int32           // index of a NULL nameId's name
	dict []Value
}

func newAPINames(c *Ctx, rn *Column, pairs []execPair) apiNames {
	a := apiNames{rn: rn, ids: map[int64]int32{}, null: -1}
	var d kernNames // its dictionary only: names interned as the kernels' are
	byName := map[Value]int32{}
	intern := func(v Value) int32 { return d.intern(v, byName) }
	last := int64(-1) // the previous pair's nameId: launches are mostly of one API
	for _, p := range pairs {
		j := int(p.r)
		if rn.IsNull(j) {
			if a.null < 0 {
				a.null = intern(Null)
			}
			continue
		}
		if id := rn.Ints[j]; id != last || len(a.ids) == 0 {
			if _, ok := a.ids[id]; !ok {
				a.ids[id] = intern(stripV(c.Str(rn, j)))
			}
			last = id
		}
	}
	a.dict = d.dict
	return a
}

// id is the name index of runtime row j (one of the pairs').
func (a *apiNames) id(j int) int32 {
	if a.rn.IsNull(j) {
		return a.null
	}
	return a.ids[a.rn.Ints[j]]
}

func (a *apiNames) of(j int) Value { return a.dict[a.id(j)] }
