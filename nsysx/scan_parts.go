package nsysx

import (
	"context"
	"runtime"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// Cores a profile's work may use. A load or scan reads a SQLite export's
// table on one core unless its context says more are free: a caller that
// runs fewer reports at once than there are cores (the recipe pool with
// eight reports on sixteen cores) gives each report's context the cores
// left over (WithCores), and big loads and ScanParts then cut the table's
// leaf pages into that many ranges decoded at once (docs/recipes.md §1.3,
// "Spare cores").

type coresKey struct{}

// WithCores returns a context under which a Profile's table loads and
// ScanParts may use up to n goroutines each (at most GOMAXPROCS). Without
// it they use one, or NSYSX_LOAD_PARTS for loads.
func WithCores(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, coresKey{}, n)
}

// coresOf is the number of goroutines ctx lets a load or scan use: at least
// def, at most GOMAXPROCS.
func coresOf(ctx context.Context, def int) int {
	n, _ := ctx.Value(coresKey{}).(int)
	return max(1, min(runtime.GOMAXPROCS(0), max(n, def)))
}

// ScanParts is Scan without a filter over up to n ranges of the table's
// rows at once, n from WithCores(ctx): it calls newFn(i) for each range i,
// in order, before scanning, then the function it returned with each row of
// range i, on a goroutine of its own. Every row of range i precedes, in
// rowid order, those of range i+1, so appending the ranges' results in
// order gives Scan's. It returns the number of ranges: one for a small
// table or without spare cores; for an export that is not SQLite it is
// Scan, in one range. The first error of a range, in range order, is returned.
func (p *Profile) ScanParts(ctx context.Context, table string, cols []string, newFn func(part int) func(ScanRow) error) (int, error) {
	if ctx == nil {
		return 0, errNilContext
	}
	if !p.HasTable(table) {
		return 0, &MissingTableError{Table: table}
	}
	src, ok := p.src.(*sqliteSource)
	parts := coresOf(ctx, 1)
	if !ok || len(cols) > sqlite.MaxFields {
		return 1, p.Scan(ctx, table, nil, cols, newFn(0))
	}
	pos := make([]int, len(cols))
	for i, col := range cols {
		if pos[i] = i; !p.HasColumn(table, col) {
			pos[i] = -1
		}
	}
	opt := sqlite.ScanOptions{Context: ctx, Release: true, ReleaseEvery: loadReleaseEvery, AbsentNull: true}
	return src.db.ScanFieldsParts(src.db.Table(table), cols, opt, parts, func(i int) func(int64, *sqlite.Fields) error {
		fn := newFn(i)
		v := rowVals{make([]sqlite.Value, len(cols)), pos}
		n := 0
		return func(_ int64, f *sqlite.Fields) error {
			if n++; n&0xFFFF == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			for k := range v.v {
				v.v[k] = fieldValue(f, k)
			}
			return fn(ScanRow{v})
		}
	})
}
