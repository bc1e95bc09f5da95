package nsysx

import (
	"context"
	"fmt"
	"slices"

	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
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
	if s, ok := p.src.(model.RowLoader); ok {
		t, err = s.LoadRows(ctx, ts, cols, rowids)
	} else {
		t, err = load.LoadRowsOf(ctx, p.src, ts, cols, rowids)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ts.Name, err)
	}
	return t, nil
}
