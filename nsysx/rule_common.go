package nsysx

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// This file holds what the `nsys analyze` rules share (§5 of the stats spec):
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
// process=/thread= when pidTid is set. A non-nil Result is a SKIPPED outcome.
func (c *Ctx) ruleSetup(pidTid bool) (ruleArgs, *Result, error) {
	a := ruleArgs{pid: -1, tid: -1}
	var err error
	if a.rows, err = c.pyIntOpt("rows", defaultRuleRows); err != nil {
		return a, nil, err
	}
	if pidTid {
		if a.pid, err = c.pyIntOpt("process", -1); err != nil {
			return a, nil, err
		}
		if a.tid, err = c.pyIntOpt("thread", -1); err != nil {
			return a, nil, err
		}
	}
	skip, err := c.ruleFilter(a.pid >= 0 || a.tid >= 0)
	return a, skip, err
}

// pyIntOpt returns an integer option parsed as Python's int() does (the
// rules' argparse type=int), or def when the option is absent.
func (c *Ctx) pyIntOpt(name string, def int64) (int64, error) {
	v, ok := c.Opt(name)
	if !ok {
		return def, nil
	}
	n, ok := pyInt(v)
	if !ok {
		return 0, fmt.Errorf("%w: argument --%s: invalid int value: '%s'", ErrBadOption, name, v)
	}
	return n, nil
}

// optIntPtr is pyIntOpt for options without a default: nil when absent.
func (c *Ctx) optIntPtr(name string) (*int64, error) {
	if _, ok := c.Opt(name); !ok {
		return nil, nil
	}
	n, err := c.pyIntOpt(name, 0)
	return &n, err
}

// pyInt parses s as Python's int(s): surrounding white space, an optional
// sign, decimal digits with single underscores between them. Values beyond
// int64 are rejected.
func pyInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false
	}
	s = strings.ReplaceAll(s, "_", "")
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	if neg {
		s = "-" + s
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// ruleFilter builds the filter nsys's filter_time_range builds from start=,
// end= and nvtx= and installs it as c.Filter; pidTid tells that process= or
// thread= is active, which needs the full-range time filter and excludes
// nvtx=. Without any of these options a filter given by the caller (the CLI's
// --filter-time / --filter-nvtx) stays in place.
func (c *Ctx) ruleFilter(pidTid bool) (*Result, error) {
	start, err := c.optIntPtr("start")
	if err != nil {
		return nil, err
	}
	end, err := c.optIntPtr("end")
	if err != nil {
		return nil, err
	}
	nvtx, hasNVTX := c.Opt("nvtx")
	if start == nil && end == nil && !hasNVTX && !pidTid {
		return nil, nil
	}
	f, msg, err := c.optionFilter(start, end, nvtx, hasNVTX)
	if err != nil || msg != "" {
		if msg != "" {
			r, _ := c.Skip(msg)
			return r, nil
		}
		return nil, err
	}
	if f.Start > f.End {
		return c.Skip("The start time cannot be greater than the end time.")
	}
	if pidTid && hasNVTX {
		return c.Skip("The 'nvtx' option cannot be used with 'pid' or 'tid'.")
	}
	c.Filter = f
	return nil, nil
}

// keepThread applies process=/thread= to a row's globalTid (cuda_api_sync's
// only table, the runtime, has one); NULL fails any active test.
func (a ruleArgs) keepThread(gtid *Column, i int) bool {
	if a.pid < 0 && a.tid < 0 {
		return true
	}
	if gtid.IsNull(i) {
		return false
	}
	g := gtid.Ints[i]
	return (a.pid < 0 || gPID(g) == a.pid) && (a.tid < 0 || gTID(g) == a.tid)
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
func (c *Ctx) stringsLike(keep func(string) bool) (map[int64]string, error) {
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

// memRule describes one of the memory-operation rules: which table, which
// operations and API names count, and the output columns.
type memRule struct {
	table   string                                                // CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET
	what    string                                                // "memcpy" or "memset", for the SKIPPED text
	cols    []string                                              // columns to load besides the common ones
	keepOp  func(t *Table, i int) bool                            // the operation predicate
	keepAPI func(name string) bool                                // the API-name LIKE predicate
	row     func(kinds map[int64]string, t *Table, i int) []Value // the columns between Start and Bytes
	head    []string                                              // their names
	advice  string
	noRes   string
}

// memRuleCommon are the columns every memory rule reads.
var memRuleCommon = []string{"start", "end", "bytes", "globalPid", "deviceId", "contextId", "greenContextId", "streamId", "correlationId"}

// run computes a memory rule: operations of the (filtered) table that pass
// keepOp, inner-joined on correlationId alone to the unfiltered runtime calls
// whose name passes keepAPI; Duration descending, ties in runtime row order.
func (m *memRule) run(c *Ctx) (*Result, error) {
	if r, skip := c.skipNoStrings(); skip {
		return r, nil
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + msgNoRuntime)
	}
	if !c.Has(m.table) {
		return c.Skip(c.Path() + " could not be analyzed because it does not contain the required CUDA data. Does the application use CUDA " + m.what + " APIs?")
	}
	if !c.Has("ENUM_CUDA_MEM_KIND") {
		return c.Skip(c.Path() + " does not contain ENUM_CUDA_MEM_KIND table.")
	}
	if !c.P.HasColumn(m.table, "greenContextId") {
		return c.Skip(c.Path() + msgNoGreen)
	}
	a, skip, err := c.ruleSetup(false)
	if skip != nil || err != nil {
		return skip, err
	}
	sid, err := c.stringsLike(m.keepAPI)
	if err != nil {
		return nil, err
	}
	kinds, err := c.enumLabels("ENUM_CUDA_MEM_KIND")
	if err != nil {
		return nil, err
	}
	t, err := c.Load(m.table, append(slices.Clone(memRuleCommon), m.cols...)...)
	if err != nil {
		return nil, err
	}
	// Operations by correlationId, in row order.
	byCorr := map[int64][]int32{}
	corr := t.Col("correlationId")
	for i := 0; i < t.N; i++ {
		if !corr.IsNull(i) && m.keepOp(t, i) {
			k := corr.Ints[i]
			byCorr[k] = append(byCorr[k], int32(i))
		}
	}
	type match struct {
		op  int32
		api string
	}
	var rows []match
	if len(byCorr) > 0 && len(sid) > 0 {
		rt, err := c.LoadRaw(tRuntime, "correlationId", "nameId")
		if err != nil {
			return nil, err
		}
		rc, rn := rt.Col("correlationId"), rt.Col("nameId")
		for i := 0; i < rt.N; i++ {
			if rc.IsNull(i) || rn.IsNull(i) {
				continue
			}
			ops, ok := byCorr[rc.Ints[i]]
			if !ok {
				continue
			}
			name, ok := sid[rn.Ints[i]]
			if !ok {
				continue
			}
			for _, op := range ops {
				rows = append(rows, match{op, name})
			}
		}
	}
	st, en := t.Col("start"), t.Col("end")
	durOf := func(i int32) Value { return nv2sub(en, st, int(i)) }
	slices.SortStableFunc(rows, func(x, y match) int { return -Compare(durOf(x.op), durOf(y.op)) })
	rows = rows[:a.limit(len(rows))]

	cols := append([]string{"Duration:dur_ns", "Start:ts_ns"}, m.head...)
	cols = append(cols, "Bytes:mem_B", "PID", "Device ID", "Context ID", "Green Context ID", "Stream ID", "API Name", "_Global ID", "_API")
	res := newRuleResult(c, a, m.advice, m.noRes, cols...)
	gp, green := t.Col("globalPid"), t.Col("greenContextId")
	for _, r := range rows {
		i := int(r.op)
		vals := []Value{durOf(r.op), nv(st, i)}
		vals = append(vals, m.row(kinds, t, i)...)
		g := nv(green, i)
		if g.Kind == IntKind && g.I == 0 {
			g = Null
		}
		vals = append(vals, nv(t.Col("bytes"), i), pidOf(gp, i), nv(t.Col("deviceId"), i), nv(t.Col("contextId"), i),
			g, nv(t.Col("streamId"), i), TextV(r.api), nv(gp, i), TextV("cuda"))
		res.Add(vals...)
	}
	return res, nil
}

// nv2sub is a - b for two integer columns, NULL when either is NULL.
func nv2sub(a, b *Column, i int) Value {
	if a.IsNull(i) || b.IsNull(i) {
		return Null
	}
	return IntV(a.Ints[i] - b.Ints[i])
}

// pidOf is (globalPid >> 24) & 0xFFFFFF, NULL for a NULL id.
func pidOf(g *Column, i int) Value {
	if g.IsNull(i) {
		return Null
	}
	return IntV(gPID(g.Ints[i]))
}

// memKindLabel resolves an ENUM_CUDA_MEM_KIND id (LEFT JOIN: NULL when absent).
func memKindLabel(labels map[int64]string, col *Column, i int) Value {
	if col.IsNull(i) {
		return Null
	}
	if l, ok := labels[col.Ints[i]]; ok {
		return TextV(l)
	}
	return Null
}

// isInt reports whether row i of col is the integer v (false for NULL).
func isInt(col *Column, i int, v int64) bool { return !col.IsNull(i) && col.Ints[i] == v }

// optionFilter turns start=, end= and nvtx= into a Filter as nsys's
// filter_time_range does: without nvtx= a missing start is 0 and a missing
// end 2^63-1; with nvtx= the range found supplies the missing bounds and the
// thread restriction. A non-empty msg is a SKIPPED message.
//
// TODO(filter): nvtx= needs the NVTX range lookup of --filter-nvtx from
// filter.go.
func (c *Ctx) optionFilter(start, end *int64, nvtx string, hasNVTX bool) (f *Filter, msg string, err error) {
	if hasNVTX {
		return nil, "", fmt.Errorf("%w: nvtx=%s: NVTX filtering is not available yet", ErrBadOption, nvtx)
	}
	f = &Filter{Start: 0, End: math.MaxInt64}
	if start != nil {
		f.Start = *start
	}
	if end != nil {
		f.End = *end
	}
	return f, "", nil
}
