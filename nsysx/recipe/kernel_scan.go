package recipe

import (
	"context"
	"errors"

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
// (Profile.ScanInts: a SQLite export read page by page, no column built or
// kept) and calls fn with every row that passes the time window (Window),
// in row order; n counts them. It is the load of filteredKernels without
// the load, for the recipes that need just these columns: ok is false, and
// fn's results are to be dropped, when fn gives up (returns false), when it
// does not apply (an NVTX filter, not a SQLite export, no kernel table, a
// column missing or not INTEGER in the schema) or when the scan fails: the
// caller then loads.
func scanKernels(ctx context.Context, p *nsysx.Profile, o *Options, x string, fn func(kernRow) bool) (n int, ok bool) {
	if kernelScanOff || o.FilterNVTX != nil || o.FilterProjectedNVTX != nil {
		return 0, false
	}
	ws, we := o.Window()
	ok, err := p.ScanInts(ctx, TableKernel, []string{"start", "end", "deviceId", x}, func(v []int64, null uint32) error {
		k := kernRow{start: v[0], end: v[1], dev: v[2], x: v[3], xNull: null&8 != 0}
		if null&3 != 0 || k.start < 0 || k.end < ws || we != nil && k.start > *we {
			return nil
		}
		n++
		if !fn(k) {
			return errScanOff
		}
		return nil
	})
	return n, ok && err == nil
}

// kernelScanOff turns scanKernels off (tests: the load path).
var kernelScanOff bool

// errScanOff stops a kernel scan that fn gave up.
var errScanOff = errors.New("scan: load the kernels instead")

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
