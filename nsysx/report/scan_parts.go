package report

import (
	"context"
	"math"
	"runtime"
	"strconv"

	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Cores a profile's work may use. A load or scan reads a SQLite export's
// table on one core unless its context says more are free: a caller that
// runs fewer reports at once than there are cores (the recipe pool with
// eight reports on sixteen cores) gives each report's context the cores
// left over (WithCores), and big loads and ScanParts then cut the table's
// leaf pages into that many ranges decoded at once (docs/recipes.md §1.3,
// "Spare cores").

// WithCores returns a context under which a Profile's table loads and
// ScanParts may use up to n goroutines each (package model).
func WithCores(ctx context.Context, n int) context.Context { return model.WithCores(ctx, n) }

var coresOf = model.Cores

// GatedCores is the number of ranges a gated scan reads at once: the
// cores WithCores gives ctx where it says, else all of them. A gated scan
// keeps only the rows its gate lets through, so its ranges cost no memory
// worth counting, unlike a load's.
func GatedCores(ctx context.Context) int {
	n, ok := model.CoresGiven(ctx)
	if !ok {
		n = runtime.GOMAXPROCS(0)
	}
	return max(1, min(runtime.GOMAXPROCS(0), n))
}

// ScanParts is Scan without a filter over up to n ranges of the table's
// rows at once, n from WithCores(ctx): it calls newFn(i) for each range i,
// in order, before scanning, then the function it returned with each row of
// range i, on a goroutine of its own. Every row of range i precedes, in
// rowid order, those of range i+1, so appending the ranges' results in
// order gives Scan's. It returns the number of ranges: one for a small
// table or without spare cores; for an export that is not SQLite it is
// Scan, in one range. The first error of a range, in range order, is returned.
// A SQLite export's pages are read into a buffer of each range's own, not
// through the file's mapping (DirectScan.Pread): no page faults and no
// releases behind the scan.
func ScanParts(ctx context.Context, p *model.Profile, table string, cols []string, newFn func(part int) func(ScanRow) error) (int, error) {
	return ScanPartsWhere(ctx, p, table, cols, -1, nil, newFn)
}

// ScanPartsWhere is ScanParts over the rows whose column gate (an index
// into cols) is not an INTEGER that keep refuses; gate -1 (or keep nil)
// keeps every row. In a SQLite export a refused row is skipped as soon as
// its header reaches the column (DirectScan.First), none of its fields
// decoded, so that a scan for a few rows of a big table costs little more
// than reading its pages. keep must answer the same for a value every
// time.
func ScanPartsWhere(ctx context.Context, p *model.Profile, table string, cols []string, gate int, keep func(int64) bool, newFn func(part int) func(ScanRow) error) (int, error) {
	if ctx == nil {
		return 0, ErrNilContext
	}
	if !p.HasTable(table) {
		return 0, &MissingTableError{Table: table}
	}
	if gate < 0 || gate >= len(cols) {
		keep = nil
	}
	d, ok := DirectOf(p, table, load.ReleaseEvery)
	parts := coresOf(ctx, 1)
	if !ok || len(cols) > model.MaxFields {
		fn := newFn(0)
		if keep != nil {
			all := fn
			fn = func(r ScanRow) error {
				if r.isInt(gate) && !keep(r.Int(gate)) {
					return nil
				}
				return all(r)
			}
		}
		return 1, Scan(ctx, p, table, nil, cols, fn)
	}
	d.Pread = true
	if keep != nil && p.HasColumn(table, cols[gate]) {
		d.Keep, d.Gate, d.First = keep, gate, true
	}
	pos := make([]int, len(cols))
	for i, col := range cols {
		if pos[i] = i; !p.HasColumn(table, col) {
			pos[i] = -1
		}
	}
	return d.RunParts(ctx, cols, parts, func(i int) func(int64, *model.Fields) error {
		fn := newFn(i)
		st := &partRow{row: fieldRow{pos: pos}}
		return func(_ int64, f *model.Fields) error { // the scan checks ctx every 65536 rows
			st.row.Fields = f
			return fn(ScanRow{f: &st.row})
		}
	})
}

// partRow is a range's row, written for every row: padded
// to cache lines of its own, as the ranges' goroutines would otherwise
// write to the same line (small objects allocated one after the other) and
// each write would take the line from the other cores. Unpadded, on the
// 16-core GPU machine, eight reports scanned in two ranges each spent 1.5
// times the CPU of one range each, most of it in this wrapper.
type partRow struct {
	_   [64]byte
	row fieldRow
	_   [64]byte
}

// fieldRow is a row of ScanParts: the fields sqlite decoded, read in place
// (the conversions of RowVals, without copying each field into a Value:
// a quarter of a pass over NVTX_EVENTS). Column i is field i; pos[i] is -1
// for a column the table lacks (the scan reads it as NULL).
type fieldRow struct {
	*model.Fields
	pos []int
}

func (r *fieldRow) null(i int) bool { return r.Null&(1<<i) != 0 }

func (r *fieldRow) int(i int) int64 {
	if r.Text&(1<<i) != 0 {
		n, _ := strconv.ParseInt(string(r.B[i]), 10, 64)
		return n
	}
	return r.I[i] // 0 for NULL and BLOB, truncated for REAL
}

func (r *fieldRow) float(i int) float64 {
	switch bit := uint32(1) << i; {
	case r.Null&bit != 0:
		return math.NaN()
	case r.Real&bit != 0:
		return r.F[i]
	}
	return float64(r.int(i))
}

func (r *fieldRow) bytes(i int) []byte {
	switch bit := uint32(1) << i; {
	case r.Text&bit != 0, r.Blob&bit != 0:
		return r.B[i]
	case r.Null&bit != 0:
		return nil
	case r.Real&bit != 0:
		return []byte(PyFloat(r.F[i]))
	}
	return strconv.AppendInt(nil, r.I[i], 10)
}
