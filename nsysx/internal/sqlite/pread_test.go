package sqlite

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPreadPartsMatchesScan: leaves read with pread (ScanOptions.Pread),
// in up to three parts of one leaf or more, give every row of every table
// of two real exports as a plain Scan does, and none of the leaves is
// read through the mapping (the mapping is no more resident afterwards).
func TestPreadPartsMatchesScan(t *testing.T) {
	defer func(m int) { MinPartLeaves = m }(MinPartLeaves)
	MinPartLeaves = 1
	tables := 0
	eachRealTable(t, func(name string, db *DB, tb *Table, cols []string) {
		if db.leafReader(ScanOptions{Pread: true}, nil) == nil {
			t.Fatalf("%s: no pread reader for a mapped file", name)
		}
		want := digestsScan(t, db, tb, cols)
		got, _, err := scanPartsWith(db, tb, cols, 3, ScanOptions{Pread: true, AbsentNull: true})
		if err != nil {
			t.Fatalf("%s %s: %v", name, tb.Name, err)
		}
		if !sameDigests(got, want) {
			t.Errorf("%s %s: ScanFieldsParts with Pread differs from Scan", name, tb.Name)
		}
		tables++
	})
	if tables == 0 {
		t.Fatal("no table read")
	}
}

// TestPreadReadsRuns: consecutive leaves are read together, a run of at
// most leafBufBytes, and a leaf out of the buffer's run is read anew.
func TestPreadReadsRuns(t *testing.T) {
	db := &DB{pageSize: 4096, usable: 4096, nPages: 200}
	f, err := os.CreateTemp(t.TempDir(), "pages")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 4096)
	for pg := 1; pg <= 200; pg++ {
		page[0], page[3], page[4] = 0x0D, 0, 0 // an empty table leaf
		page[100] = byte(pg)                   // which page it is
		if _, err := f.Write(page); err != nil {
			t.Fatal(err)
		}
	}
	db.file, db.mapped = f, true
	r := db.leafReader(ScanOptions{Pread: true}, nil)
	preadPages := uint32(leafBufBytes / db.pageSize)
	var piece []leafRef
	for _, pg := range []uint32{2, 3, 4, 10, 11} {
		piece = append(piece, leafRef{pg: pg})
	}
	for pg := uint32(20); pg < 20+preadPages+5; pg++ {
		piece = append(piece, leafRef{pg: pg})
	}
	for j, l := range piece {
		p, _, ncell, leaf, err := r.btreePage(piece, j)
		if err != nil || !leaf || ncell != 0 || p[100] != byte(l.pg) {
			t.Fatalf("leaf %d (page %d): leaf %v, cells %d, page %d, %v", j, l.pg, leaf, ncell, p[100], err)
		}
	}
	if r.readRuns != 4 { // 2-4, 10-11, 20 to 20+preadPages-1, the rest
		t.Errorf("%d reads, want 4", r.readRuns)
	}
}

// TestPreadCorrupt: on damaged files, a scan with Pread fails exactly
// when the scan through the mapping does, and never panics.
func TestPreadCorrupt(t *testing.T) {
	defer func(m int) { MinPartLeaves = m }(MinPartLeaves)
	MinPartLeaves = 1
	orig := syncDB(t)
	dir := t.TempDir()
	n := 0
	damagedCopies(orig, len(orig)/25+1, func(off int, _ *DB) {
		path := filepath.Join(dir, "d.sqlite")
		b := append([]byte(nil), orig...)
		b[off] ^= 0xA5
		b[off/2] ^= 0x5A
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := Open(path)
		if err != nil {
			return
		}
		defer db.Close()
		for _, tb := range db.Tables() {
			cols := columnsOf(tb)
			if len(cols) == 0 {
				continue
			}
			_, _, merr := scanPartsWith(db, tb, cols, 4, ScanOptions{AbsentNull: true})
			_, _, perr := scanPartsWith(db, tb, cols, 4, ScanOptions{AbsentNull: true, Pread: true})
			if (merr == nil) != (perr == nil) {
				t.Errorf("offset %d, %s: through the mapping %v, with pread %v", off, tb.Name, merr, perr)
			}
			n++
		}
	})
	if n == 0 {
		t.Fatal("no damaged copy could be opened")
	}
}

// BenchmarkScanPartsPreadFresh is the scan of the recipes' domain probe
// (findDomain) over a fresh DB in GOMAXPROCS ranges: NVTX_EVENTS gated on
// eventType before any field is decoded, none kept, the leaves read with
// pread; BenchmarkScanPartsMappedFresh is the same scan through the
// mapping, its pages faulted in and released behind it (the default).
func BenchmarkScanPartsPreadFresh(b *testing.B) { benchPartsPread(b, true) }

// BenchmarkScanPartsMappedFresh: see BenchmarkScanPartsPreadFresh.
func BenchmarkScanPartsMappedFresh(b *testing.B) { benchPartsPread(b, false) }

func benchPartsPread(b *testing.B, pread bool) {
	f := benchPath(b)
	opt := ScanOptions{Gate: func(v int64) bool { return v == 75 }, GateField: 0, GateFirst: true, Release: true, AbsentNull: true, Pread: pread}
	cols := []string{"eventType", "domainId", "text"}
	b.ReportAllocs()
	for b.Loop() {
		db, err := Open(f)
		if err != nil {
			b.Fatal(err)
		}
		_, err = db.ScanFieldsParts(db.Table("NVTX_EVENTS"), cols, opt, runtime.GOMAXPROCS(0), func(int) func(int64, *Fields) error {
			return func(int64, *Fields) error { return nil }
		})
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
