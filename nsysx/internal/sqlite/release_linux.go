//go:build linux

package sqlite

import (
	"os"
	"syscall"
	"unsafe"
)

var osPageSize = int64(os.Getpagesize())

// faultAround is the span of a mapping that one page fault maps at once:
// the kernel maps the page-cache pages of the aligned block of
// fault_around_bytes (64 KB unless changed in debugfs) around the faulting
// address, in virtual addresses. A table's leaf pages are interleaved with
// other tables' in an export, so releasing just the leaves would leave the
// neighbours a fault mapped with them resident, most of the file in the end.
const faultAround = 64 << 10

// releasePages drops data[from:to] of a read-only shared file mapping from
// the process's resident set (MADV_DONTNEED): the next access faults the
// pages back in from the page cache, unchanged. The range is widened to the
// fault-around blocks it touches; a neighbour page dropped with it is just
// faulted in again.
func releasePages(data []byte, from, to int64) {
	if len(data) == 0 {
		return
	}
	base := int64(uintptr(unsafe.Pointer(unsafe.SliceData(data))) % faultAround)
	from = max(0, from-(base+from)%faultAround)
	if r := (base + to) % faultAround; r != 0 {
		to += faultAround - r
	}
	from -= from % osPageSize
	to = min(to, int64(len(data)))
	if from < to {
		_ = syscall.Madvise(data[from:to], syscall.MADV_DONTNEED)
	}
}
