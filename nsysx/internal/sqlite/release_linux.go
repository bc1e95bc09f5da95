//go:build linux

package sqlite

import (
	"cmp"
	"slices"
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

// releasePages drops the byte ranges runs ([from, to) offsets, in any
// order) of a read-only shared file mapping from the process's resident set
// (MADV_DONTNEED): the next access faults the pages back in from the page
// cache, unchanged. Each range is widened to the folio and fault-around
// blocks it touches (a neighbour page dropped with it is just faulted in
// again), and the widened ranges are merged first, so that a table whose
// leaves are interleaved with other tables' costs one call per block, not
// one per run of leaves: each call zaps the block's page-table entries and
// makes every core running the process flush its TLB.
func releasePages(data []byte, runs [][2]int64) {
	if len(data) == 0 || len(runs) == 0 {
		return
	}
	base := int64(uintptr(unsafe.Pointer(unsafe.SliceData(data))) % faultWindow)
	for i, r := range runs {
		from, to := r[0]-r[0]%faultAround, r[1]
		if m := to % faultAround; m != 0 {
			to += faultAround - m
		}
		from = max(0, from-(base+from)%faultWindow)
		if m := (base + to) % faultWindow; m != 0 {
			to += faultWindow - m
		}
		runs[i] = [2]int64{from, min(to, int64(len(data)))}
	}
	slices.SortFunc(runs, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	cur := runs[0]
	for _, r := range runs[1:] {
		if r[0] <= cur[1] {
			cur[1] = max(cur[1], r[1])
			continue
		}
		dropPages(data, cur[0], cur[1])
		cur = r
	}
	dropPages(data, cur[0], cur[1])
}

// dropPages is MADV_DONTNEED over data[from:to].
func dropPages(data []byte, from, to int64) {
	if from < to {
		_ = syscall.Madvise(data[from:to], syscall.MADV_DONTNEED)
	}
}
