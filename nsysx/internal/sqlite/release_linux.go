//go:build linux

package sqlite

import (
	"syscall"
	"unsafe"
)

// faultAround is the span of a mapping that one page fault may map at
// once, and the unit releasePages widens its range to: the kernel maps the
// page-cache pages of the aligned block of fault_around_bytes (64 KB unless
// changed in debugfs, aligned in virtual addresses) around the faulting
// address, and, since Linux 6.18, the whole large folio the page is in
// (up to 2 MB, aligned in the file). A table's leaf pages are interleaved
// with other tables' in an export, so releasing just the leaves would leave
// the neighbours a fault mapped with them resident, most of the file in the
// end (TestReleaseInterleaved).
const faultAround = 2 << 20

// faultWindow is the default fault_around_bytes.
const faultWindow = 64 << 10

// releasePages drops data[from:to] of a read-only shared file mapping from
// the process's resident set (MADV_DONTNEED): the next access faults the
// pages back in from the page cache, unchanged. The range is widened to the
// folio and fault-around blocks it touches; a neighbour page dropped with
// it is just faulted in again.
func releasePages(data []byte, from, to int64) {
	if len(data) == 0 {
		return
	}
	from -= from % faultAround
	if r := to % faultAround; r != 0 {
		to += faultAround - r
	}
	base := int64(uintptr(unsafe.Pointer(unsafe.SliceData(data))) % faultWindow)
	from = max(0, from-(base+from)%faultWindow)
	if r := (base + to) % faultWindow; r != 0 {
		to += faultWindow - r
	}
	to = min(to, int64(len(data)))
	if from < to {
		_ = syscall.Madvise(data[from:to], syscall.MADV_DONTNEED)
	}
}
