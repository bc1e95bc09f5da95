package sqlite

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/nsysx/nsysx/internal/testutil"
)

// gatedParts digests the rows a GateFirst scan of tb in up to parts ranges
// keeps (odd integers in field gf), the ranges in order; fn, when not nil,
// sees each kept row first.
func gatedParts(db *DB, tb *Table, cols []string, gf, parts int, fn func(*Fields)) ([]uint64, error) {
	var got []*[]uint64
	opt := ScanOptions{AbsentNull: true, Release: true, Gate: func(v int64) bool { return v%2 != 0 }, GateField: gf, GateFirst: true}
	_, err := db.ScanFieldsParts(tb, cols, opt, parts, func(int) func(int64, *Fields) error {
		rows := new([]uint64)
		got = append(got, rows)
		return func(rowid int64, f *Fields) error {
			if fn != nil {
				fn(f)
			}
			*rows = append(*rows, rowDigest(rowid, f, len(cols)))
			return nil
		}
	})
	var all []uint64
	for _, g := range got {
		all = append(all, *g...)
	}
	return all, err
}

// TestGateFirstReadsLeaves: a GateFirst scan of a mapped file reads its
// leaves with pread (leafBuf), not through the mapping, and keeps the same
// rows with the same fields as through the mapping, with reads of one page
// or a few (runs cut at the buffer's end) as with the default buffer.
func TestGateFirstReadsLeaves(t *testing.T) {
	defer func(m, b int, on bool) { MinPartLeaves, leafBufBytes, readLeavesOn = m, b, on }(MinPartLeaves, leafBufBytes, readLeavesOn)
	MinPartLeaves = 1
	var texts atomic.Int64 // counted by the ranges' goroutines
	eachRealTable(t, func(name string, db *DB, tb *Table, cols []string) {
		if !db.mapped {
			t.Skip("the file is not mapped here")
		}
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(db.data)))
		hi := lo + uintptr(len(db.data))
		gf := 0
		if tb.Columns[0].RowidKey && len(cols) > 1 {
			gf = 1
		}
		readLeavesOn = false
		want, err := gatedParts(db, tb, cols, gf, 3, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", name, tb.Name, err)
		}
		readLeavesOn = true
		for _, buf := range []int{db.pageSize, 3 * db.pageSize, 128 << 10} {
			leafBufBytes = buf
			got, err := gatedParts(db, tb, cols, gf, 3, func(f *Fields) {
				for k := range len(cols) {
					if (f.Text|f.Blob)&(1<<k) == 0 || len(f.B[k]) == 0 {
						continue
					}
					texts.Add(1)
					if a := uintptr(unsafe.Pointer(unsafe.SliceData(f.B[k]))); a >= lo && a < hi && tb.Name != "sqlite_schema" {
						if !overflowed(f.B[k]) {
							t.Errorf("%s %s: a kept row's text lies in the file's mapping: the leaf was read through it", name, tb.Name)
						}
					}
				}
			})
			if err != nil {
				t.Fatalf("%s %s, buffer %d: %v", name, tb.Name, buf, err)
			}
			if !sameDigests(got, want) {
				t.Errorf("%s %s, buffer %d: %d rows kept, %d through the mapping", name, tb.Name, buf, len(got), len(want))
			}
		}
	})
	if texts.Load() == 0 {
		t.Fatal("no kept row had a text")
	}
}

// overflowed is for texts longer than a page could hold, which a scan
// assembles from overflow pages (read through the mapping) in a scratch
// buffer: never the mapping either. It is false for the test's texts.
func overflowed(b []byte) bool { return len(b) > 4096 }

// TestLeafBufPage: leafBuf hands out each leaf's bytes as db.page does,
// whatever the order of the leaves in the file (runs, gaps, going back to
// pages read or not read just before), and fails on a page outside the file
// as db.page does.
func TestLeafBufPage(t *testing.T) {
	defer func(b int) { leafBufBytes = b }(leafBufBytes)
	db, err := Open(testutil.Profile(t, "sync"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.mapped {
		t.Skip("the file is not mapped here")
	}
	last := uint32(db.nPages)
	order := []uint32{5, 6, 7, 3, 4, 6, 10, 9, 8, 2, 1, 1, 11, 12, 13, 14, 15, 16, 40, last - 1, last, 20}
	for _, buf := range []int{db.pageSize, 4 * db.pageSize, 128 << 10} {
		leafBufBytes = buf
		lb := db.newLeafBuf()
		piece := make([]leafRef, len(order))
		for i, pg := range order {
			piece[i].pg = pg
		}
		for j, pg := range order {
			got, err := lb.page(piece, j)
			if err != nil {
				t.Fatalf("buffer %d, page %d: %v", buf, pg, err)
			}
			want, _ := db.page(pg)
			if !bytes.Equal(got, want) {
				t.Fatalf("buffer %d, page %d (leaf %d): bytes differ from the mapping's", buf, pg, j)
			}
		}
		for _, pg := range []uint32{0, last + 1} {
			_, err := lb.page([]leafRef{{pg: pg}}, 0)
			_, want := db.page(pg)
			if err == nil || want == nil || err.Error() != want.Error() {
				t.Errorf("page %d: %v, db.page says %v", pg, err, want)
			}
		}
	}
}

// TestGateFirstReadsLeavesCorrupt: on damaged files (written out and
// mapped, as Open maps them), a GateFirst scan fails with the same error
// whether its leaves are read with pread or through the mapping, and never
// panics.
func TestGateFirstReadsLeavesCorrupt(t *testing.T) {
	defer func(m int, on bool) { MinPartLeaves, readLeavesOn = m, on }(MinPartLeaves, readLeavesOn)
	MinPartLeaves = 1
	orig := syncDB(t)
	path := filepath.Join(t.TempDir(), "damaged.sqlite")
	failed := 0
	for off := 100; off < len(orig); off += len(orig)/150 + 1 {
		b := bytes.Clone(orig)
		b[off] ^= 0xA5
		b[off/2] ^= 0x5A
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := Open(path)
		if err != nil {
			continue
		}
		for _, tb := range db.Tables() {
			cols := columnsOf(tb)
			if len(cols) < 2 {
				continue
			}
			var errs [2]error
			for i, on := range []bool{false, true} {
				readLeavesOn = on
				_, errs[i] = gatedParts(db, tb, cols, 1, 4, nil)
			}
			if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
				t.Errorf("offset %d, %s: through the mapping %v, with pread %v", off, tb.Name, errs[0], errs[1])
			}
			if errs[1] != nil {
				failed++
			}
		}
		db.Close()
	}
	if failed == 0 {
		t.Fatal("no damaged copy failed a scan")
	}
}
