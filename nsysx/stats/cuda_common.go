package stats

import (
	"sort"
	"unicode/utf8"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

const (
	tKernel  = events.TableKernel
	tRuntime = events.TableRuntime
	tMemcpy  = events.TableMemcpy
	tMemset  = events.TableMemset
	tNVTX    = events.TableNVTXEvents
	tStrings = events.TableStringIds
	pidMask  = int64(-1) << 24 // bits 24..63: 0xFFFFFFFFFF000000
)

// PID and TID of a globalTid.
func gPID(gtid int64) int64 { return model.GlobalTid(gtid).PID() }
func gTID(gtid int64) int64 { return model.GlobalTid(gtid).TID() }

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

// prologue is how most reports start: SKIPPED without StringIds, then the
// filter set up (setupFilter). A non-nil Result or an error ends the report.
func prologue(c *Ctx) (*Result, error) {
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	return c.SetupFilter()
}

// prologueNeeding is prologue with the report also SKIPPED, with the profile
// path and then missing as message, when the profile lacks table.
func prologueNeeding(c *Ctx, table, missing string) (*Result, error) {
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(table) {
		return c.Skip(c.Path() + missing)
	}
	return c.SetupFilter()
}

// skipNoStringsTable is skipNoStrings for reports whose names may be inline
// (NVTX texts): SKIPPED only when StringIds is absent.
func skipNoStringsTable(c *Ctx) (*Result, bool) {
	if msg := events.NamesMissing(c.Path(), c.Has(tStrings), -1); msg != "" {
		r, _ := c.Skip(msg)
		return r, true
	}
	return nil, false
}

// runtimeIndex maps (process, correlationId) to runtime rows: the join of a
// GPU operation with the CUDA API call that launched it. When every call is
// of one process and the correlation ids rise strictly with the rowid (the
// usual case: one launching thread), rows are found by searching the column
// itself and no hash map is built.
type runtimeIndex struct {
	t      *Table
	g      *Column
	corr   *Column
	sorted bool               // corr.Ints rises strictly, one process, no NULLs
	idx    map[uint64]int32   // packed key -> first row (not sorted)
	more   map[uint64][]int32 // packed key -> further rows with the same key
}

// packKey packs bits 24..47 of a globalPid/globalTid (the PID) and 40 bits of
// the correlation id; match verifies the full values, so a collision only
// costs a comparison.
func packKey(g, corr int64) uint64 {
	return uint64(model.GlobalTid(g).PID())<<40 | uint64(corr)&(1<<40-1)
}

func loadRuntimeIndex(c *Ctx, raw bool, cols ...string) (*runtimeIndex, error) {
	cols = append([]string{"start", "end", "globalTid", "correlationId"}, cols...)
	var t *Table
	var err error
	if raw {
		t, err = c.LoadRaw(tRuntime, cols...)
	} else {
		t, err = apiCalls(c).Load(cols...)
	}
	if err != nil {
		return nil, err
	}
	ri := &runtimeIndex{t: t, g: t.Col("globalTid"), corr: t.Col("correlationId")}
	if ri.sorted = ri.isSorted(); ri.sorted {
		return ri, nil
	}
	ri.idx = make(map[uint64]int32, t.N)
	for i := 0; i < t.N; i++ {
		if ri.corr.IsNull(i) || ri.g.IsNull(i) {
			continue
		}
		k := packKey(ri.g.Ints[i], ri.corr.Ints[i])
		if _, dup := ri.idx[k]; dup {
			if ri.more == nil {
				ri.more = map[uint64][]int32{}
			}
			ri.more[k] = append(ri.more[k], int32(i))
			continue
		}
		ri.idx[k] = int32(i)
	}
	return ri, nil
}

// isSorted reports whether the rows have no NULL process or correlation
// id, one process, and strictly rising correlation ids.
func (ri *runtimeIndex) isSorted() bool {
	if ri.t.N == 0 || ri.corr.HasNulls() || ri.g.HasNulls() {
		return false
	}
	g, c := ri.g.Ints, ri.corr.Ints
	pid := packKey(g[0], 0)
	for i := 1; i < len(c); i++ {
		if c[i] <= c[i-1] || packKey(g[i], 0) != pid {
			return false
		}
	}
	return true
}

// match returns the runtime rows of an operation (usually one), in rowid order.
func (ri *runtimeIndex) match(gpid, corr int64, buf []int32) []int32 {
	var c runtimeCursor
	return c.match(ri, gpid, corr, buf)
}

// runtimeCursor matches operations in a sorted index starting from where
// the previous match ended, so that operations met in correlation order
// are matched in one pass over the runtime rows.
type runtimeCursor struct{ at int }

func (cur *runtimeCursor) match(ri *runtimeIndex, gpid, corr int64, buf []int32) []int32 {
	buf = buf[:0]
	ok1 := func(r int32) bool {
		return ri.corr.Ints[r] == corr && ri.g.Ints[r]&pidMask == gpid&pidMask
	}
	if ri.sorted {
		c := ri.corr.Ints
		if cur.at >= len(c) || cur.at > 0 && c[cur.at-1] >= corr {
			cur.at = 0
		}
		for n := 0; n < 8 && cur.at < len(c) && c[cur.at] < corr; n++ {
			cur.at++ // the next operation is usually a few calls on
		}
		if cur.at < len(c) && c[cur.at] < corr {
			cur.at += sort.Search(len(c)-cur.at, func(i int) bool { return c[cur.at+i] >= corr })
		}
		if cur.at < len(c) && ok1(int32(cur.at)) {
			buf = append(buf, int32(cur.at))
		}
		return buf
	}
	k := packKey(gpid, corr)
	j, ok := ri.idx[k]
	if !ok {
		return buf
	}
	if ok1(j) {
		buf = append(buf, j)
	}
	for _, r := range ri.more[k] {
		if ok1(r) {
			buf = append(buf, r)
		}
	}
	return buf
}

// kernNames holds each kernel's resolved name as an index into a small
// dictionary, so that grouping hashes integers, not strings.
type kernNames struct {
	ids  []int32
	dict []Value
}

func (k *kernNames) at(i int) Value { return k.dict[k.ids[i]] }

func (k *kernNames) intern(v Value, m map[Value]int32) int32 {
	id, ok := m[v]
	if !ok {
		id = int32(len(k.dict))
		k.dict = append(k.dict, v)
		m[v] = id
	}
	return id
}

// kernelNameCols are the kernel table's columns kernelNames reads: the
// name column the options pick, then demangledName (its fallback) when that
// is another. A report that loads the kernel table for other columns asks
// for these too, so that the table is read once (the profile keeps the
// columns it loaded; kernelNames then finds them there).
func kernelNameCols(c *Ctx) []string {
	return events.KernelNameColumns(c.P, kernelNaming(c))
}

// kernelNaming is the naming the base and mangled options pick.
func kernelNaming(c *Ctx) events.KernelNaming {
	switch {
	case c.Flag("base"):
		return events.NameBase
	case c.Flag("mangled"):
		return events.NameMangled
	}
	return events.NameDemangled
}

// kernelNames resolves each kernel's display name per the base / mangled /
// nvtx-name options (docs/stats.md §2.8). It returns nil, skip when nvtx-name cannot run.
func kernelNames(c *Ctx) (*kernNames, *Result, error) {
	cols := kernelNameCols(c)
	kt, err := kernels(c).Load(cols...)
	if err != nil {
		return nil, nil, err
	}
	names := events.KernelNameColsOf(kt, cols)
	kn := &kernNames{ids: make([]int32, kt.N)}
	bySID := map[int64]int32{}
	byVal := map[Value]int32{}
	nullID := kn.intern(Null, byVal)
	for i := 0; i < kt.N; i++ {
		sid, ok := names.ID(i)
		if !ok {
			kn.ids[i] = nullID
			continue
		}
		x, ok := bySID[sid]
		if !ok {
			name := Null
			if s, ok := c.String(sid); ok {
				name = TextV(s)
			}
			x = kn.intern(name, byVal)
			bySID[sid] = x
		}
		kn.ids[i] = x
	}
	if !c.Flag("nvtx-name") {
		return kn, nil, nil
	}
	if !c.P.HasTable(tNVTX) {
		r, _ := c.Skip(c.Path() + " does not contain NV Tools Extension (NVTX) data.")
		return nil, r, nil
	}
	if !c.P.HasTable(tRuntime) {
		r, _ := c.Skip(c.Path() + " does not contain CUDA API data.")
		return nil, r, nil
	}
	if err := prefixNVTX(c, kn, byVal); err != nil {
		return nil, nil, err
	}
	return kn, nil, nil
}

// threadRanges holds the NVTX ranges of one thread sorted by start.
type threadRanges struct {
	start, end []int64
	label      []Value
}

// prefixNVTX prepends the innermost enclosing NVTX range of each kernel's
// launching call (the filtered kernels; the unfiltered calls and ranges,
// same thread, inclusive containment).
func prefixNVTX(c *Ctx, kn *kernNames, byVal map[Value]int32) error {
	kk, err := kernels(c).Load("correlationId", "globalPid") // the rows kn names
	if err != nil {
		return err
	}
	ri, err := loadRuntimeIndex(c, true)
	if err != nil {
		return err
	}
	byThread, err := rawRangesByThread(c)
	if err != nil {
		return err
	}
	rs, re, rg := ri.t.Col("start"), ri.t.Col("end"), ri.t.Col("globalTid")
	corr, gpid := kk.Col("correlationId"), kk.Col("globalPid")
	var buf []int32
	for i := 0; i < kk.N; i++ {
		if kn.at(i).IsNull() || corr.IsNull(i) || gpid.IsNull(i) {
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
			kn.ids[i] = kn.intern(TextV(lab.S+"/"+kn.at(i).S), byVal)
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
func rawRangesByThread(c *Ctx) (map[int64]*threadRanges, error) {
	cols := []string{"start", "end", "eventType", "globalTid", "text"}
	if c.P.HasColumn(tNVTX, "textId") {
		cols = append(cols, "textId")
	}
	if c.P.HasColumn(tNVTX, "endGlobalTid") {
		cols = append(cols, "endGlobalTid")
	}
	t, err := c.LoadRaw(tNVTX, cols...)
	if err != nil {
		return nil, err
	}
	return sortedThreadRanges(sameThreadRanges(c, t, latestRangeTime(t))), nil
}

// isNVTXRange reports whether an NVTX event type is a push/pop or start/end
// range (59, 60, 70, 71).
func isNVTXRange(eventType int64) bool {
	switch eventType {
	case 59, 60, 70, 71:
		return true
	}
	return false
}

// latestRangeTime is the latest start or end of any range in t (0 when none):
// the end of the ranges never closed.
func latestRangeTime(t *Table) int64 {
	st, en, ty := t.Col("start"), t.Col("end"), t.Col("eventType")
	var maxT int64
	for i := 0; i < t.N; i++ {
		if !isNVTXRange(ty.Ints[i]) {
			continue
		}
		maxT = max(maxT, st.Ints[i])
		if !en.IsNull(i) {
			maxT = max(maxT, en.Ints[i])
		}
	}
	return maxT
}

// labelledRange is one NVTX range with its label.
type labelledRange struct {
	s, e int64
	l    Value
}

// sameThreadRanges collects the ranges of t that end on the thread they
// started on, by globalTid, in row order; open ranges end at maxT. A range's
// label is its textId string, else its text.
func sameThreadRanges(c *Ctx, t *Table, maxT int64) map[int64][]labelledRange {
	st, en, ty, g, tx := t.Col("start"), t.Col("end"), t.Col("eventType"), t.Col("globalTid"), t.Col("text")
	textID, egt := t.Col("textId"), t.Col("endGlobalTid")
	tmp := map[int64][]labelledRange{}
	for i := 0; i < t.N; i++ {
		if !isNVTXRange(ty.Ints[i]) || g.IsNull(i) {
			continue
		}
		if egt != nil && !egt.IsNull(i) {
			continue
		}
		e := maxT
		if !en.IsNull(i) {
			e = en.Ints[i]
		}
		l := Null
		if textID != nil {
			l = c.Str(textID, i)
		}
		if l.IsNull() && !tx.IsNull(i) {
			l = TextV(tx.Strs[i])
		}
		tmp[g.Ints[i]] = append(tmp[g.Ints[i]], labelledRange{st.Ints[i], e, l})
	}
	return tmp
}

// sortedThreadRanges orders each thread's ranges by start (ties keep row
// order).
func sortedThreadRanges(tmp map[int64][]labelledRange) map[int64]*threadRanges {
	out := map[int64]*threadRanges{}
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
	return out
}

// memcpyNames maps copyKind to "[CUDA memcpy <label>]" from ENUM_CUDA_MEMCPY_OPER.
func memcpyNames(c *Ctx) (map[int64]string, error) {
	t, err := c.LoadRaw(events.TableEnumCUDAMemcpyOper, "id", "label")
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for i := 0; i < t.N; i++ {
		out[t.Col("id").Int(i)] = "[CUDA memcpy " + t.Col("label").Str(i) + "]"
	}
	return out, nil
}

func nv(c *Column, i int) Value {
	if c == nil || c.IsNull(i) {
		return Null
	}
	return c.Value(i)
}

func dur(s, e *Column, i int) (int64, bool) {
	if s.IsNull(i) || e.IsNull(i) {
		return 0, false
	}
	return subInt(e.Ints[i], s.Ints[i]), true
}
