package load

import (
	"context"
	"errors"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// errRowsDone stops a scan once every wanted row is read.
var errRowsDone = errors.New("rows read")

// loadRows is load restricted to rowids: one pass over the table in rowid
// order that keeps the wanted rows' fields.
func (s *sqliteSource) LoadRows(ctx context.Context, ts *TableSchema, cols []string, rowids []int64) (*Table, error) {
	t := s.db.Table(ts.Name)
	if t == nil {
		return nil, &MissingTableError{Table: ts.Name}
	}
	b := newRowBuilder(ts, cols, len(rowids))
	if len(rowids) == 0 {
		return b.table(), nil
	}
	// The texts go into shared chunks, not interned nor one allocation
	// each: the rows asked for are kept together (the names of a
	// projection's rows), and their texts seldom repeat.
	b.chunked, b.flatArena = true, true
	next := 0
	want := func(rowid int64) bool {
		for next < len(rowids) && rowids[next] < rowid {
			next++
		}
		return next < len(rowids) && rowids[next] == rowid
	}
	last := rowids[len(rowids)-1]
	var err error
	if len(cols) <= sqlite.MaxFields {
		opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: ReleaseEvery, Rows: want}
		err = s.db.ScanFields(t, cols, opt, func(rowid int64, f *sqlite.Fields) error {
			b.addFields(rowid, f)
			if rowid == last {
				return errRowsDone
			}
			return nil
		})
	} else {
		err = s.db.Scan(t, cols, func(rowid int64, vals []sqlite.Value) error {
			if want(rowid) {
				b.addValues(rowid, vals)
			}
			if rowid >= last {
				return errRowsDone
			}
			return ctx.Err()
		})
	}
	if err != nil && !errors.Is(err, errRowsDone) {
		return nil, err
	}
	return b.table(), nil
}
