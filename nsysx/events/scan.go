package events

import (
	"context"
	"strconv"
	"unsafe"

	"github.com/nsysx/nsysx/nsysx/model"
)

// Scanner streams the rows of one table in rowid order with a filter's row
// test applied (View.Scanner), without materialising columns: NVTX_EVENTS
// holds millions of rows and the NVTX reports need one pass over them.
type Scanner struct {
	Ctx   context.Context
	P     *model.Profile
	Table string
	Cols  []string   // wanted columns; absent ones read as NULL
	RF    *RowFilter // nil: every row
}

// RowVals is one row as a Scanner delivers it; i is the position in the
// Scanner's cols.
type RowVals struct {
	V   []model.RecValue
	Pos []int // wanted column -> index in v, -1 when the table lacks it
}

func (r RowVals) Has(i int) bool { return r.Pos[i] >= 0 }

func (r RowVals) Null(i int) bool {
	p := r.Pos[i]
	return p < 0 || r.V[p].Type == model.RecNull
}

func (r RowVals) Int(i int) int64 {
	p := r.Pos[i]
	if p < 0 {
		return 0
	}
	switch v := r.V[p]; v.Type {
	case model.RecInteger:
		return v.I
	case model.RecFloat:
		return int64(v.F)
	case model.RecText:
		n, _ := strconv.ParseInt(string(v.B), 10, 64)
		return n
	}
	return 0
}

// bytes returns a text value; it aliases the file and is valid only during
// the callback.
func (r RowVals) Bytes(i int) []byte {
	p := r.Pos[i]
	if p < 0 {
		return nil
	}
	switch v := r.V[p]; v.Type {
	case model.RecText, model.RecBlob:
		return v.B
	case model.RecInteger:
		return strconv.AppendInt(nil, v.I, 10)
	case model.RecFloat:
		return []byte(model.PyFloat(v.F))
	}
	return nil
}

// Run calls fn for every row that passes the filter.
func (sc *Scanner) Run(fn func(rowid int64, v RowVals)) error {
	return sc.RunErr(func(rowid int64, v RowVals) error { fn(rowid, v); return nil })
}

// RunErr is Run with a callback that can stop the scan with an error.
func (sc *Scanner) RunErr(fn func(rowid int64, v RowVals) error) error {
	schema := sc.P.Schema(sc.Table)
	if schema == nil {
		return &model.MissingTableError{Table: sc.Table}
	}
	var names []string
	pos := make([]int, len(sc.Cols))
	find := func(col string) int {
		for j, n := range names {
			if model.Lower(n) == model.Lower(col) {
				return j
			}
		}
		if !sc.P.HasColumn(sc.Table, col) {
			return -1
		}
		names = append(names, col)
		return len(names) - 1
	}
	for i, col := range sc.Cols {
		pos[i] = find(col)
	}
	ps, pe, pg := -1, -1, -1
	if sc.RF != nil {
		ps, pe = find("start"), find("end")
		if sc.RF.NeedsThread() {
			if sc.RF.UseTid {
				pg = find("globalTid")
			} else {
				pg = find("globalPid")
			}
		}
	}
	keep := func(v []model.RecValue) bool {
		if sc.RF == nil {
			return true
		}
		s, e := v[ps], v[pe]
		var g model.RecValue
		if pg >= 0 {
			g = v[pg]
		}
		return sc.RF.Keep(s.I, s.Type == model.RecNull, e.I, e.Type == model.RecNull, g.I, g.Type == model.RecNull)
	}
	if rs, ok := sc.P.Source().(model.RecordScanner); ok && rs.HasRecords(sc.Table) {
		return rs.ScanValues(sc.Ctx, sc.Table, names, func(rowid int64, v []model.RecValue) error {
			if keep(v) {
				return fn(rowid, RowVals{v, pos})
			}
			return nil
		})
	}
	return sc.runLoaded(names, pos, keep, fn)
}

// runLoaded is run for exports other than SQLite: the columns are loaded and
// replayed as values.
func (sc *Scanner) runLoaded(names []string, pos []int, keep func([]model.RecValue) bool, fn func(int64, RowVals) error) error {
	t, err := sc.P.Load(sc.Ctx, sc.Table, names...)
	if err != nil {
		return err
	}
	cols := make([]*model.Column, len(names))
	for j, n := range names {
		cols[j] = t.Col(n)
	}
	v := make([]model.RecValue, len(names))
	for i := 0; i < t.N; i++ {
		for j, c := range cols {
			switch {
			case c.IsNull(i):
				v[j] = model.RecValue{}
			case c.Type == model.Int:
				v[j] = model.RecValue{Type: model.RecInteger, I: c.Ints[i]}
			case c.Type == model.Float:
				v[j] = model.RecValue{Type: model.RecFloat, F: c.Floats[i], I: int64(c.Floats[i])}
			default:
				s := c.Strs[i]
				v[j] = model.RecValue{Type: model.RecText, B: unsafe.Slice(unsafe.StringData(s), len(s))}
			}
		}
		if !keep(v) {
			continue
		}
		rowid := int64(i + 1)
		if t.RowIDs != nil {
			rowid = t.RowIDs[i]
		}
		if err := fn(rowid, RowVals{v, pos}); err != nil {
			return err
		}
	}
	return nil
}
