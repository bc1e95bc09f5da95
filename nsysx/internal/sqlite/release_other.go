//go:build !linux

package sqlite

// releasePages does nothing where MADV_DONTNEED is not available through
// package syscall.
func releasePages(data []byte, from, to int64) {}
