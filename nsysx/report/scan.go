package report

import (
	"bytes"
	"context"
	"math"

	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// ScanRow is one row delivered by Profile.Scan. Column i is the i-th of the
// columns asked for; a column the table lacks reads as NULL. A ScanRow and the
// text it returns are valid only during the callback.
type ScanRow struct {
	v RowVals
	f *fieldRow // ScanParts's rows: the decoded fields themselves, not Values
}

// IsNull reports whether column i is NULL or absent from the table.
func (r ScanRow) IsNull(i int) bool {
	if r.f != nil {
		return r.f.null(i)
	}
	return r.v.Null(i)
}

// Has reports whether the table has column i.
func (r ScanRow) Has(i int) bool {
	if r.f != nil {
		return r.f.pos[i] >= 0
	}
	return r.v.Has(i)
}

// isInt reports whether column i holds an INTEGER.
func (r ScanRow) isInt(i int) bool {
	if r.f != nil {
		return (r.f.Null|r.f.Text|r.f.Blob|r.f.Real)&(1<<i) == 0
	}
	p := r.v.Pos[i]
	return p >= 0 && r.v.V[p].Type == model.RecInteger
}

// Int returns column i as an integer (0 for NULL).
func (r ScanRow) Int(i int) int64 {
	if r.f != nil {
		return r.f.int(i)
	}
	return r.v.Int(i)
}

// Float returns column i as a float (NaN for NULL).
func (r ScanRow) Float(i int) float64 {
	if r.f != nil {
		return r.f.float(i)
	}
	if r.v.Null(i) {
		return math.NaN()
	}
	v := r.v.V[r.v.Pos[i]]
	if v.Type == model.RecFloat {
		return v.F
	}
	return float64(r.v.Int(i))
}

// Str returns column i as text ("" for NULL); the string is a copy.
func (r ScanRow) Str(i int) string { return string(r.Bytes(i)) }

// Bytes returns column i as text bytes (nil for NULL) without copying them:
// they are valid only during the callback. Comparing them with a string
// (string(b) == s) allocates nothing.
func (r ScanRow) Bytes(i int) []byte {
	if r.f != nil {
		return r.f.bytes(i)
	}
	return r.v.Bytes(i)
}

// Scan calls fn for every row of table, in rowid order, that passes f (nil:
// every row), with the columns cols. Unlike Load it keeps nothing: SQLite
// exports are read page by page, so a pass over a table of any size runs in
// bounded memory (Parquet and Arrow exports load the columns first). Under f
// the rows are those the reports see (see Filter); a filter that cannot
// apply gives a *SkipError. fn's error stops the scan and is returned;
// ctx's cancellation stops it with ctx.Err().
func Scan(ctx context.Context, p *model.Profile, table string, f *Filter, cols []string, fn func(r ScanRow) error) error {
	if ctx == nil {
		return ErrNilContext
	}
	if !p.HasTable(table) {
		return &MissingTableError{Table: table}
	}
	c := &Ctx{Context: ctx, P: p, Filter: f}
	sc, err := c.FilteredScanner(table, f == nil, cols...)
	if err != nil {
		return err
	}
	n := 0
	return sc.RunErr(func(_ int64, v RowVals) error {
		if n++; n&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return fn(ScanRow{v: v})
	})
}

// DirectScan is a scan of a table straight through the profile's loader
// (model.RecordScanner: the SQLite loader), in rowid order and without a
// filter, with the pages released from the resident set as the scan leaves
// them behind; the one gated scan, which the rules' runtime-call scans
// (ScanGatedSQLite) and the NVTX loader (scanSQLiteNVTX) both use. Absent
// columns read as NULL.
type DirectScan struct {
	rs    model.RecordScanner
	table string
	Has   bool // the file holds the table
	every int  // bytes of pages read between releases (0: the loader's default)
	// keep, when not nil, gates the scan on field gate (an index into the
	// columns): a row whose field is an INTEGER that keep refuses reaches fn
	// with Fields.Gated set, as soon as the field is decoded and without the
	// fields after it (model.ScanOptions' Gate).
	Keep func(int64) bool
	Gate int
	// first gates before any field is decoded: a refused row has none
	// (model.ScanOptions' GateFirst).
	First bool
	// Pread reads RunParts's pages into a buffer of each range's own, not
	// through the file's mapping (model.ScanOptions' Pread): no faults and
	// no releases, but a field's bytes are valid only during the callback.
	Pread bool
}

// DirectOf returns the direct scan of table in p, releasing pages every
// `every` bytes; ok is false when p's loader cannot stream records.
func DirectOf(p *model.Profile, table string, every int) (d DirectScan, ok bool) {
	rs, ok := p.Source().(model.RecordScanner)
	if !ok {
		return d, false
	}
	return DirectScan{rs: rs, table: table, Has: rs.HasRecords(table), every: every}, true
}

// ScannerDirect returns the direct scan of sc's table (DirectOf).
func ScannerDirect(sc *Scanner, every int) (d DirectScan, ok bool) {
	return DirectOf(sc.P, sc.Table, every)
}

// run reads the fields cols of every row into fn, checking ctx as it goes.
func (d DirectScan) Run(ctx context.Context, cols []string, fn func(rowid int64, f *model.Fields) error) error {
	return d.rs.ScanRecords(d.table, cols, d.options(ctx), fn)
}

// runParts is run over up to parts ranges of the table at once, range i
// into newFn(i) (gated when keep is set). It returns the number of ranges.
func (d DirectScan) RunParts(ctx context.Context, cols []string, parts int, newFn func(part int) func(rowid int64, f *model.Fields) error) (int, error) {
	return d.rs.ScanRecordParts(d.table, cols, d.options(ctx), parts, newFn)
}

// runPartsDone is runParts with done(i, err) called on range i's goroutine
// once the range is read (model.ScanOptions' PartDone).
func (d DirectScan) RunPartsDone(ctx context.Context, cols []string, parts int, newFn func(part int) func(rowid int64, f *model.Fields) error, done func(part int, err error)) (int, error) {
	opt := d.options(ctx)
	opt.PartDone = done
	return d.rs.ScanRecordParts(d.table, cols, opt, parts, newFn)
}

// estimateRows is the loader's estimate of the table's rows.
func (d DirectScan) EstimateRows() int { return d.rs.EstimateRows(d.table) }

// options are the scan options of d under ctx.
func (d DirectScan) options(ctx context.Context) model.ScanOptions {
	return model.ScanOptions{Context: ctx, Release: true, ReleaseEvery: d.every, AbsentNull: true, Gate: d.Keep, GateField: d.Gate, GateFirst: d.First, Pread: d.Pread}
}

// ScanGatedSQLite is sc.run for a SQLite export whose columns the table
// all has: the rows whose field gf is an INTEGER that keep refuses are left
// out as soon as it is decoded (a gated DirectScan), before any conversion;
// sc's row filter, when set, is then applied to the rows the gate keeps,
// reading its columns (start, end, the thread's) after sc's. It is false
// when it does not apply. The few rows a gate keeps (a rule's calls among
// all the runtime calls) are what the rules want, so the scan uses every
// core it may (GatedCores): the first range hands its rows to fn as it
// reads them, each later range keeps its own, handed to fn in rowid order
// once all are scanned.
func ScanGatedSQLite(sc *Scanner, gf int, keep func(int64) bool, fn func(int64, RowVals)) (bool, error) {
	d, ok := ScannerDirect(sc, load.ReleaseEvery)
	if !ok || !d.Has {
		return false, nil
	}
	cols := append([]string(nil), sc.Cols...)
	pos := make([]int, len(sc.Cols))
	for i, col := range sc.Cols {
		if !sc.P.HasColumn(sc.Table, col) {
			return false, nil
		}
		pos[i] = i
	}
	rowKeep := gatedRowFilter(sc, &cols)
	if len(cols) > model.MaxFields {
		return false, nil
	}
	d.Keep, d.Gate, d.First = keep, gf, true
	var parts []*keptRows // of the ranges after the first
	_, err := d.RunParts(sc.Ctx, cols, GatedCores(sc.Ctx), func(i int) func(int64, *model.Fields) error {
		if i == 0 { // the first range's rows go to fn as they come: nothing else calls fn meanwhile
			v := RowVals{V: make([]model.RecValue, len(cols)), Pos: pos}
			return func(rowid int64, f *model.Fields) error {
				if rowKeep != nil && !rowKeep(f) {
					return nil
				}
				for k := range v.V {
					if v.V[k] = model.FieldValue(f, k); v.V[k].B != nil {
						v.V[k].B = bytes.Clone(v.V[k].B) // GateFirst: the bytes are the scan's buffer
					}
				}
				fn(rowid, v)
				return nil
			}
		}
		k := &keptRows{n: len(cols)}
		parts = append(parts, k)
		if rowKeep == nil {
			return k.add
		}
		return func(rowid int64, f *model.Fields) error {
			if !rowKeep(f) {
				return nil
			}
			return k.add(rowid, f)
		}
	})
	if err != nil {
		return true, err
	}
	v := RowVals{Pos: pos}
	for _, k := range parts {
		for i, rowid := range k.rowids {
			v.V = k.vals[i*k.n : (i+1)*k.n]
			fn(rowid, v)
		}
	}
	return true, nil
}

// gatedRowFilter is sc's row filter as a test of a row's fields, nil when
// sc has none; the columns it reads that cols lacks are appended to cols
// (compared without case, as runErr finds them).
func gatedRowFilter(sc *Scanner, cols *[]string) func(*model.Fields) bool {
	rf := sc.RF
	if rf == nil {
		return nil
	}
	find := func(col string) int {
		for j, n := range *cols {
			if lower(n) == lower(col) {
				return j
			}
		}
		*cols = append(*cols, col)
		return len(*cols) - 1
	}
	ps, pe, pg := find("start"), find("end"), -1
	if rf.NeedsThread() {
		if rf.UseTid {
			pg = find("globalTid")
		} else {
			pg = find("globalPid")
		}
	}
	return func(f *model.Fields) bool {
		s, e := model.FieldValue(f, ps), model.FieldValue(f, pe)
		var g model.RecValue
		if pg >= 0 {
			g = model.FieldValue(f, pg)
		}
		return rf.Keep(s.I, s.Type == model.RecNull, e.I, e.Type == model.RecNull, g.I, g.Type == model.RecNull)
	}
}

type keptRows struct {
	_      [64]byte // its own cache lines: the ranges append at once
	n      int
	rowids []int64
	vals   []model.RecValue
	_      [64]byte
}

func (k *keptRows) add(rowid int64, f *model.Fields) error { // GateFirst: only kept rows come
	k.rowids = append(k.rowids, rowid)
	for i := range k.n {
		v := model.FieldValue(f, i)
		if v.B != nil {
			v.B = bytes.Clone(v.B)
		}
		k.vals = append(k.vals, v)
	}
	return nil
}
