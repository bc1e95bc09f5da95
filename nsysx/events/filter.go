package events

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/nsysx/nsysx/nsysx/model"
)

// isCancel reports whether err is a cancelled or expired context's.
var isCancel = model.IsCancel

// Filter restricts reports to a time window, as `--filter-time` and the
// start=/end= report options do, or to the window and thread of one NVTX
// range, as `--filter-nvtx` and nvtx= do (docs/stats.md §3).
//
// Under a filter every table with both a start and an end column keeps only
// the rows that overlap the window [Start, End): start in the window, end in
// the window, or start before it and end at or after its end. A row whose end
// is NULL stays only when its start lies in the window. For an NVTX filter the
// tables are also restricted to the range's thread (a push/pop range, PID ≠
// TID) or process (a start/end range on the main thread). Other tables
// (StringIds, ThreadNames, ENUM_*, TARGET_INFO_*, MPI_RANKS ...) are never
// filtered. The views (View: Kernels, CUDAAPICalls, ...) apply a filter as
// they produce rows; a load of the profile itself reads the table whole.
//
// A Filter may serve several profiles and reports at once: what it resolves
// and the filtered tables are kept per profile, so that repeated loads of a
// table return the same rows.
type Filter struct {
	// Start and End bound a time filter. With NVTX set they are used only
	// when StartSet / EndSet say so (a start= or end= next to nvtx=).
	Start, End int64
	// NVTX is the range argument, name[@domain][/index], or "".
	NVTX string
	// StartSet and EndSet mark explicit bounds that override an NVTX range's.
	StartSet, EndSet bool
	// Process and Thread, when HasProcess / HasThread, keep only rows of that
	// PID (globalTid or globalPid bits 24..47) or TID (globalTid bits 0..23),
	// as cuda_api_sync's process= and thread= do.
	Process, Thread       int64
	HasProcess, HasThread bool

	mu     sync.Mutex
	states map[*model.Profile]*filterState
}

// SkipError is returned by loads under a filter that cannot apply to the
// profile (an NVTX range that is not there, start after end); the report is
// SKIPPED with Msg.
type SkipError struct{ Msg string }

func (e *SkipError) Error() string { return "SKIPPED: " + e.Msg }

// ParseNVTXFilter parses a `--filter-nvtx name[@domain][/index]` argument. The
// range itself is looked up when the filter is applied to a profile.
func ParseNVTXFilter(s string) (*Filter, error) {
	if s == "" {
		return nil, errors.New("empty NVTX range name (want name[@domain][/index])")
	}
	return &Filter{NVTX: s}, nil
}

// OptionFilter is the filter nsys builds from a report's start=, end= and
// nvtx= options (nil pointers and !hasNVTX for absent ones): without nvtx= a
// missing start is 0 and a missing end 2^63-1; with it the range supplies
// the missing bounds.
func OptionFilter(start, end *int64, nvtx string, hasNVTX bool) *Filter {
	f := &Filter{Start: 0, End: math.MaxInt64}
	if hasNVTX {
		f.NVTX = nvtx
	}
	if start != nil {
		f.Start, f.StartSet = *start, true
	}
	if end != nil {
		f.End, f.EndSet = *end, true
	}
	return f
}

// Args lists the script arguments nsys passes for the filter, as printed in
// "Processing [...] with [...](start=..:end=..)" and used in file names.
func (f *Filter) Args() []string {
	if f == nil {
		return nil
	}
	var a []string
	if f.NVTX != "" {
		a = append(a, "nvtx="+f.NVTX)
		if f.StartSet {
			a = append(a, "start="+strconv.FormatInt(f.Start, 10))
		}
		if f.EndSet {
			a = append(a, "end="+strconv.FormatInt(f.End, 10))
		}
		return a
	}
	return append(a, "start="+strconv.FormatInt(f.Start, 10), "end="+strconv.FormatInt(f.End, 10))
}

// With returns the filter that results from adding report options start=,
// end= and nvtx= to f (nil for none): an option replaces the filter's value,
// as a later argument does for nsys's argument parser.
func (f *Filter) With(start, end *int64, nvtx *string) *Filter {
	if start == nil && end == nil && nvtx == nil {
		return f
	}
	g := &Filter{Start: 0, End: math.MaxInt64}
	if f != nil {
		g.Start, g.End, g.NVTX, g.StartSet, g.EndSet = f.Start, f.End, f.NVTX, f.StartSet, f.EndSet
		g.Process, g.Thread, g.HasProcess, g.HasThread = f.Process, f.Thread, f.HasProcess, f.HasThread
		if f.NVTX == "" {
			g.StartSet, g.EndSet = true, true
		}
	}
	if nvtx != nil {
		g.NVTX = *nvtx
	}
	if start != nil {
		g.Start, g.StartSet = *start, true
	}
	if end != nil {
		g.End, g.EndSet = *end, true
	}
	return g
}

// filterState is what a Filter resolved for one profile, and its tables.
type filterState struct {
	skip   string
	s, e   int64
	gtid   int64
	thread int8 // 0 no NVTX restriction, 1 same globalTid, 2 same process
	err    error

	mu     sync.Mutex
	tables map[string]*filteredTable
}

type filteredTable struct {
	mu   sync.Mutex
	keep []int32
	t    *model.Table // the filtered columns so far
}

// Resolve looks the filter's NVTX range up in p (once per profile) and
// reports the SKIPPED message nsys would print, or "" when the filter
// applies. Cancelling ctx stops the lookup with ctx.Err(); a cancelled
// lookup is not kept.
func (f *Filter) Resolve(ctx context.Context, p *model.Profile) (skipMsg string, err error) {
	st := f.state(ctx, p)
	return st.skip, st.err
}

// Window returns the resolved time window [start, end) on p (resolving the
// filter under ctx first, see Resolve).
func (f *Filter) Window(ctx context.Context, p *model.Profile) (start, end int64) {
	st := f.state(ctx, p)
	return st.s, st.e
}

func (f *Filter) state(ctx context.Context, p *model.Profile) *filterState {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st := f.states[p]; st != nil {
		return st
	}
	if f.states == nil {
		f.states = map[*model.Profile]*filterState{}
	}
	st := &filterState{s: f.Start, e: f.End, tables: map[string]*filteredTable{}}
	f.states[p] = st
	if f.NVTX != "" {
		var r nvtxHit
		var msg string
		err := p.StringsErr(ctx) // unreadable names are an error, not "range not found"
		if err == nil {
			r, msg, err = findNVTXRange(ctx, p, f.NVTX)
		}
		switch {
		case err != nil:
			st.err = err
			if isCancel(err) || ctx.Err() != nil {
				delete(f.states, p) // the next call looks again
			}
			return st
		case msg != "":
			st.skip = msg
			return st
		}
		if !f.StartSet {
			st.s = r.start
		}
		if !f.EndSet {
			if r.endNull {
				st.err = fmt.Errorf("NVTX range '%s' has no end in %s: it cannot be used as a filter", f.NVTX, p.Path)
				return st
			}
			st.e = r.end
		}
		st.gtid = r.gtid
		if model.GlobalTid(r.gtid).PID() != model.GlobalTid(r.gtid).TID() {
			st.thread = 1
		} else {
			st.thread = 2
		}
	}
	if st.s > st.e {
		st.skip = "The start time cannot be greater than the end time."
	} else if f.NVTX != "" && (f.HasProcess || f.HasThread) {
		st.skip = "The 'nvtx' option cannot be used with 'pid' or 'tid'."
	}
	return st
}

// RowFilter is the row predicate of a filtered table.
type RowFilter struct {
	s, e     int64
	thread   int8 // 0 none, 1 globalTid == gtid, 2 same process (bits 24..63)
	gtid     int64
	pid, tid int64 // -1 when off
	UseTid   bool  // test the globalTid column (else globalPid)
	UsePid   bool  // test a globalPid column
}

// predicate returns the row test for table on p, or nil when the table is
// not filtered (it lacks a start or an end column).
func (f *Filter) predicate(p *model.Profile, st *filterState, table string) *RowFilter {
	if !p.HasColumn(table, "start") || !p.HasColumn(table, "end") {
		return nil
	}
	rf := &RowFilter{s: st.s, e: st.e, thread: st.thread, gtid: st.gtid, pid: -1, tid: -1}
	if f.HasProcess {
		rf.pid = f.Process
	}
	if f.HasThread {
		rf.tid = f.Thread
	}
	rf.UseTid = p.HasColumn(table, "globalTid")
	rf.UsePid = !rf.UseTid && p.HasColumn(table, "globalPid")
	return rf
}

// ThreadColumn is the column the predicate reads besides start and end
// (globalTid or globalPid), or "" when it reads none.
func (rf *RowFilter) ThreadColumn() string {
	switch {
	case !rf.NeedsThread():
		return ""
	case rf.UseTid:
		return "globalTid"
	}
	return "globalPid"
}

// NeedsThread reports whether the predicate reads globalTid/globalPid.
func (rf *RowFilter) NeedsThread() bool {
	return (rf.UseTid || rf.UsePid) && (rf.thread != 0 || rf.pid >= 0 || (rf.tid >= 0 && rf.UseTid))
}

// keep applies the predicate to one row's values.
func (rf *RowFilter) Keep(s int64, sNull bool, e int64, eNull bool, g int64, gNull bool) bool {
	in := !sNull && s >= rf.s && s < rf.e ||
		!eNull && e >= rf.s && e < rf.e ||
		!sNull && !eNull && s < rf.s && e >= rf.e
	if !in {
		return false
	}
	if !rf.UseTid && !rf.UsePid {
		return true
	}
	if rf.pid >= 0 && (gNull || model.GlobalTid(g).PID() != rf.pid) {
		return false
	}
	if rf.tid >= 0 && rf.UseTid && (gNull || model.GlobalTid(g).TID() != rf.tid) {
		return false
	}
	switch rf.thread {
	case 1:
		if rf.UseTid {
			return !gNull && g == rf.gtid
		}
		return !gNull && model.GlobalTid(g).Upper() == model.GlobalTid(rf.gtid).Upper()
	case 2:
		return !gNull && model.GlobalTid(g).Upper() == model.GlobalTid(rf.gtid).Upper()
	}
	return true
}

// init computes the rows of table that pass rf.
func (ft *filteredTable) init(ctx context.Context, p *model.Profile, table string, rf *RowFilter) error {
	cols := []string{"start", "end"}
	gcol := ""
	if rf.NeedsThread() {
		gcol = "globalTid"
		if rf.UsePid {
			gcol = "globalPid"
		}
		cols = append(cols, gcol)
	}
	full, err := p.Load(ctx, table, cols...)
	if err != nil {
		return err
	}
	s, e := full.Col("start"), full.Col("end")
	var g *model.Column
	if gcol != "" {
		g = full.Col(gcol)
	}
	for i := 0; i < full.N; i++ {
		var gv int64
		gNull := true
		if g != nil && !g.IsNull(i) {
			gv, gNull = g.Int(i), false
		}
		if rf.Keep(s.Int(i), s.IsNull(i), e.Int(i), e.IsNull(i), gv, gNull) {
			ft.keep = append(ft.keep, int32(i))
		}
	}
	t := &model.Table{Name: full.Name, N: len(ft.keep)}
	if full.RowIDs != nil {
		t.RowIDs = make([]int64, len(ft.keep))
		for j, i := range ft.keep {
			t.RowIDs[j] = full.RowIDs[i]
		}
	}
	ft.t = t
	return nil
}
