//go:build !linux

package sqlite

// releasePages does nothing where MADV_DONTNEED is not available through
// package syscall.
func releasePages(data []byte, runs [][2]int64) {}

// faultAround is the span counted for each leaf page in a block of its own
// (see release_linux.go).
const faultAround = 2 << 20
