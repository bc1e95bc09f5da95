package load

import "context"

// Knobs for the library's tests, which drive the loaders through reports
// from package nsysx: the thresholds below decide when a load is cut into
// ranges and where a .nsys-rep is exported, and the tests move them to
// reach every path with small profiles.

// SetLoadPartsRows sets the fewest estimated rows for which a load is cut
// into ranges; it returns the previous value.
func SetLoadPartsRows(n int) (old int) {
	old, loadPartsRows = loadPartsRows, n
	return old
}

// LoadPartsOf is the number of ranges a load under ctx may be cut into
// without spare cores (WithLoadParts, NSYSX_LOAD_PARTS).
func LoadPartsOf(ctx context.Context) int { return loadPartsOf(ctx) }

// SetDirWritable replaces the test of whether a .nsys-rep's folder can hold
// its export; nil restores the real one.
func SetDirWritable(fn func(dir string) bool) {
	if fn == nil {
		fn = dirWritable
	}
	dirWritableFn = fn
}
