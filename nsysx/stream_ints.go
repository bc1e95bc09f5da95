package nsysx

import (
	"context"
	"math/bits"
	"strconv"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// ScanInts streams the columns cols of table, each of them INTEGER in the
// schema (an Int column once loaded), from a SQLite export, in rowid order
// and without loading them: fn gets each row's values as Load gives them
// (v[i], 0 for NULL; a REAL truncated, a BLOB 0, a TEXT parsed or NULL when
// it is not an integer) and its NULL bits (bit i for column i). v is reused
// from row to row. The leaf pages are released from memory as the scan
// leaves them. ok is false, and nothing is read, when the scan does not
// apply: the profile is not a SQLite export, it lacks the table or one of
// the columns, a column is not INTEGER, or there are more than 32 columns.
// fn's error stops the scan and is returned, as is ctx's.
func (p *Profile) ScanInts(ctx context.Context, table string, cols []string, fn func(v []int64, null uint32) error) (ok bool, err error) {
	if ctx == nil {
		return false, errNilContext
	}
	src, isSQLite := p.src.(*sqliteSource)
	ts := p.tables[lower(table)]
	if !isSQLite || ts == nil || len(cols) > sqlite.MaxFields {
		return false, nil
	}
	for _, col := range cols {
		isInt := false
		for j, name := range ts.Columns {
			if lower(name) == lower(col) {
				isInt = ts.Types[j] == Int
			}
		}
		if !isInt {
			return false, nil
		}
	}
	d := directScan{db: src.db, t: src.db.Table(ts.Name), every: loadReleaseEvery}
	if d.t == nil {
		return false, nil
	}
	v := make([]int64, len(cols))
	return true, d.run(ctx, cols, func(_ int64, f *sqlite.Fields) error {
		copy(v, f.I[:len(v)]) // 0 for NULL and BLOB, REAL truncated
		null := f.Null
		for t := f.Text; t != 0; t &= t - 1 {
			k := bits.TrailingZeros32(t)
			if n, err := strconv.ParseInt(string(f.B[k]), 10, 64); err == nil {
				v[k] = n
			} else {
				null |= 1 << k
			}
		}
		return fn(v, null)
	})
}
