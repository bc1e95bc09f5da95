package composite

import (
	"context"
	"errors"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// KernRow is one CUDA_KERNEL row as scanKernels delivers it: the times, the
// device (0 for NULL, as the loaded column holds it) and the column asked
// for besides them.
type KernRow struct {
	Start, End, Dev, X int64
	XNull              bool
}

// ScanKernels streams the kernel table's start, end, deviceId and column x
// (Profile.ScanInts: a SQLite export read page by page, no column built or
// kept) and calls fn with every row that passes the time window (Window),
// in row order; n counts them. It is the load of filteredKernels without
// the load, for the recipes that need just these columns: ok is false, and
// fn's results are to be dropped, when fn gives up (returns false), when it
// does not apply (an NVTX filter, not a SQLite export, no kernel table, a
// column missing or not INTEGER in the schema) or when the scan fails: the
// caller then loads.
func ScanKernels(ctx context.Context, p *nsysx.Profile, o *recipe.Options, x string, fn func(KernRow) bool) (n int, ok bool) {
	if KernelScanOff || o.FilterNVTX != nil || o.FilterProjectedNVTX != nil {
		return 0, false
	}
	ws, we := o.Window()
	ok, err := p.ScanInts(ctx, TableKernel, []string{"start", "end", "deviceId", x}, func(v []int64, null uint32) error {
		k := KernRow{Start: v[0], End: v[1], Dev: v[2], X: v[3], XNull: null&8 != 0}
		if null&3 != 0 || k.Start < 0 || k.End < ws || we != nil && k.Start > *we {
			return nil
		}
		n++
		if !fn(k) {
			return ErrScanOff
		}
		return nil
	})
	return n, ok && err == nil
}

// KernelScanOff turns scanKernels off (tests: the load path).
var KernelScanOff bool

// ErrScanOff stops a kernel scan that fn gave up.
var ErrScanOff = errors.New("scan: load the kernels instead")

// Push appends v to s, doubling the storage when it is full: append grows a
// large slice by a quarter, which, over a table's rows, allocates (and
// copies) about five times the final size instead of two.
func Push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		grown := make([]T, len(s), max(2*cap(s), 1024))
		copy(grown, s)
		s = grown
	}
	return append(s, v)
}

// FilteredKernels loads the CUDA_KERNEL composite and the rows that pass the
// frame filter (docs/recipes.md §1.4); nv is the NVTX composite when the
// caller has loaded it (nil: loaded when a filter needs it); need names
// the columns read besides the times and device.
func FilteredKernels(ctx context.Context, r *recipe.Report, o *recipe.Options, nv *NVTX, need kernelCols) (*Kernel, []int, error) {
	k, err := LoadKernelCols(ctx, r.Profile, need)
	if err != nil {
		return nil, nil, err
	}
	keep, err := FilterRows(ctx, r.Profile, o, k.Span(), nv)
	return k, keep, err
}
