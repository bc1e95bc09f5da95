package stats

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// The GPU side of the idle breakdown: every kernel, memcpy, memset and
// execution of a CUDA graph traced whole, by device, with the key of the
// API call that launched it.

// opKey joins a GPU operation to its launch call: the process (bits 24 and
// up of globalPid/globalTid) and the correlation id. Exports whose GPU
// tables lack globalPid (older nsys) join on the correlation id alone.
type opKey struct{ pid, corr int64 }

// opKeys returns the key of each row of a loaded GPU operation table.
func opKeys(c *Ctx, table string, t *Table) (func(i int) opKey, error) {
	corr := t.Col("correlationId")
	if !c.P.HasColumn(table, "globalPid") || !c.P.HasColumn(tRuntime, "globalTid") {
		return func(i int) opKey {
			if corr.IsNull(i) {
				return opKey{-1, -1}
			}
			return opKey{0, corr.Int(i)}
		}, nil
	}
	pt, err := c.View(table).Load("globalPid")
	if err != nil {
		return nil, err
	}
	pid := pt.Col("globalPid")
	return func(i int) opKey {
		if pid.IsNull(i) || corr.IsNull(i) {
			return opKey{-1, -1}
		}
		return opKey{int64(model.GlobalTid(pid.Int(i)).Process()), corr.Int(i)}
	}, nil
}

// opTable is a loaded GPU operation table with its start, end and device
// columns and the join key of each row (see opKeys).
type opTable struct {
	*Table
	st, en, dev *Column
	key         func(i int) opKey
}

// loadOpTable loads the start, end, deviceId and correlationId columns of a
// GPU operation table and the keys of its rows.
func loadOpTable(c *Ctx, table string) (opTable, error) {
	t, err := c.View(table).Load("start", "end", "deviceId", "correlationId")
	if err != nil {
		return opTable{}, err
	}
	keys, err := opKeys(c, table, t)
	if err != nil {
		return opTable{}, err
	}
	return opTable{t, t.Col("start"), t.Col("end"), t.Col("deviceId"), keys}, nil
}

// callKey is the key of a launch call; pidless as for opKeys.
func callKey(gtid, corr int64, pidless bool) opKey {
	if pidless {
		return opKey{0, corr}
	}
	return opKey{int64(model.GlobalTid(gtid).Process()), corr}
}

// pidless reports whether GPU operations join their calls on the
// correlation id alone.
func pidless(c *Ctx) bool {
	if !c.P.HasColumn(tRuntime, "globalTid") {
		return true
	}
	for _, t := range []string{tKernel, tMemcpy, tMemset, tGraphTrace} {
		if c.Has(t) && !c.P.HasColumn(t, "globalPid") {
			return true
		}
	}
	return false
}

type idleOp struct {
	s, e int64
	key  opKey
}

type idleOpSet struct {
	byDev            map[int64][]idleOp
	minStart, maxEnd int64
	graphs           int // executions of CUDA graphs traced whole among the operations
}

var idleOpTables = []string{events.TableKernel, events.TableMemcpy, events.TableMemset}

func idleOps(c *Ctx) (*idleOpSet, error) {
	set := &idleOpSet{byDev: map[int64][]idleOp{}}
	first := true
	add := func(dev int64, op idleOp) {
		set.byDev[dev] = append(set.byDev[dev], op)
		if first || op.s < set.minStart {
			set.minStart = op.s
		}
		set.maxEnd = max(set.maxEnd, op.e)
		first = false
	}
	for _, table := range idleOpTables {
		if !c.Has(table) {
			continue
		}
		t, err := loadOpTable(c, table)
		if err != nil {
			return nil, err
		}
		st, en, dev, keys := t.st, t.en, t.dev, t.key
		for i := 0; i < t.N; i++ {
			if st.IsNull(i) || en.IsNull(i) || dev.IsNull(i) {
				continue
			}
			add(dev.Int(i), idleOp{st.Int(i), en.Int(i), keys(i)})
		}
	}
	graphs, err := graphExecs(c)
	if err != nil {
		return nil, err
	}
	pidless := pidless(c)
	for _, g := range graphs {
		if g.Device < 0 {
			continue
		}
		key := opKey{-1, -1}
		if g.CorrelationID >= 0 && (pidless || g.GlobalPid >= 0) {
			key = callKey(g.GlobalPid, g.CorrelationID, pidless)
		}
		add(g.Device, idleOp{g.Start, g.End, key})
		set.graphs++
	}
	for _, ops := range set.byDev {
		sort.Slice(ops, func(i, j int) bool { return ops[i].s < ops[j].s })
	}
	return set, nil
}

func (s *idleOpSet) devices() []int64 {
	var out []int64
	for d := range s.byDev {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// The host side: each thread's CUDA API and OS runtime calls, classified.

type hostCall struct {
	s, e int64
	cat  IdleCat // IdleSync .. IdleOSRT
	name string
}

type hostThread struct {
	calls       []hostCall // by start
	maxEnd      []int64    // maxEnd[i] = max(calls[:i+1].e)
	first, last int64      // extent of the thread's traced calls
}

type launchCall struct {
	s, e, tid int64
	cat       IdleCat
	name      string
}

type hostIndex struct {
	threads map[int64]*hostThread
	launch  map[opKey]launchCall
	labels  map[string]*[2]string // per call name: "in NAME", "queued after NAME"
	work    gpuWork               // of the device devicePieces is labelling
}

// label returns the "in NAME" and "queued after NAME" details of a launch
// call, made once per name.
func (h *hostIndex) label(name string) *[2]string {
	l := h.labels[name]
	if l == nil {
		l = &[2]string{"in " + name, "queued after " + name}
		h.labels[name] = l
	}
	return l
}

// apiCat classifies a CUDA API call by name.
func apiCat(name string) IdleCat {
	switch {
	case strings.Contains(name, "Synchronize"):
		return IdleSync
	case (strings.Contains(name, "Memcpy") || strings.Contains(name, "Memset")) && !strings.Contains(name, "Async"):
		return IdleCopy
	case strings.Contains(name, "Launch") || strings.Contains(name, "Async"):
		return IdleLaunch
	}
	return IdleOtherCUDA
}

// loadHost reads every CUDA API and OS runtime call, ignoring any filter:
// a window's GPU operations may have been launched before it, and a
// thread's first and last traced calls are those of the whole profile.
func loadHost(c *Ctx, osrt bool) (*hostIndex, error) {
	t, err := c.LoadRaw(events.TableRuntime, "start", "end", "globalTid", "correlationId", "nameId")
	if err != nil {
		return nil, err
	}
	var ot *Table
	if osrt && c.Has(events.TableOSRTAPI) {
		if ot, err = c.LoadRaw(events.TableOSRTAPI, "start", "end", "globalTid", "nameId"); err != nil {
			return nil, err
		}
	}
	h := &hostIndex{threads: map[int64]*hostThread{}, launch: make(map[opKey]launchCall, t.N), labels: map[string]*[2]string{}}
	h.reserve(t)
	h.reserve(ot)
	st, en, tid, corr, nm := t.Col("start"), t.Col("end"), t.Col("globalTid"), t.Col("correlationId"), t.Col("nameId")
	names := map[int64]string{}
	pidless := pidless(c)
	for i := 0; i < t.N; i++ {
		if st.IsNull(i) || en.IsNull(i) || tid.IsNull(i) {
			continue
		}
		id := nm.Int(i)
		name, ok := names[id]
		if !ok {
			s, _ := c.String(id)
			name = StripAPIVersion(s)
			names[id] = name
		}
		call := hostCall{st.Int(i), en.Int(i), apiCat(name), name}
		h.add(tid.Int(i), call)
		if corr.IsNull(i) {
			continue
		}
		// A call can have two rows under one correlation id (an outer one
		// with a backtrace): the outermost is the launch call.
		k := callKey(tid.Int(i), corr.Int(i), pidless)
		if prev, dup := h.launch[k]; !dup || call.s < prev.s {
			h.launch[k] = launchCall{call.s, call.e, tid.Int(i), call.cat, name}
		}
	}
	if ot != nil {
		addOSRT(c, h, ot)
	}
	h.index()
	return h, nil
}

// reserve makes room in each thread's calls for its calls in t (nil: none).
func (h *hostIndex) reserve(t *Table) {
	if t == nil {
		return
	}
	st, en, tid := t.Col("start"), t.Col("end"), t.Col("globalTid")
	n := map[int64]int{}
	for i := 0; i < t.N; i++ {
		if !st.IsNull(i) && !en.IsNull(i) && !tid.IsNull(i) {
			n[tid.Int(i)]++
		}
	}
	for id, k := range n {
		th := h.threads[id]
		if th == nil {
			th = &hostThread{first: math.MaxInt64, last: math.MinInt64}
			h.threads[id] = th
		}
		th.calls = slices.Grow(th.calls, k)
	}
}

func addOSRT(c *Ctx, h *hostIndex, t *Table) {
	st, en, tid, nm := t.Col("start"), t.Col("end"), t.Col("globalTid"), t.Col("nameId")
	for i := 0; i < t.N; i++ {
		if st.IsNull(i) || en.IsNull(i) || tid.IsNull(i) {
			continue
		}
		name, _ := c.String(nm.Int(i))
		h.add(tid.Int(i), hostCall{st.Int(i), en.Int(i), IdleOSRT, name})
	}
}

func (h *hostIndex) add(tid int64, call hostCall) {
	th := h.threads[tid]
	if th == nil {
		th = &hostThread{first: call.s, last: call.e}
		h.threads[tid] = th
	}
	th.calls = append(th.calls, call)
	th.first, th.last = min(th.first, call.s), max(th.last, call.e)
}

func (h *hostIndex) index() {
	for _, th := range h.threads {
		sort.SliceStable(th.calls, func(i, j int) bool { return th.calls[i].s < th.calls[j].s })
		th.maxEnd = make([]int64, len(th.calls))
		m := th.calls[0].e
		for i, cl := range th.calls {
			m = max(m, cl.e)
			th.maxEnd[i] = m
		}
	}
}

// devicePieces labels every idle instant of one device's window [lo, hi).
// Operations without a launch call (unified-memory migrations) refer to
// the next operation that has one.
func (h *hostIndex) devicePieces(ops []idleOp, lo, hi int64) []IdlePiece {
	next := make([]int, len(ops)+1)
	next[len(ops)] = -1
	for i := len(ops) - 1; i >= 0; i-- {
		next[i] = next[i+1]
		if _, ok := h.launch[ops[i].key]; ok {
			next[i] = i
		}
	}
	var out []IdlePiece
	cur, last := lo, int64(-1)
	h.work = gpuWork{math.MaxInt64, math.MinInt64}
	for _, op := range ops {
		h.work.first, h.work.last = min(h.work.first, op.s), max(h.work.last, op.e)
	}
	for i, op := range ops {
		if cur >= hi {
			break
		}
		if op.s > cur {
			var ref *launchCall
			if n := next[i]; n >= 0 {
				lc := h.launch[ops[n].key]
				ref = &lc
			}
			out = h.gap(out, cur, min(op.s, hi), ref, last)
		}
		cur = max(cur, op.e)
		if lc, ok := h.launch[op.key]; ok {
			last = lc.tid
		}
	}
	if cur < hi {
		out = h.threadState(out, cur, hi, last)
	}
	return out
}

// gap labels [a, b), after which next (the first later operation with a
// launch call) starts: the time since next's launch call began is launching
// (or copying, for a synchronous copy); before it, the launching thread's
// state. With no such operation, the state of thread last (the launcher of
// the previous operation).
func (h *hostIndex) gap(out []IdlePiece, a, b int64, next *launchCall, last int64) []IdlePiece {
	if next == nil {
		return h.threadState(out, a, b, last)
	}
	cut := b
	if next.s < b {
		cut = max(a, next.s)
	}
	out = h.threadState(out, a, cut, next.tid)
	if cut < b {
		cat := IdleLaunch
		if next.cat == IdleCopy {
			cat = IdleCopy
		}
		in := min(b, max(cut, next.e))
		l := h.label(next.name)
		out = appendPiece(out, IdlePiece{cut, in, cat, l[0], next.tid})
		out = appendPiece(out, IdlePiece{in, b, cat, l[1], next.tid})
	}
	return out
}

// gpuWork is the extent of one device's GPU operations: its first start
// and its last end.
type gpuWork struct{ first, last int64 }

// untraced labels [a, b), where the thread made no traced call (or none is
// known): before the device's first GPU work or after its last, that is
// IdleOutside; in between, the thread was in no traced call (host busy).
func (h *hostIndex) untraced(out []IdlePiece, a, b int64, detail string, tid int64) []IdlePiece {
	if a >= b {
		return out
	}
	if cut := min(b, max(a, h.work.first)); a < cut {
		out = appendPiece(out, IdlePiece{a, cut, IdleOutside, detail, tid})
		a = cut
	}
	mid := max(a, min(b, h.work.last))
	out = appendPiece(out, IdlePiece{a, mid, IdleHostBusy, detail, tid})
	return appendPiece(out, IdlePiece{mid, b, IdleOutside, detail, tid})
}

// threadState labels [a, b) by what thread tid was doing.
func (h *hostIndex) threadState(out []IdlePiece, a, b, tid int64) []IdlePiece {
	if a >= b {
		return out
	}
	th := h.threads[tid]
	if th == nil {
		return h.untraced(out, a, b, "no launching thread known", -1)
	}
	if a < th.first {
		out = h.untraced(out, a, min(b, th.first), "before the thread's first traced call", tid)
		a = min(b, th.first)
	}
	mid := max(a, min(b, th.last))
	out = th.sweep(out, a, mid, tid)
	return h.untraced(out, mid, b, "after the thread's last traced call", tid)
}

// sweep labels [a, b) by the highest-priority call running at each instant.
func (th *hostThread) sweep(out []IdlePiece, a, b, tid int64) []IdlePiece {
	if a >= b {
		return out
	}
	lo := sort.Search(len(th.maxEnd), func(i int) bool { return th.maxEnd[i] > a })
	hi := sort.Search(len(th.calls), func(i int) bool { return th.calls[i].s >= b })
	cuts := []int64{a, b}
	for _, cl := range th.calls[lo:hi] {
		if cl.e > a {
			cuts = append(cuts, max(a, cl.s), min(b, cl.e))
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var active []int
	j := lo
	for k := 0; k+1 < len(cuts); k++ {
		x, y := cuts[k], cuts[k+1]
		for ; j < hi && th.calls[j].s <= x; j++ {
			if th.calls[j].e > x {
				active = append(active, j)
			}
		}
		active = slices.DeleteFunc(active, func(i int) bool { return th.calls[i].e <= x })
		p := IdlePiece{x, y, IdleHostBusy, "", tid}
		for _, i := range active {
			if cl := th.calls[i]; p.Cat == IdleHostBusy || cl.cat < p.Cat {
				p.Cat, p.Detail = cl.cat, cl.name
			}
		}
		out = appendPiece(out, p)
	}
	return out
}

// appendPiece adds p, merging it into the previous piece when they touch
// and say the same; empty pieces are dropped.
func appendPiece(out []IdlePiece, p IdlePiece) []IdlePiece {
	if p.Start >= p.End {
		return out
	}
	if n := len(out); n > 0 {
		q := &out[n-1]
		if q.End == p.Start && q.Cat == p.Cat && q.Detail == p.Detail && q.Thread == p.Thread {
			q.End = p.End
			return out
		}
	}
	return append(out, p)
}
