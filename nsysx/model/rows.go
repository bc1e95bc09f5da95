package model

import (
	"context"
	"fmt"
	"slices"
)

// LoadRows returns the named columns of the rows of table whose rowids are
// given (ascending), in that order, without keeping them: a report that
// needs a wide column (NVTX text) of a few rows of a big table reads just
// those instead of every row's. A rowid the table lacks is left out of
// the result. A missing table gives *MissingTableError, a missing column
// *MissingColumnError; a cancelled ctx stops the read with ctx.Err().
func (p *Profile) LoadRows(ctx context.Context, table string, rowids []int64, cols ...string) (*Table, error) {
	ts := p.tables[Lower(table)]
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
	if s, ok := p.src.(RowLoader); ok {
		t, err = s.LoadRows(ctx, ts, cols, rowids)
	} else {
		t, err = loadRowsOf(ctx, p.src, ts, cols, rowids)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ts.Name, err)
	}
	return t, nil
}

// loadRowsOf is LoadRows for a source without row access: the columns
// loaded whole, then the wanted rows picked.
func loadRowsOf(ctx context.Context, src Source, ts *TableSchema, cols []string, rowids []int64) (*Table, error) {
	t, err := src.Load(ctx, ts, cols)
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
	return t.Take(keep), nil
}

// rowAt is row i's rowid: its position when the table has none.
func rowAt(t *Table, i int) int64 {
	if t.RowIDs == nil {
		return int64(i)
	}
	return t.RowIDs[i]
}
