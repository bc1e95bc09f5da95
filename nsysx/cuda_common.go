package nsysx

import (
	"sort"
	"unicode/utf8"
)

const (
	tKernel  = "CUPTI_ACTIVITY_KIND_KERNEL"
	tRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME"
	tMemcpy  = "CUPTI_ACTIVITY_KIND_MEMCPY"
	tMemset  = "CUPTI_ACTIVITY_KIND_MEMSET"
	tNVTX    = "NVTX_EVENTS"
	tStrings = "StringIds"
	pidMask  = int64(-1) << 24 // bits 24..63: 0xFFFFFFFFFF000000
)

// PID and TID of a globalTid.
func gPID(gtid int64) int64 { return (gtid >> 24) & 0xFFFFFF }
func gTID(gtid int64) int64 { return gtid & 0xFFFFFF }

// StripAPIVersion removes a CUDA API name's version suffix ("_v7000") as the
// reports do: when the 6th and 5th code points from the end are "_v".
func StripAPIVersion(s string) string {
	n := utf8.RuneCountInString(s)
	if n < 6 {
		return s
	}
	r := []rune(s)
	if r[n-6] == '_' && r[n-5] == 'v' {
		return string(r[:n-6])
	}
	return s
}

func stripV(v Value) Value {
	if v.Kind == TextKind {
		return TextV(StripAPIVersion(v.S))
	}
	return v
}

func (c *Ctx) skipNoStrings() (*Result, bool) {
	if !c.P.HasTable(tStrings) {
		r, _ := c.Skip(c.Path() + " file does not contain StringIds table.")
		return r, true
	}
	return nil, false
}

// corrKey joins a GPU operation to its CUDA API call.
type corrKey struct{ pid, corr int64 }

// runtimeIndex maps (process bits, correlationId) to runtime rows.
type runtimeIndex struct {
	t   *Table
	idx map[corrKey]int32
	dup map[corrKey][]int32
}

func (c *Ctx) runtimeIndex(raw bool, cols ...string) (*runtimeIndex, error) {
	cols = append([]string{"start", "end", "globalTid", "correlationId"}, cols...)
	var t *Table
	var err error
	if raw {
		t, err = c.LoadRaw(tRuntime, cols...)
	} else {
		t, err = c.Load(tRuntime, cols...)
	}
	if err != nil {
		return nil, err
	}
	ri := &runtimeIndex{t: t, idx: make(map[corrKey]int32, t.N)}
	g, corr := t.Col("globalTid"), t.Col("correlationId")
	for i := 0; i < t.N; i++ {
		if corr.IsNull(i) || g.IsNull(i) {
			continue
		}
		k := corrKey{g.Ints[i] & pidMask, corr.Ints[i]}
		if j, dup := ri.idx[k]; dup {
			if ri.dup == nil {
				ri.dup = map[corrKey][]int32{}
			}
			if ri.dup[k] == nil {
				ri.dup[k] = []int32{j}
			}
			ri.dup[k] = append(ri.dup[k], int32(i))
			continue
		}
		ri.idx[k] = int32(i)
	}
	return ri, nil
}

// match returns the runtime rows of an operation (usually one).
func (ri *runtimeIndex) match(gpid, corr int64, buf []int32) []int32 {
	k := corrKey{gpid & pidMask, corr}
	if d := ri.dup[k]; d != nil {
		return d
	}
	if j, ok := ri.idx[k]; ok {
		return append(buf[:0], j)
	}
	return buf[:0]
}

// kernelNames resolves each kernel's display name per the base / mangled /
// nvtx-name options (§2.8). It returns nil, skip when nvtx-name cannot run.
func (c *Ctx) kernelNames(k *Table) ([]Value, *Result, error) {
	col := "demangledName"
	if c.Flag("base") {
		col = "shortName"
	} else if c.Flag("mangled") && c.P.HasColumn(tKernel, "mangledName") {
		col = "mangledName"
	}
	kt, err := c.Load(tKernel, col, "demangledName")
	if err != nil {
		return nil, nil, err
	}
	_ = k
	id, dem := kt.Col(col), kt.Col("demangledName")
	names := make([]Value, kt.N)
	cache := map[int64]Value{}
	for i := 0; i < kt.N; i++ {
		src := id
		if id.IsNull(i) {
			src = dem
		}
		if src.IsNull(i) {
			names[i] = Null
			continue
		}
		key := src.Ints[i]
		v, ok := cache[key]
		if !ok {
			v = c.Str(src, i)
			cache[key] = v
		}
		names[i] = v
	}
	if !c.Flag("nvtx-name") {
		return names, nil, nil
	}
	if !c.P.HasTable(tNVTX) {
		r, _ := c.Skip(c.Path() + " does not contain NV Tools Extension (NVTX) data.")
		return nil, r, nil
	}
	if !c.P.HasTable(tRuntime) {
		r, _ := c.Skip(c.Path() + " does not contain CUDA API data.")
		return nil, r, nil
	}
	if err := c.prefixNVTX(kt, names); err != nil {
		return nil, nil, err
	}
	return names, nil, nil
}

// threadRanges holds the NVTX ranges of one thread sorted by start.
type threadRanges struct {
	start, end []int64
	label      []Value
}

// prefixNVTX prepends the innermost enclosing NVTX range of each kernel's
// launching call (unfiltered tables, same thread, inclusive containment).
func (c *Ctx) prefixNVTX(kt *Table, names []Value) error {
	kk, err := c.LoadRaw(tKernel, "correlationId", "globalPid")
	if err != nil {
		return err
	}
	ri, err := c.runtimeIndex(true)
	if err != nil {
		return err
	}
	byThread, err := c.rawRangesByThread()
	if err != nil {
		return err
	}
	rs, re, rg := ri.t.Col("start"), ri.t.Col("end"), ri.t.Col("globalTid")
	corr, gpid := kk.Col("correlationId"), kk.Col("globalPid")
	var buf []int32
	for i := 0; i < kk.N; i++ {
		if names[i].IsNull() || corr.IsNull(i) || gpid.IsNull(i) {
			continue
		}
		m := ri.match(gpid.Ints[i], corr.Ints[i], buf)
		buf = m
		if len(m) == 0 {
			continue
		}
		j := m[0]
		tr := byThread[rg.Ints[j]]
		if tr == nil {
			continue
		}
		lab := tr.innermost(rs.Ints[j], re.Ints[j])
		if lab.Kind == TextKind {
			names[i] = TextV(lab.S + "/" + names[i].S)
		}
	}
	return nil
}

func (tr *threadRanges) innermost(s, e int64) Value {
	hi := sort.Search(len(tr.start), func(i int) bool { return tr.start[i] > s })
	for i := hi - 1; i >= 0; i-- {
		if tr.end[i] >= e {
			return tr.label[i]
		}
	}
	return Null
}

// rawRangesByThread groups the unfiltered same-thread NVTX ranges (types 59,
// 60, 70, 71; endGlobalTid NULL) by globalTid.
func (c *Ctx) rawRangesByThread() (map[int64]*threadRanges, error) {
	cols := []string{"start", "end", "eventType", "globalTid", "text"}
	hasTextID := c.P.HasColumn(tNVTX, "textId")
	if hasTextID {
		cols = append(cols, "textId")
	}
	hasEGT := c.P.HasColumn(tNVTX, "endGlobalTid")
	if hasEGT {
		cols = append(cols, "endGlobalTid")
	}
	t, err := c.LoadRaw(tNVTX, cols...)
	if err != nil {
		return nil, err
	}
	st, en, ty, g, tx := t.Col("start"), t.Col("end"), t.Col("eventType"), t.Col("globalTid"), t.Col("text")
	var maxT int64
	isRange := func(i int) bool {
		switch ty.Ints[i] {
		case 59, 60, 70, 71:
			return true
		}
		return false
	}
	for i := 0; i < t.N; i++ {
		if !isRange(i) {
			continue
		}
		maxT = max(maxT, st.Ints[i])
		if !en.IsNull(i) {
			maxT = max(maxT, en.Ints[i])
		}
	}
	out := map[int64]*threadRanges{}
	type rr struct {
		s, e int64
		l    Value
	}
	tmp := map[int64][]rr{}
	for i := 0; i < t.N; i++ {
		if !isRange(i) || g.IsNull(i) {
			continue
		}
		if hasEGT && !t.Col("endGlobalTid").IsNull(i) {
			continue
		}
		e := maxT
		if !en.IsNull(i) {
			e = en.Ints[i]
		}
		l := Null
		if hasTextID {
			l = c.Str(t.Col("textId"), i)
		}
		if l.IsNull() && !tx.IsNull(i) {
			l = TextV(tx.Strs[i])
		}
		tmp[g.Ints[i]] = append(tmp[g.Ints[i]], rr{st.Ints[i], e, l})
	}
	for k, v := range tmp {
		sort.SliceStable(v, func(a, b int) bool { return v[a].s < v[b].s })
		tr := &threadRanges{}
		for _, x := range v {
			tr.start = append(tr.start, x.s)
			tr.end = append(tr.end, x.e)
			tr.label = append(tr.label, x.l)
		}
		out[k] = tr
	}
	return out, nil
}

// memcpyNames maps copyKind to "[CUDA memcpy <label>]" from ENUM_CUDA_MEMCPY_OPER.
func (c *Ctx) memcpyNames() (map[int64]string, error) {
	t, err := c.LoadRaw("ENUM_CUDA_MEMCPY_OPER", "id", "label")
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for i := 0; i < t.N; i++ {
		out[t.Col("id").Int(i)] = "[CUDA memcpy " + t.Col("label").Str(i) + "]"
	}
	return out, nil
}

// enumLabels maps an ENUM table's ids to labels.
func (c *Ctx) enumLabels(table string) (map[int64]string, error) {
	t, err := c.LoadRaw(table, "id", "label")
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for i := 0; i < t.N; i++ {
		out[t.Col("id").Int(i)] = t.Col("label").Str(i)
	}
	return out, nil
}

func nv(c *Column, i int) Value {
	if c == nil || c.IsNull(i) {
		return Null
	}
	return c.value(i)
}

func dur(s, e *Column, i int) (int64, bool) {
	if s.IsNull(i) || e.IsNull(i) {
		return 0, false
	}
	return e.Ints[i] - s.Ints[i], true
}
