package analyze

import (
	"slices"
	"sync"

	"github.com/nsysx/nsysx/nsysx/events"
)

// The GPU operation set of gpu_gaps and gpu_time_util (docs/stats.md §5.6; nsys's
// gpustats.GPUOperation): per API, the operations with start > 0, grouped by
// (pid, device), plus the eligible PROFILER_OVERHEAD rows copied into every
// group of their process whose span strictly contains them.
//
// The tables are streamed (filtered) rather than loaded as columns: an op
// keeps only its start, end, group and an index into the distinct
// (global id, context id) pairs, which is what the rules print.

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
	{api: "vulkan", tables: []string{events.TableVulkanWorkload}, gid: "globalTid", dev: "gpu", ctx: "contextId", needGPU: true,
		overhead: []string{"Vulkan profiling overhead"}},
	{api: "opengl", tables: []string{events.TableOPENGLWorkload}, gid: "globalTid", dev: "gpu", ctx: "contextId",
		overhead: []string{"OpenGL profiling overhead"}},
	{api: "dx12", tables: []string{events.TableDX12Workload}, gid: "globalTid", dev: "gpu", ctx: "shortContextId", needGPU: true,
		overhead: []string{"DX12 profiling overhead"}},
}

// presentSources returns the sources with at least one table in the profile.
func presentSources(c *Ctx) []opSource {
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
// common option handling, parse reading the rule's own options; a non-nil
// Result is SKIPPED.
func gpuRuleSetup(c *Ctx, parse func() error) ([]opSource, ruleArgs, *Result, error) {
	srcs := presentSources(c)
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
	a, skip, err := ruleSetup(c, false, parse)
	return srcs, a, skip, err
}

// groupKey identifies a (pid, device); NULL keys never match an op in SQL.
type groupKey struct {
	pid, dev         int64
	pidNull, devNull bool
}

// idPair is a (global id, context id) as an op reports it.
type idPair struct {
	gid, ctx         int64
	gidNull, ctxNull bool
}

// opGroup is one (pid, device) of one API.
type opGroup struct {
	groupKey
	start0, end0 int64 // span of its operations
	rep          int32 // the op whose ids the group reports (first with the greatest end)
	first, n     int32 // its ops are gpuOps.byGroup[first : first+n]
}

// gpuOps are the operations of one API. Ops [0, nTab) come from the tables,
// in table and row order; ops [nTab, len) are overhead rows. The union order
// nsys works in puts the overhead rows first.
type gpuOps struct {
	start, end []int64
	grp        []int32   // group of each op
	ids        []int32   // index into pairs
	pairs      []idPair  // distinct (global id, context id)
	groups     []opGroup // in (pid, device) order, NULL first
	byGroup    []int32   // op indexes by group, each group in union order
	nTab       int
	src        opSource
}

// opPart is what one table's scan yields: its ops in blocks (growing one
// big slice would copy it over and over), with part-local group and id
// indexes.
type opPart struct {
	blocks [][]opRec
	n      int
	keys   []groupKey
	pairs  []idPair
	err    error
}

// opRec is one scanned op.
type opRec struct {
	start, end int64
	grp, ids   int32
}

const opBlock = 1 << 14

// add appends one op.
func (p *opPart) add(r opRec) {
	if k := len(p.blocks); k == 0 || len(p.blocks[k-1]) == opBlock {
		p.blocks = append(p.blocks, make([]opRec, 0, opBlock))
	}
	b := &p.blocks[len(p.blocks)-1]
	*b = append(*b, r)
	p.n++
}

// scanOps streams one (filtered) table into a part: ops with start > 0 and
// their local group and id indexes.
func scanOps(c *Ctx, s opSource, table string) (p opPart) {
	sc, err := c.FilteredScanner(table, false, "start", "end", s.gid, s.dev, s.ctx)
	if err != nil {
		return opPart{err: err}
	}
	kidx := map[groupKey]int32{}
	pidx := map[idPair]int32{}
	var lastK groupKey
	var lastP idPair
	lk, lp := int32(-1), int32(-1)
	p.err = sc.Run(func(_ int64, v RowVals) {
		st, sNull := sqlInt(v, 0)
		en, eNull := sqlInt(v, 1)
		if sNull || eNull || st <= 0 {
			return
		}
		gid, gNull := sqlInt(v, 2)
		dev, dNull := sqlInt(v, 3)
		ctx, cNull := sqlInt(v, 4)
		k := groupKey{pidNull: gNull, devNull: dNull}
		if !gNull {
			k.pid = gPID(gid)
		}
		if !dNull {
			k.dev = dev
		}
		ip := idPair{gid: gid, ctx: ctx, gidNull: gNull, ctxNull: cNull}
		if lk < 0 || k != lastK {
			lastK, lk = k, internIndex(kidx, &p.keys, k)
		}
		if lp < 0 || ip != lastP {
			lastP, lp = ip, internIndex(pidx, &p.pairs, ip)
		}
		p.add(opRec{st, en, lk, lp})
	})
	return p
}

// loadGPUOps builds the operation set of one source. The tables are scanned
// concurrently and joined in union order.
func loadGPUOps(c *Ctx, s opSource) (*gpuOps, error) {
	for _, t := range s.tables {
		for _, col := range []string{"start", "end", s.gid, s.dev, s.ctx} {
			if !c.P.HasColumn(t, col) {
				return nil, &MissingColumnError{Table: t, Column: col}
			}
		}
	}
	parts := make([]opPart, len(s.tables))
	var wg sync.WaitGroup
	for i, t := range s.tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[i] = scanOps(c, s, t)
		}()
	}
	wg.Wait()
	n := 0
	for _, p := range parts {
		if p.err != nil {
			return nil, p.err
		}
		n += p.n
	}
	o := &gpuOps{src: s, nTab: n,
		start: make([]int64, 0, n), end: make([]int64, 0, n),
		grp: make([]int32, 0, n), ids: make([]int32, 0, n)}
	o.sortGroups(o.mergeParts(parts))
	if err := addOverhead(c, o); err != nil {
		return nil, err
	}
	o.index()
	return o, nil
}

// internIndex returns k's index in *list, appending k (and recording its
// index in idx) the first time it is seen.
func internIndex[K comparable](idx map[K]int32, list *[]K, k K) int32 {
	i, ok := idx[k]
	if !ok {
		i = int32(len(*list))
		idx[k] = i
		*list = append(*list, k)
	}
	return i
}

// internAll interns every key of src (see internIndex) and returns their
// indexes in *list, in src order.
func internAll[K comparable](idx map[K]int32, list *[]K, src []K) []int32 {
	m := make([]int32, len(src))
	for j, k := range src {
		m[j] = internIndex(idx, list, k)
	}
	return m
}

// mergeParts appends the operations of the tables' parts, in table order,
// renumbering their group keys and id pairs; it returns the group keys.
func (o *gpuOps) mergeParts(parts []opPart) []groupKey {
	kidx := map[groupKey]int32{}
	var keys []groupKey
	pidx := map[idPair]int32{}
	for i := range parts {
		p := &parts[i]
		kmap := internAll(kidx, &keys, p.keys)
		pmap := internAll(pidx, &o.pairs, p.pairs)
		for _, b := range p.blocks {
			for _, r := range b {
				o.start = append(o.start, r.start)
				o.end = append(o.end, r.end)
				o.grp = append(o.grp, kmap[r.grp])
				o.ids = append(o.ids, pmap[r.ids])
			}
		}
		*p = opPart{} // let the part go
	}
	return keys
}

// sortGroups numbers the groups in (pid, device) order, NULL first, and
// computes their spans and representatives.
func (o *gpuOps) sortGroups(keys []groupKey) {
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
		o.groups[r] = opGroup{groupKey: keys[k], rep: -1}
	}
	for i := range o.grp {
		o.grp[i] = rank[o.grp[i]]
		g := &o.groups[o.grp[i]]
		if g.rep < 0 {
			g.start0, g.end0, g.rep = o.start[i], o.end[i], int32(i)
			continue
		}
		g.start0 = min(g.start0, o.start[i])
		// SQLite's max() keeps the first row holding the greatest value,
		// and the bare columns come from that row.
		if o.end[i] > g.end0 {
			g.end0, g.rep = o.end[i], int32(i)
		}
	}
}

// addOverhead appends the eligible PROFILER_OVERHEAD rows (filtered): one
// op per group of the same (non-NULL) pid whose span strictly contains the
// row, carrying the ids of the group's representative.
func addOverhead(c *Ctx, o *gpuOps) error {
	if !c.Has(events.TableProfilerOverhead) || !c.Has(tStrings) || len(o.groups) == 0 {
		return nil
	}
	names, err := stringsLike(c, func(v string) bool { return slices.Contains(o.src.overhead, v) })
	if err != nil || len(names) == 0 {
		return err
	}
	sc, err := c.FilteredScanner(events.TableProfilerOverhead, false, "start", "end", "globalTid", "nameId")
	if err != nil {
		return err
	}
	return sc.Run(func(_ int64, v RowVals) {
		if v.Null(0) || v.Null(1) || v.Null(2) || v.Null(3) {
			return
		}
		if _, ok := names[v.Int(3)]; !ok {
			return
		}
		s, e, pid := v.Int(0), v.Int(1), gPID(v.Int(2))
		for gi := range o.groups {
			gr := &o.groups[gi]
			if gr.pidNull || gr.pid != pid || s <= gr.start0 || e >= gr.end0 {
				continue
			}
			o.start = append(o.start, s)
			o.end = append(o.end, e)
			o.grp = append(o.grp, int32(gi))
			o.ids = append(o.ids, o.ids[gr.rep])
		}
	})
}

// index fills byGroup: the ops grouped by group, each group in union order
// (overhead rows, then table rows).
func (o *gpuOps) index() {
	next := make([]int32, len(o.groups)+1)
	for _, g := range o.grp {
		next[g+1]++
	}
	for i := 1; i < len(next); i++ {
		next[i] += next[i-1]
	}
	for gi := range o.groups {
		o.groups[gi].first = next[gi]
		o.groups[gi].n = next[gi+1] - next[gi]
	}
	o.byGroup = make([]int32, len(o.grp))
	put := func(i int) {
		g := o.grp[i]
		o.byGroup[next[g]] = int32(i)
		next[g]++
	}
	for i := o.nTab; i < len(o.grp); i++ {
		put(i)
	}
	for i := 0; i < o.nTab; i++ {
		put(i)
	}
}

// ops returns the op indexes of group gi in union order.
func (o *gpuOps) ops(gi int) []int32 {
	g := &o.groups[gi]
	return o.byGroup[g.first : g.first+g.n]
}

// idValues returns the global id and context id an op reports.
func (o *gpuOps) idValues(op int32) (gid, ctx Value) {
	p := o.pairs[o.ids[op]]
	return intOrNull(p.gid, p.gidNull), intOrNull(p.ctx, p.ctxNull)
}

// keyValues are the PID and Device ID values of a group (NULL when NULL).
func (g *opGroup) keyValues() (pid, dev Value) {
	return intOrNull(g.pid, g.pidNull), intOrNull(g.dev, g.devNull)
}

// intOrNull is v as a Value, or NULL when null.
func intOrNull(v int64, null bool) Value {
	if null {
		return Null
	}
	return IntV(v)
}

// cmpNullInt orders possibly-NULL integers with NULL first.
func cmpNullInt(an, bn bool, a, b int64) int {
	switch {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
