package nsysx

import "strconv"

func init() {
	register(&Report{Name: "cuda_gpu_trace", Title: "CUDA GPU Trace", Aliases: []string{"gputrace"},
		Help:    "Every GPU kernel, memory copy and memset in start order, with launch geometry, sizes, throughput, device, context and stream.",
		Options: kernelNameOpts, run: runGPUTrace})
}

func zeroEmpty(c *Column, i int) Value {
	if c == nil || c.IsNull(i) || c.Int(i) == 0 {
		return Null
	}
	return IntV(c.Int(i))
}

func runGPUTrace(c *Ctx) (*Result, error) {
	if r, skip := c.skipNoStrings(); skip {
		return r, nil
	}
	if !c.Has("TARGET_INFO_GPU") {
		return c.Skip(c.Path() + " file does not contain TARGET_INFO_GPU table.")
	}
	var names *kernNames
	if c.Has(tKernel) {
		var skip *Result
		var err error
		names, skip, err = c.kernelNames()
		if skip != nil || err != nil {
			return skip, err
		}
	}
	if c.Has(tMemcpy) && !c.Has("ENUM_CUDA_MEMCPY_OPER") {
		return c.Skip(c.Path() + " does not contain ENUM_CUDA_MEMCPY_OPER table.")
	}
	if (c.Has(tMemcpy) || c.Has(tMemset)) && !c.Has("ENUM_CUDA_MEM_KIND") {
		return c.Skip(c.Path() + " does not contain ENUM_CUDA_MEM_KIND table.")
	}
	if !c.Has(tKernel) && !c.Has(tMemcpy) && !c.Has(tMemset) {
		return c.Skip(c.Path() + " does not contain GPU trace data.")
	}
	for _, t := range []string{tKernel, tMemcpy, tMemset} {
		if c.Has(t) && !c.P.HasColumn(t, "greenContextId") {
			return c.Skip(c.Path() + " does not contain 'greenContextId' column. Please re-export the report file with a recent version of Nsight Systems.")
		}
	}
	gpus := map[int64]string{}
	if g, err := c.LoadRaw("TARGET_INFO_GPU", "id", "name"); err == nil {
		for i := 0; i < g.N; i++ {
			gpus[g.Col("id").Int(i)] = g.Col("name").Str(i)
		}
	}
	common := []string{"start", "end", "correlationId", "deviceId", "contextId", "greenContextId", "streamId"}
	var srcs [3]*Table
	specs := [][]string{
		append([]string{tKernel}, append(common, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory")...),
		append([]string{tMemcpy}, append(common, "bytes", "copyKind", "srcKind", "dstKind")...),
		append([]string{tMemset}, append(common, "bytes", "memKind")...),
	}
	if err := c.Prefetch(specs...); err != nil {
		return nil, err
	}
	for w, sp := range specs {
		if c.Has(sp[0]) {
			t, err := c.Load(sp[0], sp[1:]...)
			if err != nil {
				return nil, err
			}
			srcs[w] = t
		}
	}
	var kinds, copyNames map[int64]string
	var err error
	if srcs[1] != nil || srcs[2] != nil {
		if kinds, err = c.enumLabels("ENUM_CUDA_MEM_KIND"); err != nil {
			return nil, err
		}
	}
	if srcs[1] != nil {
		if copyNames, err = c.memcpyNames(); err != nil {
			return nil, err
		}
	}
	// Device names, made up front: the computed columns below must be safe
	// for concurrent use (formatters render chunks of rows in parallel).
	devNames := map[int64]Value{}
	for _, t := range srcs {
		if t == nil {
			continue
		}
		d := t.Col("deviceId")
		for i := 0; i < t.N; i++ {
			if id := d.Ints[i]; !d.IsNull(i) {
				if _, ok := devNames[id]; !ok {
					devNames[id] = TextV(gpus[id] + " (" + strconv.FormatInt(id, 10) + ")")
				}
			}
		}
	}
	device := func(t *Table, i int) Value {
		d := t.Col("deviceId")
		if d.IsNull(i) {
			return TextV(" ()")
		}
		return devNames[d.Ints[i]]
	}
	order := gpuTraceOrder(srcs)
	// cell(i) locates row i: the source table and its row.
	at := func(i int) (int, *Table, int) {
		o := order[i]
		w := int(o >> 30)
		return w, srcs[w], int(o & (1<<30 - 1))
	}
	n := len(order)
	res := &Result{Report: c.Report.Name, Title: c.Report.Title}
	add := func(name string, kind Kind, fn func(w int, t *Table, r int) Value) {
		res.Cols = append(res.Cols, ComputedCol(name, kind, n, func(i int) Value { return fn(at(i)) }))
	}
	cols := func(name string) (out [3]*Column) {
		for w, t := range srcs {
			out[w] = t.Col(name)
		}
		return out
	}
	col := func(name string) func(w int, t *Table, r int) Value {
		cs := cols(name)
		return func(w int, t *Table, r int) Value { return nv(cs[w], r) }
	}
	kernelOnly := func(name string) func(w int, t *Table, r int) Value {
		c := srcs[0].Col(name)
		return func(w int, t *Table, r int) Value {
			if w != 0 {
				return Null
			}
			return nv(c, r)
		}
	}
	memOnly := func(f func(t *Table, r int) Value) func(w int, t *Table, r int) Value {
		return func(w int, t *Table, r int) Value {
			if w == 0 {
				return Null
			}
			return f(t, r)
		}
	}
	label := func(m map[int64]string, name string) func(t *Table, r int) Value {
		return func(t *Table, r int) Value {
			c := t.Col(name)
			if c == nil || c.IsNull(r) {
				return Null
			}
			if s, ok := m[c.Ints[r]]; ok {
				return TextV(s)
			}
			return Null
		}
	}
	duration := func(t *Table, r int) Value { // computed while formatting: dur's overflow panic must not reach here
		st, en := t.Col("start"), t.Col("end")
		if st.IsNull(r) || en.IsNull(r) {
			return Null
		}
		return IntV(en.Ints[r] - st.Ints[r])
	}
	add("Start:ts_ns", IntKind, col("start"))
	add("Duration:dur_ns", IntKind, func(w int, t *Table, r int) Value { return duration(t, r) })
	add("CorrId", IntKind, col("correlationId"))
	for _, g := range [][2]string{{"GrdX", "gridX"}, {"GrdY", "gridY"}, {"GrdZ", "gridZ"}, {"BlkX", "blockX"}, {"BlkY", "blockY"}, {"BlkZ", "blockZ"},
		{"Reg/Trd", "registersPerThread"}, {"StcSMem:mem_B", "staticSharedMemory"}, {"DymSMem:mem_B", "dynamicSharedMemory"}} {
		add(g[0], IntKind, kernelOnly(g[1]))
	}
	add("Bytes:mem_B", IntKind, memOnly(func(t *Table, r int) Value { return nv(t.Col("bytes"), r) }))
	add("Throughput:thru_B", IntKind, memOnly(func(t *Table, r int) Value {
		b, d := t.Col("bytes"), duration(t, r)
		if b.IsNull(r) || d.Kind != IntKind || d.I == 0 {
			return Null
		}
		return IntV(b.Ints[r] * (1000000000 / d.I))
	}))
	src, dst, mem := label(kinds, "srcKind"), label(kinds, "dstKind"), label(kinds, "memKind")
	add("SrcMemKd", TextKind, func(w int, t *Table, r int) Value {
		switch w {
		case 1:
			return src(t, r)
		case 2:
			return mem(t, r)
		}
		return Null
	})
	add("DstMemKd", TextKind, func(w int, t *Table, r int) Value {
		if w == 1 {
			return dst(t, r)
		}
		return Null
	})
	add("Device", TextKind, func(w int, t *Table, r int) Value { return device(t, r) })
	add("Ctx", IntKind, func(w int, t *Table, r int) Value { return zeroEmpty(t.Col("contextId"), r) })
	add("GreenCtx", IntKind, func(w int, t *Table, r int) Value { return zeroEmpty(t.Col("greenContextId"), r) })
	add("Strm", IntKind, func(w int, t *Table, r int) Value { return zeroEmpty(t.Col("streamId"), r) })
	memset := TextV("[CUDA memset]")
	add("Name", TextKind, func(w int, t *Table, r int) Value {
		switch w {
		case 0:
			return names.at(r)
		case 1:
			ck := t.Col("copyKind")
			if !ck.IsNull(r) {
				if s, ok := copyNames[ck.Ints[r]]; ok {
					return TextV(s)
				}
			}
			return Null
		}
		return memset
	})
	return res, nil
}

// gpuTraceOrder merges kernels, memcpys and memsets by start; ties put
// kernels first, then memcpys, then memsets, each in rowid order. Entry k is
// source<<30 | row.
func gpuTraceOrder(srcs [3]*Table) []uint32 {
	var orders [3][]int
	total := 0
	for w, t := range srcs {
		if t != nil {
			orders[w] = sortedByStart(t)
			total += t.N
		}
	}
	out := make([]uint32, 0, total)
	var pos [3]int
	for {
		best := -1
		var bs int64
		for w := 0; w < 3; w++ {
			if pos[w] >= len(orders[w]) {
				continue
			}
			v := srcs[w].Col("start").Ints[orders[w][pos[w]]]
			if best < 0 || v < bs {
				best, bs = w, v
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, uint32(best)<<30|uint32(orders[best][pos[best]]))
		pos[best]++
	}
}
