package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// View is one kind of event of a profile (the rows of one export table)
// seen through a Filter: the rows it produces are those the filter keeps,
// whichever way they are read (loaded columns, a streamed scan, a gated
// scan of the SQLite loader). A nil filter keeps every row. The reports
// read their events through views (Kernels, CUDAAPICalls, ...), never the
// raw table under a filter of their own.
type View struct {
	ctx   context.Context
	p     *model.Profile
	f     *Filter
	table string
}

// Of is the view of table's events in p under f (nil: unfiltered). Use
// the named views (Kernels, Memcpys, ...) where one fits.
func Of(ctx context.Context, p *model.Profile, f *Filter, table string) *View {
	return &View{ctx: ctx, p: p, f: f, table: table}
}

// The views of the kinds of events the analyses read.

// Kernels are the CUDA kernels (CUPTI_ACTIVITY_KIND_KERNEL).
func Kernels(ctx context.Context, p *model.Profile, f *Filter) *View {
	return Of(ctx, p, f, TableKernel)
}

// Memcpys are the CUDA memory copies.
func Memcpys(ctx context.Context, p *model.Profile, f *Filter) *View {
	return Of(ctx, p, f, TableMemcpy)
}

// Memsets are the CUDA memsets.
func Memsets(ctx context.Context, p *model.Profile, f *Filter) *View {
	return Of(ctx, p, f, TableMemset)
}

// CUDAAPICalls are the CUDA runtime and driver API calls.
func CUDAAPICalls(ctx context.Context, p *model.Profile, f *Filter) *View {
	return Of(ctx, p, f, TableRuntime)
}

// OSRTCalls are the OS runtime library calls.
func OSRTCalls(ctx context.Context, p *model.Profile, f *Filter) *View {
	return Of(ctx, p, f, TableOSRTAPI)
}

// NVTXEvents are the NVTX events (ranges, marks, domain and string
// registrations).
func NVTXEvents(ctx context.Context, p *model.Profile, f *Filter) *View {
	return Of(ctx, p, f, TableNVTXEvents)
}

// GraphExecs are the whole CUDA graph executions (graph-level trace).
func GraphExecs(ctx context.Context, p *model.Profile, f *Filter) *View {
	return Of(ctx, p, f, TableGraphTrace)
}

// Table is the export table the view reads.
func (v *View) Table() string { return v.table }

// Has reports whether the export holds the view's table.
func (v *View) Has() bool { return v.p.HasTable(v.table) }

// Filter is the view's filter (nil: none).
func (v *View) Filter() *Filter { return v.f }

// RowFilter is the view's row test, nil when the filter keeps every row of
// the table (no filter, or a table without a start and an end). A filter
// that cannot apply to the profile gives a *SkipError, one that could not
// be resolved its error.
func (v *View) RowFilter() (*RowFilter, error) {
	if v.f == nil {
		return nil, nil
	}
	st := v.f.state(v.ctx, v.p)
	if st.err != nil {
		return nil, st.err
	}
	if st.skip != "" {
		return nil, &SkipError{Msg: st.skip}
	}
	return v.f.predicate(v.p, st, v.table), nil
}

// Scanner streams the view's rows with the columns cols (see Scanner): the
// filter's row test applied as the rows are read.
func (v *View) Scanner(cols ...string) (*Scanner, error) {
	rf, err := v.RowFilter()
	if err != nil {
		return nil, err
	}
	return &Scanner{Ctx: v.ctx, P: v.p, Table: v.table, Cols: cols, RF: rf}, nil
}

// Load loads columns of the view's rows (with their rowids). Under a
// filter the rows kept are computed once per filter, profile and table,
// and repeated loads return the same rows, a column loaded once being
// shared by later loads.
func (v *View) Load(cols ...string) (*model.Table, error) {
	if err := v.ctx.Err(); err != nil {
		return nil, err
	}
	if v.f == nil {
		return v.p.Load(v.ctx, v.table, cols...)
	}
	rf, err := v.RowFilter()
	if err != nil {
		return nil, err
	}
	if rf == nil {
		return v.p.Load(v.ctx, v.table, cols...)
	}
	for _, col := range cols {
		if !v.p.HasColumn(v.table, col) {
			return v.p.Load(v.ctx, v.table, cols...) // the profile's error
		}
	}
	st := v.f.state(v.ctx, v.p)
	key := model.Lower(v.table)
	st.mu.Lock()
	ft := st.tables[key]
	if ft == nil {
		ft = &filteredTable{}
		st.tables[key] = ft
	}
	st.mu.Unlock()
	ft.mu.Lock()
	defer ft.mu.Unlock()
	if ft.t == nil {
		if err := ft.init(v.ctx, v.p, v.table, rf); err != nil {
			return nil, err
		}
	}
	var need []string
	for _, col := range cols {
		if ft.t.Col(col) == nil {
			need = append(need, col)
		}
	}
	if len(need) == 0 {
		return ft.t, nil
	}
	full, err := v.p.Load(v.ctx, v.table, need...)
	if err != nil {
		return nil, err
	}
	added := make([]*model.Column, len(need))
	for i, n := range need {
		added[i] = full.Col(n).Gather(ft.keep)
	}
	t := ft.t.WithColumns(added...)
	ft.t = t
	return t, nil
}
