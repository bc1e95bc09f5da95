package nsysx

import "slices"

// The GPU operation set of gpu_gaps and gpu_time_util (§5.6; nsys's
// gpustats.GPUOperation): per API, the operations with start > 0, grouped by
// (pid, device), plus the eligible PROFILER_OVERHEAD rows copied into every
// group of their process whose span strictly contains them.

// opSource is one API's operation tables and how their ids are named.
type opSource struct {
	api      string   // the hidden _API value
	tables   []string // operation tables, in union order
	gid      string   // the global id column (pid = bits 24..47)
	dev, ctx string   // device and context columns
	needGPU  bool     // a missing `gpu` column is a SKIPPED, as in nsys
	overhead []string // eligible PROFILER_OVERHEAD names
}

var opSources = []opSource{
	{api: "cuda", tables: []string{tKernel, tMemcpy, tMemset}, gid: "globalPid", dev: "deviceId", ctx: "contextId",
		overhead: []string{"CUDA profiling data flush overhead", "CUDA profiling stop overhead", "CUDA profiling overhead"}},
	{api: "vulkan", tables: []string{"VULKAN_WORKLOAD"}, gid: "globalTid", dev: "gpu", ctx: "contextId", needGPU: true,
		overhead: []string{"Vulkan profiling overhead"}},
	{api: "opengl", tables: []string{"OPENGL_WORKLOAD"}, gid: "globalTid", dev: "gpu", ctx: "contextId",
		overhead: []string{"OpenGL profiling overhead"}},
	{api: "dx12", tables: []string{"DX12_WORKLOAD"}, gid: "globalTid", dev: "gpu", ctx: "shortContextId", needGPU: true,
		overhead: []string{"DX12 profiling overhead"}},
}

// presentSources returns the sources with at least one table in the profile.
func (c *Ctx) presentSources() []opSource {
	var out []opSource
	for _, s := range opSources {
		var tabs []string
		for _, t := range s.tables {
			if c.Has(t) {
				tabs = append(tabs, t)
			}
		}
		if len(tabs) > 0 {
			s.tables = tabs
			out = append(out, s)
		}
	}
	return out
}

// gpuRuleSetup runs the checks every GPU-operation rule starts with and the
// common option handling; a non-nil Result is SKIPPED.
func (c *Ctx) gpuRuleSetup() ([]opSource, ruleArgs, *Result, error) {
	srcs := c.presentSources()
	if len(srcs) == 0 {
		r, _ := c.Skip(c.Path() + " could not be analyzed because it does not contain the required data. Does the application launch GPU operations?")
		return nil, ruleArgs{}, r, nil
	}
	for _, s := range srcs {
		if s.needGPU && !c.P.HasColumn(s.tables[0], "gpu") {
			r, _ := c.Skip(c.Path() + " could not be analyzed due to missing 'gpu'. Please re-export the report file with a recent version of Nsight Systems.")
			return nil, ruleArgs{}, r, nil
		}
	}
	a, skip, err := c.ruleSetup(false)
	return srcs, a, skip, err
}

// opGroup is one (pid, device) of one API.
type opGroup struct {
	pid, dev         int64
	pidNull, devNull bool  // NULL keys: such a group never matches an op
	start0, end0     int64 // span of its operations
	rep              int32 // the op whose ids the group reports (first with the greatest end)
	first, n         int32 // its ops are idx[first : first+n] of gpuOps.byGroup
}

// gpuOps are the operations of one API, in union order: eligible overhead
// rows first, then each table's rows with start > 0, in row order.
type gpuOps struct {
	start, end []int64
	grp        []int32   // group of each op
	groups     []opGroup // in (pid, device) order, NULL first
	byGroup    []int32   // op indexes grouped by group, each group in union order
	nOver      int       // ops [0, nOver) are overhead rows
	over       []int32   // for overhead op k, the op whose ids it carries
	tabs       []*Table  // the loaded tables
	offs       []int     // op index of each table's first op
	rows       [][]int32 // the table row of each op, per table
	src        opSource
}

// loadGPUOps builds the operation set of one source (filtered tables).
func (c *Ctx) loadGPUOps(s opSource) (*gpuOps, error) {
	cols := []string{"start", "end", s.gid, s.dev, s.ctx}
	specs := make([][]string, 0, len(s.tables))
	for _, t := range s.tables {
		specs = append(specs, append([]string{t}, cols...))
	}
	if err := c.Prefetch(specs...); err != nil {
		return nil, err
	}
	o := &gpuOps{src: s}
	type gkey struct {
		pid, dev         int64
		pidNull, devNull bool
	}
	gidx := map[gkey]int32{}
	var keys []gkey
	var last gkey
	lastG := int32(-1)
	for _, tn := range s.tables {
		t, err := c.Load(tn, cols...)
		if err != nil {
			return nil, err
		}
		o.tabs = append(o.tabs, t)
		o.offs = append(o.offs, len(o.start))
		st, en, g, d := t.Col("start"), t.Col("end"), t.Col(s.gid), t.Col(s.dev)
		rows := make([]int32, 0, t.N)
		for i := 0; i < t.N; i++ {
			if st.IsNull(i) || en.IsNull(i) || st.Ints[i] <= 0 {
				continue
			}
			k := gkey{pidNull: g.IsNull(i), devNull: d.IsNull(i)}
			if !k.pidNull {
				k.pid = gPID(g.Ints[i])
			}
			if !k.devNull {
				k.dev = d.Ints[i]
			}
			if lastG < 0 || k != last {
				gi, ok := gidx[k]
				if !ok {
					gi = int32(len(keys))
					gidx[k] = gi
					keys = append(keys, k)
				}
				last, lastG = k, gi
			}
			o.start = append(o.start, st.Ints[i])
			o.end = append(o.end, en.Ints[i])
			o.grp = append(o.grp, lastG)
			rows = append(rows, int32(i))
		}
		o.rows = append(o.rows, rows)
	}
	// Groups in (pid, device) order, NULL first; spans and representatives.
	order := make([]int32, len(keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		ka, kb := keys[a], keys[b]
		if r := cmpNullInt(ka.pidNull, kb.pidNull, ka.pid, kb.pid); r != 0 {
			return r
		}
		return cmpNullInt(ka.devNull, kb.devNull, ka.dev, kb.dev)
	})
	rank := make([]int32, len(keys))
	o.groups = make([]opGroup, len(keys))
	for r, k := range order {
		rank[k] = int32(r)
		kk := keys[k]
		o.groups[r] = opGroup{pid: kk.pid, dev: kk.dev, pidNull: kk.pidNull, devNull: kk.devNull, rep: -1}
	}
	for i := range o.grp {
		o.grp[i] = rank[o.grp[i]]
		g := &o.groups[o.grp[i]]
		if g.rep < 0 {
			g.start0, g.end0, g.rep = o.start[i], o.end[i], int32(i)
			continue
		}
		g.start0 = min(g.start0, o.start[i])
		if o.end[i] > g.end0 {
			g.end0, g.rep = o.end[i], int32(i)
		}
	}
	if err := c.addOverhead(o); err != nil {
		return nil, err
	}
	o.index()
	return o, nil
}

// addOverhead prepends the eligible PROFILER_OVERHEAD rows: one op per group
// of the same (non-NULL) pid whose span strictly contains the row.
func (c *Ctx) addOverhead(o *gpuOps) error {
	if !c.Has("PROFILER_OVERHEAD") || !c.Has(tStrings) || len(o.groups) == 0 {
		return nil
	}
	names, err := c.stringsLike(func(v string) bool { return slices.Contains(o.src.overhead, v) })
	if err != nil || len(names) == 0 {
		return err
	}
	t, err := c.Load("PROFILER_OVERHEAD", "start", "end", "globalTid", "nameId")
	if err != nil {
		return err
	}
	st, en, g, nm := t.Col("start"), t.Col("end"), t.Col("globalTid"), t.Col("nameId")
	var start, end []int64
	var grp, over []int32
	for i := 0; i < t.N; i++ {
		if nm.IsNull(i) || g.IsNull(i) || st.IsNull(i) || en.IsNull(i) {
			continue
		}
		if _, ok := names[nm.Ints[i]]; !ok {
			continue
		}
		pid := gPID(g.Ints[i])
		for gi := range o.groups {
			gr := &o.groups[gi]
			if gr.pidNull || gr.pid != pid || st.Ints[i] <= gr.start0 || en.Ints[i] >= gr.end0 {
				continue
			}
			start = append(start, st.Ints[i])
			end = append(end, en.Ints[i])
			grp = append(grp, int32(gi))
			over = append(over, gr.rep)
		}
	}
	if len(start) == 0 {
		return nil
	}
	n := int32(len(start))
	o.start = append(start, o.start...)
	o.end = append(end, o.end...)
	o.grp = append(grp, o.grp...)
	for i := range over {
		over[i] += n
	}
	o.over = over
	o.nOver = len(start)
	for i := range o.offs {
		o.offs[i] += len(start)
	}
	for gi := range o.groups {
		o.groups[gi].rep += n
	}
	return nil
}

// index fills byGroup (a counting sort of the ops by group, stable).
func (o *gpuOps) index() {
	counts := make([]int32, len(o.groups)+1)
	for _, g := range o.grp {
		counts[g+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	for gi := range o.groups {
		o.groups[gi].first = counts[gi]
		o.groups[gi].n = counts[gi+1] - counts[gi]
	}
	o.byGroup = make([]int32, len(o.grp))
	for i, g := range o.grp {
		o.byGroup[counts[g]] = int32(i)
		counts[g]++
	}
}

// ops returns the op indexes of group gi in union order.
func (o *gpuOps) ops(gi int) []int32 {
	g := &o.groups[gi]
	return o.byGroup[g.first : g.first+g.n]
}

// ids returns the global id and context id an op reports: its own, or for
// an overhead op those of its group's representative.
func (o *gpuOps) ids(op int32) (gid, ctx Value) {
	if int(op) < o.nOver {
		op = o.over[op]
	}
	k := len(o.offs) - 1
	for k > 0 && int(op) < o.offs[k] {
		k--
	}
	t := o.tabs[k]
	row := int(o.rows[k][int(op)-o.offs[k]])
	return nv(t.Col(o.src.gid), row), nv(t.Col(o.src.ctx), row)
}

// keyValues are the PID and Device ID values of a group (NULL when NULL).
func (g *opGroup) keyValues() (pid, dev Value) {
	pid, dev = Null, Null
	if !g.pidNull {
		pid = IntV(g.pid)
	}
	if !g.devNull {
		dev = IntV(g.dev)
	}
	return
}
