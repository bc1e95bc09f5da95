package recipe

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// kernRow is one CUDA_KERNEL row as scanKernels delivers it: the times, the
// device (0 for NULL, as the loaded column holds it) and the column asked
// for besides them.
type kernRow struct {
	start, end, dev, x int64
	xNull              bool
}

// scanKernels streams the kernel table's start, end, deviceId and column x
// (through Profile.Scan: an export is read page by page, no column is built
// or kept) and calls fn with every row that passes the time window (Window),
// in row order; n counts them. It is the load of filteredKernels without
// the load, for the recipes that need just these columns: ok is false, and
// fn's results are to be dropped, when fn gives up (returns false), when it
// does not apply (an NVTX filter, no
// kernel table, a column missing or not INTEGER in the schema, a failed
// scan) or when a value would load otherwise (a text the load reads as NULL):
// the caller then loads.
func scanKernels(ctx context.Context, p *nsysx.Profile, o *Options, x string, fn func(kernRow) bool) (n int, ok bool) {
	cols := []string{"start", "end", "deviceId", x}
	if kernelScanOff || o.FilterNVTX != nil || o.FilterProjectedNVTX != nil || !intColumns(p, TableKernel, cols) {
		return 0, false
	}
	ws, we := o.Window()
	// With spare cores the table is read in ranges at once (ScanParts): the
	// first range's rows go to fn as they come, the later ranges' are kept
	// and given to fn after it, in order, so fn sees the rows in row order.
	var later []*[]kernRow
	_, err := p.ScanParts(ctx, TableKernel, cols, func(i int) func(nsysx.ScanRow) error {
		keep := func(k kernRow) error {
			if n++; !fn(k) {
				return errScanOff
			}
			return nil
		}
		if i > 0 {
			rows := new([]kernRow)
			later = append(later, rows)
			keep = func(k kernRow) error { *rows = push(*rows, k); return nil }
		}
		off := false
		return func(r nsysx.ScanRow) error {
			var k kernRow
			var sOK, eOK, xOK bool
			k.start, sOK = exactInt(r, 0, &off)
			k.end, eOK = exactInt(r, 1, &off)
			k.dev = r.Int(2) // its NULL mask is never read: NULL and bad text are 0
			k.x, xOK = exactInt(r, 3, &off)
			k.xNull = !xOK
			if off {
				return errScanOff
			}
			if !sOK || !eOK || k.start < 0 || k.end < ws || we != nil && k.start > *we {
				return nil
			}
			return keep(k)
		}
	})
	if err != nil {
		return n, false
	}
	for _, rows := range later {
		for _, k := range *rows {
			if n++; !fn(k) {
				return n, false
			}
		}
	}
	return n, true
}

// kernelScanOff turns scanKernels off (tests: the load path).
var kernelScanOff bool

// errScanOff stops a kernel scan that met a value the load reads otherwise.
var errScanOff = errors.New("scan: load the kernels instead")

// exactInt is column i of r as the loaded Int column holds it, valid false
// for NULL. A value Scan reads as 0 may be a text the load reads as NULL (it
// does not parse as an integer): *off is set for those, and for any other 0
// that is not an integer (a float or blob), which the load reads as 0 too.
func exactInt(r nsysx.ScanRow, i int, off *bool) (v int64, valid bool) {
	if v = r.Int(i); v != 0 {
		return v, true // NULL reads as 0
	}
	if r.IsNull(i) {
		return 0, false
	}
	if _, err := strconv.ParseInt(string(r.Bytes(i)), 10, 64); err != nil {
		*off = true
	}
	return 0, true
}

// intColumns reports whether table has every column of cols, each INTEGER
// (Int) in its schema.
func intColumns(p *nsysx.Profile, table string, cols []string) bool {
	ts := p.Schema(table)
	if ts == nil {
		return false
	}
	for _, c := range cols {
		found := false
		for j, name := range ts.Columns {
			if strings.EqualFold(name, c) {
				found = ts.Types[j] == nsysx.Int
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// push appends v to s, doubling the storage when it is full: append grows a
// large slice by a quarter, which, over a table's rows, allocates (and
// copies) about five times the final size instead of two.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		grown := make([]T, len(s), max(2*cap(s), 1024))
		copy(grown, s)
		s = grown
	}
	return append(s, v)
}
