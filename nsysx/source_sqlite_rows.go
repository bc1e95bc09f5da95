package nsysx

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// LoadRows returns the named columns of the rows of table whose rowids are
// given (ascending), in that order, without keeping them: a report that
// needs a wide column (NVTX text) of a few rows of a big table reads just
// those instead of every row's. A rowid the table lacks is left out of
// the result. A missing table gives *MissingTableError, a missing column
// *MissingColumnError; a cancelled ctx stops the read with ctx.Err().
func (p *Profile) LoadRows(ctx context.Context, table string, rowids []int64, cols ...string) (*Table, error) {
	ts := p.tables[lower(table)]
	if ts == nil {
		return nil, &MissingTableError{Table: table}
	}
	for _, c := range cols {
		if !p.HasColumn(table, c) {
			return nil, &MissingColumnError{Table: ts.Name, Column: c}
		}
	}
	if !slices.IsSorted(rowids) {
		return nil, fmt.Errorf("reading %s: rowids not ascending", ts.Name)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var t *Table
	var err error
	if s, ok := p.src.(*sqliteSource); ok {
		t, err = s.loadRows(ctx, ts, cols, rowids)
	} else {
		t, err = loadRowsOf(ctx, p.src, ts, cols, rowids)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ts.Name, err)
	}
	return t, nil
}

// errRowsDone stops a scan once every wanted row is read.
var errRowsDone = errors.New("rows read")

// loadRows is load restricted to rowids: one pass over the table in rowid
// order that keeps the wanted rows' fields.
func (s *sqliteSource) loadRows(ctx context.Context, ts *TableSchema, cols []string, rowids []int64) (*Table, error) {
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
		opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: loadReleaseEvery, Rows: want}
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

// loadRowsOf is LoadRows for a source without row access: the columns
// loaded whole, then the wanted rows picked.
func loadRowsOf(ctx context.Context, src source, ts *TableSchema, cols []string, rowids []int64) (*Table, error) {
	t, err := src.load(ctx, ts, cols)
	if err != nil {
		return nil, err
	}
	var keep []int32
	for i, k := 0, 0; i < t.N && k < len(rowids); {
		switch r := rowAt(t, i); {
		case r == rowids[k]:
			keep = append(keep, int32(i))
			i, k = i+1, k+1
		case r < rowids[k]:
			i++
		default:
			k++
		}
	}
	return subTable(t, keep), nil
}

// rowAt is row i's rowid: its position when the table has none.
func rowAt(t *Table, i int) int64 {
	if t.RowIDs == nil {
		return int64(i)
	}
	return t.RowIDs[i]
}
