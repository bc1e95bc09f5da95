package nsysx

import (
	"context"
	"math"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// ScanRow is one row delivered by Profile.Scan. Column i is the i-th of the
// columns asked for; a column the table lacks reads as NULL. A ScanRow and the
// text it returns are valid only during the callback.
type ScanRow struct{ v rowVals }

// IsNull reports whether column i is NULL or absent from the table.
func (r ScanRow) IsNull(i int) bool { return r.v.null(i) }

// Has reports whether the table has column i.
func (r ScanRow) Has(i int) bool { return r.v.has(i) }

// Int returns column i as an integer (0 for NULL).
func (r ScanRow) Int(i int) int64 { return r.v.int(i) }

// Float returns column i as a float (NaN for NULL).
func (r ScanRow) Float(i int) float64 {
	if r.v.null(i) {
		return math.NaN()
	}
	v := r.v.v[r.v.pos[i]]
	if v.Type == sqlite.Float {
		return v.F
	}
	return float64(r.v.int(i))
}

// Str returns column i as text ("" for NULL); the string is a copy.
func (r ScanRow) Str(i int) string { return string(r.v.bytes(i)) }

// Bytes returns column i as text bytes (nil for NULL) without copying them:
// they are valid only during the callback. Comparing them with a string
// (string(b) == s) allocates nothing.
func (r ScanRow) Bytes(i int) []byte { return r.v.bytes(i) }

// Scan calls fn for every row of table, in rowid order, that passes f (nil:
// every row), with the columns cols. Unlike Load it keeps nothing: SQLite
// exports are read page by page, so a pass over a table of any size runs in
// bounded memory (Parquet and Arrow exports load the columns first). Under f
// the rows are those the reports see (see Filter); a filter that cannot
// apply gives a *SkipError. fn's error stops the scan and is returned;
// ctx's cancellation stops it with ctx.Err().
func (p *Profile) Scan(ctx context.Context, table string, f *Filter, cols []string, fn func(r ScanRow) error) error {
	if ctx == nil {
		return errNilContext
	}
	if !p.HasTable(table) {
		return &MissingTableError{Table: table}
	}
	c := &Ctx{Context: ctx, P: p, Filter: f}
	sc, err := c.filteredScanner(table, f == nil, cols...)
	if err != nil {
		return err
	}
	n := 0
	return sc.runErr(func(_ int64, v rowVals) error {
		if n++; n&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return fn(ScanRow{v})
	})
}

// scanGatedSQLite is sc.run for a SQLite export without a filter whose
// columns the table all has: the rows whose field gf is an INTEGER that
// keep refuses are left out as soon as it is decoded (sqlite.ScanOptions'
// Gate), before any conversion. It is false when it does not apply.
func scanGatedSQLite(sc *scanner, gf int, keep func(int64) bool, fn func(int64, rowVals)) (bool, error) {
	src, ok := sc.p.src.(*sqliteSource)
	if !ok || sc.rf != nil || len(sc.cols) > sqlite.MaxFields {
		return false, nil
	}
	t := src.db.Table(sc.table)
	if t == nil {
		return false, nil
	}
	pos := make([]int, len(sc.cols))
	for i, col := range sc.cols {
		if !sc.p.HasColumn(sc.table, col) {
			return false, nil
		}
		pos[i] = i
	}
	v := rowVals{make([]sqlite.Value, len(sc.cols)), pos}
	opt := sqlite.ScanOptions{Context: sc.ctx, Release: true, ReleaseEvery: loadReleaseEvery, Gate: keep, GateField: gf}
	return true, src.db.ScanFields(t, sc.cols, opt, func(rowid int64, f *sqlite.Fields) error {
		if f.Gated {
			return nil
		}
		for k := range v.v {
			v.v[k] = fieldValue(f, k)
		}
		fn(rowid, v)
		return nil
	})
}
