//go:build linux

package sqlite

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/nsysx/nsysx/internal/testutil"
)

// mappedRSS is the resident kilobytes of the mapping that starts at data,
// from /proc/self/smaps.
func mappedRSS(t *testing.T, data []byte) int {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	sc := bufio.NewScanner(f)
	for in := false; sc.Scan(); {
		l := sc.Text()
		if strings.HasPrefix(l, start) {
			in = true
		} else if in && strings.HasPrefix(l, "Rss:") {
			var kb int
			if _, err := fmt.Sscanf(strings.TrimPrefix(l, "Rss:"), "%d", &kb); err != nil {
				t.Fatal(l, err)
			}
			return kb
		}
	}
	t.Fatal("mapping not in /proc/self/smaps")
	return 0
}

// TestReleaseInterleaved scans two tables of a real export, whose leaf
// pages lie among other tables' (the KERNEL table's 106 in 56 runs over
// the 5.6 MB file), releasing behind: what stays mapped must be far less
// than what a scan without release leaves (the pages a fault maps around
// each leaf: 4.8 MB of 5.6 MB stayed when only the leaves were released;
// what stays now is the schema's block, mapped by Open).
func TestReleaseInterleaved(t *testing.T) {
	path := testutil.Profile(t, "train")
	rss := map[bool]int{}
	for _, release := range []bool{false, true} {
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"} {
			tb := db.Table(name)
			opt := ScanOptions{Release: release, ReleaseEvery: 1 << 20}
			if err := db.ScanFields(tb, []string{"start", "end"}, opt, func(int64, *Fields) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
		rss[release] = mappedRSS(t, db.data)
		db.Close()
	}
	if rss[false] < 3000 || 2*rss[true] > rss[false] {
		t.Errorf("resident after the scans: %d KB without release, %d KB with; want >= 3000 and at most half", rss[false], rss[true])
	}
}

// TestReleaseEveryBlocks checks that ReleaseEvery counts the blocks of
// the mapping a scan's faults may have mapped, not its leaves: with 4 MB
// between releases, leaves each in a 2 MB block of its own (a table
// interleaved with others) are released every 2, leaves of one contiguous
// run when the 513th enters the second block. A release keeps the block
// of the leaf being read (and only its pages), counted as one block, and
// releases every page before it.
func TestReleaseEveryBlocks(t *testing.T) {
	db := &DB{pageSize: 4096, mapped: true} // no data: releasePages does nothing
	for _, c := range []struct {
		step      uint32 // page numbers between two leaves
		flushedAt int    // leaves read when the first release happens
	}{{1024, 2}, {1, 513}} {
		s := ScanOptions{Release: true, ReleaseEvery: 4 << 20}.stream(db)
		for i := 0; i < c.flushedAt; i++ {
			if s.flushes > 0 {
				t.Fatalf("step %d: released after %d leaves, want %d", c.step, i, c.flushedAt)
			}
			if err := s.leafDone(1+uint32(i)*c.step, 1); err != nil {
				t.Fatal(err)
			}
		}
		if s.flushes != 1 {
			t.Fatalf("step %d: %d releases after %d leaves, want 1", c.step, s.flushes, c.flushedAt)
		}
		last := 1 + uint32(c.flushedAt-1)*c.step
		lo := int64(last-1) * 4096 / faultAround * faultAround
		if len(s.runs) != 1 || s.runs[0] != [2]uint32{last, last} || s.pages != faultAround/4096 {
			t.Errorf("step %d: kept %v (%d pages), want leaf %d's run, one block", c.step, s.runs, s.pages, last)
		}
		released := int64(0)
		for _, sp := range s.spans {
			if sp[1] > lo && sp[0] < lo+faultAround {
				t.Errorf("step %d: released %v, within the block being read", c.step, sp)
			}
			released += sp[1] - sp[0]
		}
		if want := int64(c.flushedAt-1) * 4096; released != want {
			t.Errorf("step %d: released %d bytes, want %d (the leaves before the last)", c.step, released, want)
		}
		// the next leaf in the same block counts nothing, in the next block it releases
		if err := s.leafDone(last+1, 1); err != nil || s.flushes != 1 {
			t.Errorf("step %d: a leaf of the kept block released (%v)", c.step, err)
		}
		if err := s.leafDone(last+uint32(faultAround/4096), 1); err != nil || s.flushes != 2 {
			t.Errorf("step %d: the next block's leaf did not release (%d releases)", c.step, s.flushes)
		}
	}
}

// TestSplitReleaseEvery: ranges scanned at once share the bytes between
// releases, two blocks each at least.
func TestSplitReleaseEvery(t *testing.T) {
	for _, c := range []struct{ every, n, want int }{
		{0, 1, 16 << 20}, {0, 2, 8 << 20}, {0, 16, 2 * faultAround}, {64 << 20, 4, 16 << 20}, {1 << 20, 1, 2 * faultAround},
	} {
		if got := (ScanOptions{ReleaseEvery: c.every}).split(c.n).ReleaseEvery; got != c.want {
			t.Errorf("every %d over %d ranges: %d, want %d", c.every, c.n, got, c.want)
		}
	}
}

// TestEstimateRowsReleases: EstimateRows reads a big table's interior
// pages, which lie all over the file, and releases what their faults
// mapped: the mapping is no more resident afterwards than Open left it
// (without the release, the blocks around the interior pages stayed).
func TestEstimateRowsReleases(t *testing.T) {
	db, err := Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := mappedRSS(t, db.data)
	for _, name := range []string{"NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL"} {
		if n := db.EstimateRows(db.Table(name)); n == 0 {
			t.Fatalf("%s: no rows estimated", name)
		}
	}
	if after := mappedRSS(t, db.data); after > before {
		t.Errorf("resident: %d KB after Open, %d KB after EstimateRows", before, after)
	}
}

// mapped reports whether the page of data holding byte off is mapped into
// the process (the present bit of /proc/self/pagemap).
func mapped(t *testing.T, data []byte, off int64) bool {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	ps := int64(os.Getpagesize())
	addr := int64(uintptr(unsafe.Pointer(unsafe.SliceData(data)))) + off
	var e [8]byte
	if _, err := f.ReadAt(e[:], addr/ps*8); err != nil {
		t.Skip(err)
	}
	return e[7]&0x80 != 0
}

// TestWalkReleasesAsItGoes: the pages a walk records (readPages) are
// released once they span walkReleaseBlocks fault-around blocks, not only
// at the end of the walk: a big table's interior pages, one to a block all
// over the file, otherwise had a walk map most of the file at once (860 MB
// for train x200's NVTX table where the page cache held 2 MB folios).
func TestWalkReleasesAsItGoes(t *testing.T) {
	db, err := Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ps := int64(db.pageSize)
	perBlock := uint32(faultAround / ps)
	a, b := perBlock+1, 2*perBlock+1 // the first pages of blocks 1 and 2
	if int64(b)*ps > int64(len(db.data)) {
		t.Fatalf("the test profile ends before block 2 (%d bytes)", len(db.data))
	}
	defer func(n int) { walkReleaseBlocks = n }(walkReleaseBlocks)
	walkReleaseBlocks = 1
	var r readPages
	touch := func(pg uint32) {
		if db.data[int64(pg-1)*ps] == 0x5A && pg == 0 {
			t.Log() // keeps the load
		}
	}
	touch(a)
	r.add(db, a)
	touch(a + 1)
	r.add(db, a+1) // the same block: nothing released yet
	if !mapped(t, db.data, int64(a-1)*ps) {
		t.Fatalf("page %d was released while its block was still the walk's only one", a)
	}
	touch(b)
	r.add(db, b)
	if mapped(t, db.data, int64(a-1)*ps) {
		t.Errorf("page %d still mapped after the walk moved to a second block (walkReleaseBlocks 1)", a)
	}
	if !mapped(t, db.data, int64(b-1)*ps) {
		t.Errorf("page %d, the block the walk is in, was released", b)
	}
	r.release(db)
	if mapped(t, db.data, int64(b-1)*ps) {
		t.Errorf("page %d still mapped after the final release", b)
	}
}

// TestReleaseAlternating: a table whose leaves, in key order, alternate
// between two parts of the file (leaves split by an update in place land
// at its end) counts each block once between releases, and a release
// keeps both blocks the scan is reading: the blocks it goes back to are
// not released and faulted in again every few leaves.
func TestReleaseAlternating(t *testing.T) {
	db := &DB{pageSize: 4096, mapped: true} // no data: releasePages does nothing
	s := ScanOptions{Release: true, ReleaseEvery: 8 << 20}.stream(db)
	bp := uint32(faultAround / 4096)
	far := 100*bp + 1 // the far part, from a block start: one leaf of it after every 7 near ones
	near, z := uint32(1), far
	leaf := func(pg uint32) {
		t.Helper()
		if err := s.leafDone(pg, 1); err != nil {
			t.Fatal(err)
		}
	}
	group := func() { // seven near leaves, then a far one
		for range 7 {
			leaf(near)
			near++
		}
		leaf(z)
		z++
	}
	for range 60 { // 420 near leaves: the first block of the near part
		group()
	}
	if s.flushes != 0 {
		t.Fatalf("%d releases while reading two blocks, want 0", s.flushes)
	}
	for near+7 <= 3*bp+1 { // through the near part's second and third blocks
		group()
	}
	if s.flushes != 1 {
		t.Fatalf("%d releases, want 1", s.flushes)
	}
	zb, nb := s.block(z-1), s.block(near-1)
	for _, sp := range s.spans {
		for _, b := range []int64{zb, nb} {
			if sp[1] > b*faultAround && sp[0] < (b+1)*faultAround {
				t.Errorf("released %v, within block %d being read", sp, b)
			}
		}
	}
	for _, r := range s.runs {
		if b := s.block(r[0]); b != zb && b != nb {
			t.Errorf("kept run %v of block %d, not one being read (%d, %d)", r, b, nb, zb)
		}
	}
}
