package stats

import (
	"strconv"

	"github.com/nsysx/nsysx/nsysx/events"
)

func init() {
	register(&Report{Name: "cuda_gpu_trace", Title: "CUDA GPU Trace", Aliases: []string{"gputrace"},
		Help:    "Every GPU kernel, memory copy and memset in start order, with launch geometry, sizes, throughput, device, context and stream.",
		Options: kernelNameOpts, Run: runGPUTrace})
}

func zeroEmpty(c *Column, i int) Value {
	if c == nil || c.IsNull(i) || c.Int(i) == 0 {
		return Null
	}
	return IntV(c.Int(i))
}

func runGPUTrace(c *Ctx) (*Result, error) {
	names, skip, err := gpuTraceCheck(c)
	if skip != nil || err != nil {
		return skip, err
	}
	g := &gpuTrace{names: names}
	if err := g.load(c); err != nil {
		return nil, err
	}
	return g.result(c), nil
}

// gpuTraceCheck returns nsys's SKIPPED result when a table the trace needs
// is missing, else the kernel names (nil without kernels).
func gpuTraceCheck(c *Ctx) (*kernNames, *Result, error) {
	if r, skip := c.SkipNoStrings(); skip {
		return nil, r, nil
	}
	skip := func(msg string) (*kernNames, *Result, error) { r, err := c.Skip(c.Path() + msg); return nil, r, err }
	if !c.Has(events.TableTargetInfoGPU) {
		return skip(" file does not contain TARGET_INFO_GPU table.")
	}
	var names *kernNames
	if c.Has(tKernel) {
		var r *Result
		var err error
		if names, r, err = kernelNames(c); r != nil || err != nil {
			return nil, r, err
		}
	}
	switch {
	case c.Has(tMemcpy) && !c.Has(events.TableEnumCUDAMemcpyOper):
		return skip(" does not contain ENUM_CUDA_MEMCPY_OPER table.")
	case (c.Has(tMemcpy) || c.Has(tMemset)) && !c.Has(events.TableEnumCUDAMemKind):
		return skip(" does not contain ENUM_CUDA_MEM_KIND table.")
	case !c.Has(tKernel) && !c.Has(tMemcpy) && !c.Has(tMemset):
		return skip(" does not contain GPU trace data.")
	}
	for _, t := range []string{tKernel, tMemcpy, tMemset} {
		if c.Has(t) && !c.P.HasColumn(t, "greenContextId") {
			return skip(" does not contain 'greenContextId' column. Please re-export the report file with a recent version of Nsight Systems.")
		}
	}
	return names, nil, nil
}

// gpuTrace is what the trace's computed columns read: the kernel (0),
// memcpy (1) and memset (2) tables, their rows in output order, and the
// labels, all made up front: the columns must be safe for concurrent use
// (formatters render chunks of rows in parallel).
type gpuTrace struct {
	srcs             [3]*Table
	order            []uint32
	names            *kernNames
	kinds, copyNames map[int64]string
	devNames         map[int64]Value
}

func (g *gpuTrace) load(c *Ctx) error {
	common := []string{"start", "end", "correlationId", "deviceId", "contextId", "greenContextId", "streamId"}
	specs := [][]string{
		append([]string{tKernel}, append(common, "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory")...),
		append([]string{tMemcpy}, append(common, "bytes", "copyKind", "srcKind", "dstKind")...),
		append([]string{tMemset}, append(common, "bytes", "memKind")...),
	}
	if err := c.Prefetch(specs...); err != nil {
		return err
	}
	for w, sp := range specs {
		if c.Has(sp[0]) {
			t, err := c.View(sp[0]).Load(sp[1:]...)
			if err != nil {
				return err
			}
			g.srcs[w] = t
		}
	}
	var err error
	if g.srcs[1] != nil || g.srcs[2] != nil {
		if g.kinds, err = c.EnumLabels(events.TableEnumCUDAMemKind); err != nil {
			return err
		}
	}
	if g.srcs[1] != nil {
		if g.copyNames, err = memcpyNames(c); err != nil {
			return err
		}
	}
	if g.devNames, err = gpuDeviceNames(c, g.srcs); err != nil {
		return err
	}
	g.order = gpuTraceOrder(g.srcs)
	return nil
}

// gpuDeviceNames names each device of the tables: "NAME (id)". A
// TARGET_INFO_GPU that cannot be read fails the report (the prologue
// skips it when the table is absent).
func gpuDeviceNames(c *Ctx, srcs [3]*Table) (map[int64]Value, error) {
	gpus := map[int64]string{}
	g, err := c.LoadRaw(events.TableTargetInfoGPU, "id", "name")
	if err != nil {
		return nil, err
	}
	for i := 0; i < g.N; i++ {
		gpus[g.Col("id").Int(i)] = g.Col("name").Str(i)
	}
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
	return devNames, nil
}

// gpuCell is a cell function: source w (0 kernel, 1 memcpy, 2 memset), its table and row.
type gpuCell func(w int, t *Table, r int) Value

func (g *gpuTrace) result(c *Ctx) *Result {
	res := &Result{Report: c.Report.Name, Title: c.Report.Title}
	add := func(name string, kind Kind, fn gpuCell) {
		res.Cols = append(res.Cols, ComputedCol(name, kind, len(g.order), func(i int) Value {
			o := g.order[i]
			w := int(o >> 30)
			return fn(w, g.srcs[w], int(o&(1<<30-1)))
		}))
	}
	add("Start:ts_ns", IntKind, g.col("start"))
	add("Duration:dur_ns", IntKind, func(w int, t *Table, r int) Value { return gpuDuration(t, r) })
	add("CorrId", IntKind, g.col("correlationId"))
	for _, k := range [][2]string{{"GrdX", "gridX"}, {"GrdY", "gridY"}, {"GrdZ", "gridZ"}, {"BlkX", "blockX"}, {"BlkY", "blockY"}, {"BlkZ", "blockZ"},
		{"Reg/Trd", "registersPerThread"}, {"StcSMem:mem_B", "staticSharedMemory"}, {"DymSMem:mem_B", "dynamicSharedMemory"}} {
		add(k[0], IntKind, g.kernelOnly(k[1]))
	}
	add("Bytes:mem_B", IntKind, memOnly(func(t *Table, r int) Value { return nv(t.Col("bytes"), r) }))
	add("Throughput:thru_B", IntKind, memOnly(gpuThroughput))
	src, dst, mem := g.label("srcKind"), g.label("dstKind"), g.label("memKind")
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
	add("Device", TextKind, func(w int, t *Table, r int) Value { return g.device(t, r) })
	for _, k := range [][2]string{{"Ctx", "contextId"}, {"GreenCtx", "greenContextId"}, {"Strm", "streamId"}} {
		add(k[0], IntKind, func(w int, t *Table, r int) Value { return zeroEmpty(t.Col(k[1]), r) })
	}
	add("Name", TextKind, g.name)
	return res
}

// col is column name of every source.
func (g *gpuTrace) col(name string) gpuCell {
	var cs [3]*Column
	for w, t := range g.srcs {
		cs[w] = t.Col(name)
	}
	return func(w int, t *Table, r int) Value { return nv(cs[w], r) }
}

// kernelOnly is a kernel column, NULL for memory operations.
func (g *gpuTrace) kernelOnly(name string) gpuCell {
	c := g.srcs[0].Col(name)
	return func(w int, t *Table, r int) Value {
		if w != 0 {
			return Null
		}
		return nv(c, r)
	}
}

// memOnly is a memory operation's cell, NULL for kernels.
func memOnly(f func(t *Table, r int) Value) gpuCell {
	return func(w int, t *Table, r int) Value {
		if w == 0 {
			return Null
		}
		return f(t, r)
	}
}

// label is the memory kind label of column name.
func (g *gpuTrace) label(name string) func(t *Table, r int) Value {
	return func(t *Table, r int) Value {
		c := t.Col(name)
		if c == nil || c.IsNull(r) {
			return Null
		}
		if s, ok := g.kinds[c.Ints[r]]; ok {
			return TextV(s)
		}
		return Null
	}
}

func gpuDuration(t *Table, r int) Value { // computed while formatting: dur's overflow panic must not reach here
	st, en := t.Col("start"), t.Col("end")
	if st.IsNull(r) || en.IsNull(r) {
		return Null
	}
	return IntV(en.Ints[r] - st.Ints[r])
}

// gpuThroughput is bytes per second, as nsys computes it (integer division first).
func gpuThroughput(t *Table, r int) Value {
	b, d := t.Col("bytes"), gpuDuration(t, r)
	if b.IsNull(r) || d.Kind != IntKind || d.I == 0 {
		return Null
	}
	return IntV(b.Ints[r] * (1000000000 / d.I))
}

func (g *gpuTrace) device(t *Table, r int) Value {
	d := t.Col("deviceId")
	if d.IsNull(r) {
		return TextV(" ()")
	}
	return g.devNames[d.Ints[r]]
}

var memsetName = TextV("[CUDA memset]")

func (g *gpuTrace) name(w int, t *Table, r int) Value {
	switch w {
	case 0:
		return g.names.at(r)
	case 1:
		ck := t.Col("copyKind")
		if !ck.IsNull(r) {
			if s, ok := g.copyNames[ck.Ints[r]]; ok {
				return TextV(s)
			}
		}
		return Null
	}
	return memsetName
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
