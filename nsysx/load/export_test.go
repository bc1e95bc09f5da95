package load

import "context"

// Knobs for the tests (package load_test drives the loaders through the
// reports of package nsysx): the thresholds below decide when a load is cut
// into ranges and where a .nsys-rep is exported, and the tests move them to
// reach every path with small profiles. They live in a _test file so that
// no program can set them.

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
