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
		kcols := []string{"start", "end", "deviceId", "correlationId", "globalPid"}
		if trace {
			kcols = append(kcols, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ")
		}
		if err := c.Prefetch(append([]string{tKernel}, kcols...), []string{tRuntime, "start", "end", "globalTid", "correlationId", "nameId"}); err != nil {
			return nil, err
		}
		k, err := c.Load(tKernel, kcols...)
		if err != nil {
			return nil, err
		}
		names, skip, err := c.kernelNames()
		if skip != nil || err != nil {
			return skip, err
		}
		ri, err := c.runtimeIndex(false, "nameId")
		if err != nil {
			return nil, err
		}
		var pairs []execPair
		var buf []int32
		kc, kg := k.Col("correlationId"), k.Col("globalPid")
		for i := 0; i < k.N; i++ {
			if kc.IsNull(i) || kg.IsNull(i) {
				continue
			}
			buf = ri.match(kg.Ints[i], kc.Ints[i], buf)
			for _, j := range buf {
				pairs = append(pairs, execPair{i, int(j)})
			}
		}
		rt := ri.t
		rs, re, rg, rn := rt.Col("start"), rt.Col("end"), rt.Col("globalTid"), rt.Col("nameId")
		ks, ke, kd := k.Col("start"), k.Col("end"), k.Col("deviceId")
		apiName := map[int64]Value{}
		api := func(j int) Value {
			if rn.IsNull(j) {
				return Null
			}
			v, ok := apiName[rn.Ints[j]]
			if !ok {
				v = stripV(c.Str(rn, j))
				apiName[rn.Ints[j]] = v
			}
			return v
		}
		apiIDs := map[int64]int32{} // nameId -> index of its stripped name
		byName := map[Value]int32{}
		var apiDict []Value
		apiID := func(j int) int32 {
			k := int64(-1)
			if !rn.IsNull(j) {
				k = rn.Ints[j]
			}
			x, ok := apiIDs[k]
			if !ok {
				v := api(j)
				if x, ok = byName[v]; !ok {
					x = int32(len(apiDict))
					apiDict = append(apiDict, v)
					byName[v] = x
				}
				apiIDs[k] = x
			}
			return x
		}
		if trace {
			res := NewResult(c.Report.Name, c.Report.Title, "API Start:ts_ns", "API Dur:dur_ns", "Queue Start:ts_ns", "Queue Dur:dur_ns",
				"Kernel Start:ts_ns", "Kernel Dur:dur_ns", "Total Dur:dur_ns", "PID", "TID", "DevId", "API Function", "GridXYZ", "BlockXYZ", "Kernel Name")
			// order: API start, ties by kernel rowid
			idx := make([]int, len(pairs))
			for i := range idx {
				idx[i] = i
			}
			sortStable(idx, func(a, b int) bool {
				x, y := rs.Ints[pairs[a].r], rs.Ints[pairs[b].r]
				if x != y {
					return x < y
				}
				return pairs[a].k < pairs[b].k
			})
			for _, pi := range idx {
				p := pairs[pi]
				a := re.Ints[p.r] - rs.Ints[p.r]
				q := ks.Ints[p.k] - re.Ints[p.r]
				qs, qd := Null, Null
				if q >= 0 {
					qs, qd = IntV(re.Ints[p.r]), IntV(q)
				}
				tot := max(re.Ints[p.r], ke.Ints[p.k]) - rs.Ints[p.r]
				g := rg.Ints[p.r]
				res.Add(IntV(rs.Ints[p.r]), IntV(a), qs, qd, IntV(ks.Ints[p.k]), IntV(ke.Ints[p.k]-ks.Ints[p.k]), IntV(tot),
					IntV(gPID(g)), IntV(gTID(g)), nv(kd, p.k), api(p.r),
					TextV(geometry(k.Col("gridX"), k.Col("gridY"), k.Col("gridZ"), p.k)),
					TextV(geometry(k.Col("blockX"), k.Col("blockY"), k.Col("blockZ"), p.k)), names.at(p.k))
			}
			return res, nil
		}
		type key struct {
			pid, tid int64
			dev      Value
			api, ker int32
		}
		type grp struct{ t, a, q, k Agg }
		groups := map[key]*grp{}
		var keys []key
		for _, p := range pairs {
			g := rg.Ints[p.r]
			kk := key{gPID(g), gTID(g), nv(kd, p.k), apiID(p.r), names.ids[p.k]}
			gr := groups[kk]
			if gr == nil {
				gr = &grp{}
				groups[kk] = gr
				keys = append(keys, kk)
			}
			gr.a.Add(re.Ints[p.r] - rs.Ints[p.r])
			if q := ks.Ints[p.k] - re.Ints[p.r]; q >= 0 {
				gr.q.Add(q)
			} else {
				gr.q.AddNull()
			}
			gr.k.Add(ke.Ints[p.k] - ks.Ints[p.k])
			gr.t.Add(max(re.Ints[p.r], ke.Ints[p.k]) - rs.Ints[p.r])
		}
		cols := []string{"PID", "TID", "DevId", "Count", "QCount"}
		for _, p := range []string{"T", "A", "Q", "K"} {
			cols = append(cols, p+"Avg:dur_ns", p+"Med:dur_ns", p+"Min:dur_ns", p+"Max:dur_ns", p+"StdDev:dur_ns")
		}
		res := NewResult(c.Report.Name, c.Report.Title, append(cols, "API Name", "Kernel Name")...)
		for _, kk := range keys {
			gr := groups[kk]
			row := []Value{IntV(kk.pid), IntV(kk.tid), kk.dev, IntV(gr.k.Count()), IntV(int64(gr.q.N()))}
			for _, a := range []*Agg{&gr.t, &gr.a, &gr.q, &gr.k} {
				row = append(row, R1(a.Avg()), R1(a.Median()), a.Min(), a.Max(), R1(a.Stdev()))
			}
			res.Add(append(row, apiDict[kk.api], names.dict[kk.ker])...)
		}
		n := len(res.Cols)
		sortRows(res, byKeys(0, 1, 2, n-2, n-1))
		sortRows(res, byKeys(-6))
		return res, nil
	}
}
