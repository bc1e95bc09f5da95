package analyze

import (
	"fmt"
	"math"
	"slices"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// This file holds what the `nsys analyze` rules share (docs/stats.md §5):
// the option handling of nsys's ExpertSystemsReport (rows=, start=, end=,
// nvtx=, and process=/thread= for cuda_api_sync), the result shape with its
// advice texts, SQLite's LIKE and sum(), and the CUDA memory-operation join
// used by cuda_memcpy_async, cuda_memcpy_sync and cuda_memset_sync. The GPU
// operation set of gpu_gaps and gpu_time_util is in rule_gpu_ops.go.

// defaultRuleRows is the rows= default of every rule.
const defaultRuleRows = 50

// rowsOption is the rows= option every rule takes.
var rowsOption = Option{Name: "rows", Default: "50", Help: "maximum number of rows shown; -1 for no limit, 0 for none"}

// Messages shared by several rules.
const (
	msgNoRuntime = " could not be analyzed because it does not contain the required CUDA data. Does the application use CUDA runtime APIs?"
	msgNoGreen   = " could not be analyzed due to missing 'greenContextId'. Please re-export the report file with a recent version of Nsight Systems."

	// adviceSyncAPI is cuda_api_sync's advice, which cuda_memset_sync
	// repeats word for word (a copy-paste in nsys's script).
	adviceSyncAPI = "The following are synchronization APIs that block the host until all issued CUDA calls are complete.\n\n" +
		"Suggestions:\n" +
		"   1. Avoid excessive use of synchronization.\n" +
		"   2. Use asynchronous CUDA event calls, such as cudaStreamWaitEvent() and cudaEventSynchronize(), to prevent host synchronization."
	noResultSyncAPI = "There were no problems detected related to synchronization APIs."

	// suggestGaps ends the advice of gpu_gaps and gpu_time_util.
	suggestGaps = "\n\nSuggestions:\n" +
		"   1. Use CPU sampling data, OS Runtime blocked state backtraces, and/or OS Runtime APIs related to thread synchronization to understand if a sluggish or blocked CPU is causing the gaps.\n" +
		"   2. Add NVTX annotations to CPU code to understand the reason behind the gaps."
)

// ruleArgs are the parsed options common to every rule.
type ruleArgs struct {
	rows     int64 // LIMIT; negative means no limit
	pid, tid int64 // process= and thread= (cuda_api_sync); -1 when off
}

// limit returns how many of n rows a LIMIT of rows keeps (SQLite: a
// negative limit keeps all).
func (a ruleArgs) limit(n int) int {
	if a.rows < 0 || a.rows >= int64(n) {
		return n
	}
	return int(a.rows)
}

// ruleSetup does what nsys's ExpertSystemsReport.setup does once the rule's
// table and column checks have passed: it parses the options (a bad value is
// an error, as argparse's) and installs the start=/end=/nvtx= filter, plus
// process=/thread= when pidTid is set. parse, when not nil, reads the rule's
// own options: argparse reads them all before any filtering. A non-nil
// Result is a SKIPPED outcome.
func ruleSetup(c *Ctx, pidTid bool, parse func() error) (ruleArgs, *Result, error) {
	a := ruleArgs{pid: -1, tid: -1}
	var err error
	if a.rows, err = pyIntOpt(c, "rows", defaultRuleRows); err != nil {
		return a, nil, err
	}
	if pidTid {
		if a.pid, err = pyIntOpt(c, "process", -1); err != nil {
			return a, nil, err
		}
		if a.tid, err = pyIntOpt(c, "thread", -1); err != nil {
			return a, nil, err
		}
	}
	if parse != nil {
		if err := parse(); err != nil {
			return a, nil, err
		}
	}
	skip, err := ruleFilter(c, a)
	return a, skip, err
}

// pyIntOpt returns an integer option parsed as Python's int() does (the
// rules' argparse type=int), or def when the option is absent.
func pyIntOpt(c *Ctx, name string, def int64) (int64, error) {
	v, ok := c.Opt(name)
	if !ok {
		return def, nil
	}
	n, ok := ParsePyInt(v)
	if !ok {
		return 0, fmt.Errorf("%w: argument --%s: invalid int value: '%s'", ErrBadOption, name, v)
	}
	return n, nil
}

// ruleFilter installs the filter of the start=, end= and nvtx= options (on
// top of a caller's --filter-time / --filter-nvtx filter) as the stats
// reports do. process= and thread= (cuda_api_sync) join it: nsys then filters
// with the full time range, and refuses nvtx=.
func ruleFilter(c *Ctx, a ruleArgs) (*Result, error) {
	if a.pid >= 0 || a.tid >= 0 {
		g := &Filter{Start: 0, End: math.MaxInt64}
		if f := c.Filter; f != nil {
			g.Start, g.End, g.NVTX, g.StartSet, g.EndSet = f.Start, f.End, f.NVTX, f.StartSet, f.EndSet
		}
		g.Process, g.HasProcess = a.pid, a.pid >= 0
		g.Thread, g.HasThread = a.tid, a.tid >= 0
		c.Filter = g
	}
	return c.SetupFilter()
}

// newRuleResult makes an empty rule result with its console texts.
func newRuleResult(c *Ctx, a ruleArgs, advice, noResult string, cols ...string) *Result {
	r := NewResult(c.Report.Name, c.Report.Title, cols...)
	r.IsRule = true
	r.Advice = advice
	r.NoResult = noResult
	r.RowLimit = int(a.rows)
	return r
}

// likeASCII is SQLite's LIKE with the default settings: '%' matches any run
// of characters, '_' any one character, and ASCII letters match either case.
func likeASCII(s, pattern string) bool {
	fold := func(b byte) byte {
		if b >= 'A' && b <= 'Z' {
			return b + 'a' - 'A'
		}
		return b
	}
	// Iterative wildcard matching with backtracking to the last '%'.
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(pattern) && pattern[pi] == '%':
			star, mark = pi, si
			pi++
		case pi < len(pattern) && pattern[pi] == '_':
			si += utf8Len(s[si])
			pi++
		case pi < len(pattern) && fold(pattern[pi]) == fold(s[si]):
			si++
			pi++
		case star >= 0:
			mark += utf8Len(s[mark])
			si, pi = mark, star+1
		default:
			return false
		}
	}
	for pi < len(pattern) && pattern[pi] == '%' {
		pi++
	}
	return pi == len(pattern)
}

// utf8Len is the byte length of the UTF-8 sequence led by b (1 for bad bytes).
func utf8Len(b byte) int {
	switch {
	case b >= 0xF0:
		return 4
	case b >= 0xE0:
		return 3
	case b >= 0xC0:
		return 2
	}
	return 1
}

// stringsLike returns the StringIds entries (id -> value) for which keep
// holds: the `sid` CTE of the rules.
func stringsLike(c *Ctx, keep func(string) bool) (map[int64]string, error) {
	t, err := c.LoadRaw(tStrings, "id", "value")
	if err != nil {
		return nil, err
	}
	id, val := t.Col("id"), t.Col("value")
	out := map[int64]string{}
	for i := 0; i < t.N; i++ {
		if id.IsNull(i) || val.IsNull(i) {
			continue
		}
		if v := val.Str(i); keep(v) {
			out[id.Int(i)] = v
		}
	}
	return out, nil
}

// kbnSum is SQLite 3.46's sum() over reals: Kahan-Babuska-Neumaier
// compensated summation, whose result can differ from a plain loop in the
// last bit.
type kbnSum struct{ sum, err float64 }

// Add adds one value.
func (k *kbnSum) Add(r float64) {
	s := k.sum
	t := s + r
	if math.Abs(s) > math.Abs(r) {
		k.err += (s - t) + r
	} else {
		k.err += (r - t) + s
	}
	k.sum = t
}

// Value is the sum as SQLite returns it.
func (k *kbnSum) Value() float64 {
	if math.IsInf(k.err, 0) || math.IsNaN(k.err) {
		return k.sum
	}
	return k.sum + k.err
}

// rule is an analyze rule's Report: the rows= option, then extra.
func rule(name, title, alias, help string, run func(*Ctx) (*Result, error), extra ...Option) *Report {
	return &Report{Name: name, Title: title, Aliases: []string{alias}, Rule: true, Help: help,
		Options: append([]Option{rowsOption}, extra...), Run: run}
}

// memRule describes one of the memory-operation rules: its Report, which
// table, which operations and API names count, and the output columns.
type memRule struct {
	name, title, alias, help string                                                       // the Report's (see rule)
	table                    string                                                       // CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET
	what                     string                                                       // "memcpy" or "memset", for the SKIPPED text
	cols                     []string                                                     // columns read after memRuleCommon (index memExtra on)
	keepOp                   func(v RowVals) bool                                         // the operation predicate
	keepFirst                func(v int64) bool                                           // when set, a gate on the first of cols that keepOp implies
	keepAPI                  func(name string) bool                                       // the API-name LIKE predicate
	row                      func(dst []Value, kinds map[int64]string, v RowVals) []Value // dst with the columns between Start and Bytes
	head                     []string                                                     // their names
	advice                   string
	noRes                    string
}

// report is the rule's Report, which runs m.
func (m *memRule) report() *Report { return rule(m.name, m.title, m.alias, m.help, m.run) }

// memRuleCommon are the columns every memory rule reads, in scan order.
var memRuleCommon = []string{"start", "end", "bytes", "globalPid", "deviceId", "contextId", "greenContextId", "streamId", "correlationId"}

// Scan positions of memRuleCommon; a rule's own columns start at memExtra.
const (
	memStart = iota
	memEnd
	memBytes
	memGPID
	memDev
	memCtx
	memGreen
	memStream
	memCorr
	memExtra
)

// memOp is one operation that passed keepOp, with its output cells.
type memOp struct {
	dur  Value
	vals []Value // Start .. Stream ID
	gpid Value
}

// run computes a memory rule: operations of the (filtered) table that pass
// keepOp, inner-joined on correlationId alone to the unfiltered runtime calls
// whose name passes keepAPI; Duration descending, ties in runtime row order.
func (m *memRule) run(c *Ctx) (*Result, error) {
	if r, err := m.prereq(c); r != nil || err != nil {
		return r, err
	}
	a, skip, err := ruleSetup(c, false, nil)
	if skip != nil || err != nil {
		return skip, err
	}
	sid, err := stringsLike(c, m.keepAPI)
	if err != nil {
		return nil, err
	}
	kinds, err := c.EnumLabels(events.TableEnumCUDAMemKind)
	if err != nil {
		return nil, err
	}
	cols := append(slices.Clone(memRuleCommon), m.cols...)
	if err := needColumns(c, m.table, cols...); err != nil {
		return nil, err
	}
	if err := needColumns(c, tRuntime, "correlationId", "nameId"); err != nil {
		return nil, err
	}
	// the operations load while the runtime calls are scanned (two
	// independent reads: the join follows both)
	var (
		ops      []memOp
		byCorr   *opsByCorr
		opsErr   error
		opsPanic any
		done     = make(chan struct{})
	)
	opsScan, err := c.FilteredScanner(m.table, false, cols...)
	if err != nil {
		return nil, err
	}
	go func() {
		defer close(done)
		defer func() { opsPanic = recover() }() // raised again on the report's goroutine, which recovers it
		ops, byCorr, opsErr = m.loadOps(opsScan, kinds)
	}()
	calls, callsErr := memRuntimeCalls(c, sid)
	<-done
	if opsPanic != nil {
		panic(opsPanic)
	}
	if opsErr != nil {
		return nil, opsErr
	}
	if callsErr != nil && len(ops) > 0 { // without operations the calls are not needed
		return nil, callsErr
	}
	rows := memJoin(calls, byCorr)
	sortStablePDQ(rows, func(x, y memMatch) int { return -Compare(ops[x.op].dur, ops[y.op].dur) })
	rows = rows[:a.limit(len(rows))]

	head := append([]string{"Duration:dur_ns", "Start:ts_ns"}, m.head...)
	head = append(head, "Bytes:mem_B", "PID", "Device ID", "Context ID", "Green Context ID", "Stream ID", "API Name", "_Global ID", "_API")
	res := newRuleResult(c, a, m.advice, m.noRes, head...)
	for _, r := range rows {
		op := &ops[r.op]
		vals := append([]Value{op.dur}, op.vals...)
		res.Add(append(vals, TextV(r.api), op.gpid, TextV("cuda"))...)
	}
	return res, nil
}

// prereq returns the SKIPPED result of a profile that lacks what the rule
// needs, or nil.
func (m *memRule) prereq(c *Ctx) (*Result, error) {
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + msgNoRuntime)
	}
	if !c.Has(m.table) {
		return c.Skip(c.Path() + " could not be analyzed because it does not contain the required CUDA data. Does the application use CUDA " + m.what + " APIs?")
	}
	if !c.Has(events.TableEnumCUDAMemKind) {
		return c.Skip(c.Path() + " does not contain ENUM_CUDA_MEM_KIND table.")
	}
	if !c.P.HasColumn(m.table, "greenContextId") {
		return c.Skip(c.Path() + msgNoGreen)
	}
	return nil, nil
}

// loadOps returns the operations of sc (the rule's table) that count, in
// row order, and their indexes by correlationId.
func (m *memRule) loadOps(sc *Scanner, kinds map[int64]string) ([]memOp, *opsByCorr, error) {
	var ops []memOp
	byCorr := &opsByCorr{ends: map[int64][2]int32{}}
	var slab []Value
	width := len(m.head) + 7 // Start, the rule's columns, Bytes .. Stream ID
	add := func(_ int64, v RowVals) {
		corr, null := sqlInt(v, memCorr)
		if null || !m.keepOp(v) {
			return
		}
		op := memOp{dur: Null, gpid: sqlValue(v, memGPID)}
		if s, sn := sqlInt(v, memStart); !sn {
			if e, en := sqlInt(v, memEnd); !en {
				op.dur = IntV(e - s)
			}
		}
		green := sqlValue(v, memGreen)
		if green.Kind == IntKind && green.I == 0 {
			green = Null // NULLIF(greenContextId, 0)
		}
		if cap(slab)-len(slab) < width {
			slab = make([]Value, 0, 1024*width) // the operations' cells, a block at a time
		}
		k := len(slab)
		slab = m.row(append(slab, sqlValue(v, memStart)), kinds, v)
		slab = append(slab, sqlValue(v, memBytes), pidValue(op.gpid), sqlValue(v, memDev), sqlValue(v, memCtx), green, sqlValue(v, memStream))
		op.vals = slab[k:len(slab):len(slab)]
		byCorr.add(corr, int32(len(ops)))
		ops = append(ops, op)
	}
	if m.keepFirst != nil { // the operations keepOp refuses on their first column are skipped undecoded
		if ok, err := ScanGatedSQLite(sc, memExtra, m.keepFirst, add); ok || err != nil {
			return ops, byCorr, err
		}
	}
	return ops, byCorr, sc.Run(add)
}

// memMatch is one row of a memory rule's join: an operation and the name
// of its runtime call.
type memMatch struct {
	op  int32
	api string
}

// memCall is a runtime call whose name counts: its correlationId and name.
type memCall struct {
	corr int64
	api  string
}

// memRuntimeCalls returns the unfiltered runtime calls whose name is in sid,
// in runtime row order (those without a correlationId left out).
func memRuntimeCalls(c *Ctx, sid map[int64]string) ([]memCall, error) {
	var calls []memCall
	if len(sid) == 0 {
		return nil, nil
	}
	rt, err := c.FilteredScanner(tRuntime, true, "correlationId", "nameId")
	if err != nil {
		return nil, err
	}
	in := newIDSet(sid)
	add := func(_ int64, v RowVals) {
		name, nn := sqlInt(v, 1)
		if nn || !in.has(name) {
			return
		}
		if corr, cn := sqlInt(v, 0); !cn {
			calls = append(calls, memCall{corr, sid[name]})
		}
	}
	if ok, err := ScanGatedSQLite(rt, 1, in.has, add); ok || err != nil {
		return calls, err
	}
	return calls, rt.Run(add)
}

// memJoin joins the operations (by correlationId) to the calls, on
// correlationId alone, in call order.
func memJoin(calls []memCall, byCorr *opsByCorr) []memMatch {
	var rows []memMatch
	for _, k := range calls {
		if e, ok := byCorr.ends[k.corr]; ok {
			for op := e[0]; op >= 0; op = byCorr.next[op] {
				rows = append(rows, memMatch{op, k.api})
			}
		}
	}
	return rows
}

// opsByCorr indexes operations (numbered in row order) by correlationId:
// the first and last of each id, and each one's next of the same id (-1
// for none), so that an id's operations come in row order without a slice
// of their own (thousands of small allocations in a fresh process).
type opsByCorr struct {
	ends map[int64][2]int32
	next []int32
}

// add records operation op (the next number) under corr.
func (b *opsByCorr) add(corr int64, op int32) {
	b.next = append(b.next, -1)
	if e, ok := b.ends[corr]; ok {
		b.next[e[1]] = op
		b.ends[corr] = [2]int32{e[0], op}
	} else {
		b.ends[corr] = [2]int32{op, op}
	}
}

// needColumns returns a *MissingColumnError (a SKIPPED report) for the first
// column table lacks; a Scanner would read it as NULL.
func needColumns(c *Ctx, table string, cols ...string) error {
	for _, col := range cols {
		if !c.P.HasColumn(table, col) {
			return &MissingColumnError{Table: table, Column: col}
		}
	}
	return nil
}

// idSet is a set of StringIds ids, dense when the ids are small.
type idSet struct {
	dense []bool
	m     map[int64]string
}

func newIDSet(m map[int64]string) idSet {
	var hi int64 = -1
	for id := range m {
		if id < 0 || id >= 1<<22 {
			return idSet{m: m}
		}
		hi = max(hi, id)
	}
	s := idSet{dense: make([]bool, hi+1)}
	for id := range m {
		s.dense[id] = true
	}
	return s
}

func (s idSet) has(id int64) bool {
	if s.m != nil {
		_, ok := s.m[id]
		return ok
	}
	return id >= 0 && id < int64(len(s.dense)) && s.dense[id]
}

// sqlInt reads column i of a scanned row as an integer column (NULL for an
// absent column or a value that is not a number; reals truncated).
func sqlInt(v RowVals, i int) (int64, bool) {
	p := v.Pos[i]
	if p < 0 {
		return 0, true
	}
	switch x := &v.V[p]; x.Type {
	case model.RecInteger:
		return x.I, false
	case model.RecFloat:
		return int64(x.F), false
	case model.RecNull:
		return 0, true
	}
	return v.Int(i), false
}

// sqlValue is column i of a scanned row as a Value.
func sqlValue(v RowVals, i int) Value {
	p := v.Pos[i]
	if p < 0 {
		return Null
	}
	switch x := &v.V[p]; x.Type {
	case model.RecInteger:
		return IntV(x.I)
	case model.RecFloat:
		return FloatV(x.F)
	case model.RecText, model.RecBlob:
		return TextV(string(x.B))
	}
	return Null
}

// sqlIs reports whether column i of a scanned row is the integer x (false
// for NULL, as SQL's = is).
func sqlIs(v RowVals, i int, x int64) bool {
	n, null := sqlInt(v, i)
	return !null && n == x
}

// pidValue is a globalPid's process id, NULL for a NULL id.
func pidValue(g Value) Value {
	if g.Kind != IntKind {
		return Null
	}
	return IntV(gPID(g.I))
}

// memKindLabel resolves an ENUM_CUDA_MEM_KIND id (LEFT JOIN: NULL when absent).
func memKindLabel(labels map[int64]string, v RowVals, i int) Value {
	id, null := sqlInt(v, i)
	if null {
		return Null
	}
	if l, ok := labels[id]; ok {
		return TextV(l)
	}
	return Null
}

// sortStablePDQ sorts s as slices.SortStableFunc does, by way of pdqsort over
// positions with ties broken by position: the same order, without the
// insertion sorts and merges that move the elements n log² n times (the
// rules sort thousands of kept calls of several values each).
func sortStablePDQ[T any](s []T, cmp func(a, b T) int) {
	idx := make([]int32, len(s))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmp(s[a], s[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	out := make([]T, len(s))
	for i, j := range idx {
		out[i] = s[j]
	}
	copy(s, out)
}
