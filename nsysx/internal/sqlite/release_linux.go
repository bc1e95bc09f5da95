//go:build linux

package sqlite

import (
	"os"
	"syscall"
)

var osPageSize = int64(os.Getpagesize())

// releasePages drops data[from:to] of a read-only shared file mapping from
// the process's resident set (MADV_DONTNEED): the next access faults the
// pages back in from the page cache, unchanged. The range is widened to whole
// OS pages; a neighbour page dropped with it is just faulted in again.
func releasePages(data []byte, from, to int64) {
	from -= from % osPageSize
	to = min(to, int64(len(data)))
	if from < to {
		_ = syscall.Madvise(data[from:to], syscall.MADV_DONTNEED)
	}
}
