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
	devNames := map[int64]Value{}
	device := func(t *Table, i int) Value {
		d := t.Col("deviceId")
		if d.IsNull(i) {
			return TextV(" ()")
		}
		v, ok := devNames[d.Ints[i]]
		if !ok {
			v = TextV(gpus[d.Ints[i]] + " (" + strconv.FormatInt(d.Ints[i], 10) + ")")
			devNames[d.Ints[i]] = v
		}
		return v
	}
	res := NewResult(c.Report.Name, c.Report.Title, "Start:ts_ns", "Duration:dur_ns", "CorrId", "GrdX", "GrdY", "GrdZ", "BlkX", "BlkY", "BlkZ",
		"Reg/Trd", "StcSMem:mem_B", "DymSMem:mem_B", "Bytes:mem_B", "Throughput:thru_B", "SrcMemKd", "DstMemKd", "Device", "Ctx", "GreenCtx", "Strm", "Name")
	common := []string{"start", "end", "correlationId", "deviceId", "contextId", "greenContextId", "streamId"}
	type src struct {
		t     *Table
		order []int
	}
	var srcs []src
	if c.Has(tKernel) {
		k, err := c.Load(tKernel, append(common, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory")...)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src{k, sortedByStart(k)})
	} else {
		srcs = append(srcs, src{})
	}
	var kinds map[int64]string
	var copyNames map[int64]string
	var err error
	if c.Has(tMemcpy) || c.Has(tMemset) {
		if kinds, err = c.enumLabels("ENUM_CUDA_MEM_KIND"); err != nil {
			return nil, err
		}
	}
	if c.Has(tMemcpy) {
		if copyNames, err = c.memcpyNames(); err != nil {
			return nil, err
		}
		m, err := c.Load(tMemcpy, append(common, "bytes", "copyKind", "srcKind", "dstKind")...)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src{m, sortedByStart(m)})
	} else {
		srcs = append(srcs, src{})
	}
	if c.Has(tMemset) {
		m, err := c.Load(tMemset, append(common, "bytes", "memKind")...)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src{m, sortedByStart(m)})
	} else {
		srcs = append(srcs, src{})
	}
	label := func(m map[int64]string, col *Column, i int) Value {
		if col == nil || col.IsNull(i) {
			return Null
		}
		if s, ok := m[col.Ints[i]]; ok {
			return TextV(s)
		}
		return Null
	}
	row := make([]Value, 0, 21)
	emit := func(which int, i int) {
		t := srcs[which].t
		st, en := t.Col("start"), t.Col("end")
		d := Null
		if v, ok := dur(st, en, i); ok {
			d = IntV(v)
		}
		row = append(row[:0], nv(st, i), d, nv(t.Col("correlationId"), i))
		if which == 0 {
			for _, n := range []string{"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory"} {
				row = append(row, nv(t.Col(n), i))
			}
			row = append(row, Null, Null, Null, Null)
		} else {
			for range 9 {
				row = append(row, Null)
			}
			b := t.Col("bytes")
			tp := Null
			if !b.IsNull(i) && d.Kind == IntKind && d.I != 0 {
				tp = IntV(b.Ints[i] * (1000000000 / d.I))
			}
			row = append(row, nv(b, i), tp)
			if which == 1 {
				row = append(row, label(kinds, t.Col("srcKind"), i), label(kinds, t.Col("dstKind"), i))
			} else {
				row = append(row, label(kinds, t.Col("memKind"), i), Null)
			}
		}
		row = append(row, device(t, i), zeroEmpty(t.Col("contextId"), i), zeroEmpty(t.Col("greenContextId"), i), zeroEmpty(t.Col("streamId"), i))
		switch which {
		case 0:
			row = append(row, names.at(i))
		case 1:
			n := Null
			ck := t.Col("copyKind")
			if !ck.IsNull(i) {
				if s, ok := copyNames[ck.Ints[i]]; ok {
					n = TextV(s)
				}
			}
			row = append(row, n)
		default:
			row = append(row, TextV("[CUDA memset]"))
		}
		res.Add(row...)
	}
	// three-way merge by start; ties: kernels, then memcpys, then memsets.
	pos := make([]int, 3)
	for {
		best := -1
		var bs int64
		for w := 0; w < 3; w++ {
			s := srcs[w]
			if s.t == nil || pos[w] >= len(s.order) {
				continue
			}
			v := s.t.Col("start").Ints[s.order[pos[w]]]
			if best < 0 || v < bs {
				best, bs = w, v
			}
		}
		if best < 0 {
			break
		}
		emit(best, srcs[best].order[pos[best]])
		pos[best]++
	}
	return res, nil
}
