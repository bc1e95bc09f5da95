package sqlite

import (
	"errors"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// benchDB opens the benchmark profile (benchPath), closed when the
// benchmark ends.
func benchDB(b *testing.B) *DB {
	db, err := Open(benchPath(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// benchPath is the benchmark profile's path (NSYSX_BENCH_FILE, else
// /tmp/train50.sqlite); the benchmark is skipped when it is missing.
func benchPath(b *testing.B) string {
	f := os.Getenv("NSYSX_BENCH_FILE")
	if f == "" {
		f = "/tmp/train50.sqlite"
	}
	if _, err := os.Stat(f); err != nil {
		b.Skipf("benchmark profile %s not found: make it with `make bench-data`", f)
	}
	return f
}

// BenchmarkScanFields reads four columns of every row of the benchmark
// profile's biggest tables (NSYSX_BENCH_FILE, default /tmp/train50.sqlite:
// see README "Benchmarks"), as report loads do: the B-tree walk and the
// record decoding, nothing else.
func BenchmarkScanFields(b *testing.B) {
	db := benchDB(b)
	tables := map[string][]string{
		"NVTX_EVENTS":                 {"start", "end", "globalTid", "textId"},
		"CUPTI_ACTIVITY_KIND_KERNEL":  {"start", "end", "deviceId", "shortName"},
		"CUPTI_ACTIVITY_KIND_RUNTIME": {"start", "end", "nameId", "correlationId"},
	}
	b.ReportAllocs()
	for b.Loop() {
		rows := 0
		for name, cols := range tables {
			err := db.ScanFields(db.Table(name), cols, ScanOptions{}, func(int64, *Fields) error { rows++; return nil })
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rows), "rows/op")
	}
}

// BenchmarkScanGatedFirst is the rules' scan of the runtime table: every
// row gated on nameId before decoding, nearly all refused (one core).
func BenchmarkScanGatedFirst(b *testing.B) {
	benchGated(b, "CUPTI_ACTIVITY_KIND_RUNTIME", []string{"start", "end", "nameId", "correlationId"}, 1)
}

// BenchmarkScanGatedNVTX is nvtx_startend_sum's scan of NVTX_EVENTS on a
// profile of push/pop ranges: every record's header walked to eventType,
// none kept (the benchmark profile has no start/end range).
func BenchmarkScanGatedNVTX(b *testing.B) {
	benchGated(b, "NVTX_EVENTS", []string{"start", "end", "eventType", "textId"}, 60)
}

// benchGated scans cols of table with a GateFirst gate on the third,
// keeping the value keep.
func benchGated(b *testing.B, table string, cols []string, keep int64) {
	db := benchDB(b)
	t := db.Table(table)
	opt := ScanOptions{Gate: func(v int64) bool { return v == keep }, GateField: 2, GateFirst: true}
	b.ReportAllocs()
	for b.Loop() {
		rows := 0
		err := db.ScanFields(t, cols, opt, func(int64, *Fields) error { rows++; return nil })
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rows), "rows/op")
	}
}

// BenchmarkOpen opens the benchmark profile: the header and the schema
// (every table's CREATE statement parsed), what every command pays before
// its first report.
func BenchmarkOpen(b *testing.B) { benchOpen(b, false) }

// BenchmarkCensus is BenchmarkOpen and the census (census.go), which a
// process's first read of a table adds: every B-tree's interior pages
// walked, and the pages no tree reaches looked at. The difference from
// BenchmarkOpen is the census's cost.
func BenchmarkCensus(b *testing.B) { benchOpen(b, true) }

func benchOpen(b *testing.B, census bool) {
	f := benchPath(b)
	b.ReportAllocs()
	for b.Loop() {
		db, err := Open(f)
		if err != nil {
			b.Fatal(err)
		}
		if census {
			err = db.checkPages(db.Table("StringIds"))
		}
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanGatedNVTXFresh is BenchmarkScanGatedNVTX as a process runs
// it: the file mapped anew for each scan, its pages faulted in and
// released as the scan leaves them (what a release costs shows here, not
// in the benchmarks that scan one mapping over and over).
func BenchmarkScanGatedNVTXFresh(b *testing.B) {
	f := benchPath(b)
	opt := ScanOptions{Gate: func(v int64) bool { return v == 60 }, GateField: 2, GateFirst: true, Release: true}
	cols := []string{"start", "end", "eventType", "textId"}
	b.ReportAllocs()
	for b.Loop() {
		db, err := Open(f)
		if err != nil {
			b.Fatal(err)
		}
		err = db.ScanFields(db.Table("NVTX_EVENTS"), cols, opt, func(int64, *Fields) error { return nil })
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFloorFresh is the least that reading a big table in GOMAXPROCS
// ranges at once costs a process: a fresh mapping, the leaves listed, and
// each leaf's cell area touched once per cache line in its range's
// goroutine, pages released as ScanFieldsParts releases them, nothing
// decoded. BenchmarkScanGatedPartsFresh is the same ranges' gated scan as
// the reports run it (nvtx_startend_sum's of NVTX_EVENTS on eventType, the
// rules' of the runtime calls on nameId); the difference is what
// decoding costs (docs/performance.md, "What bounds a gated scan").
func BenchmarkFloorFresh(b *testing.B) { benchGatedTables(b, false) }

// BenchmarkScanGatedPartsFresh: see BenchmarkFloorFresh. Its leaves are
// read with pread (leafBuf); BenchmarkScanGatedPartsFreshMapped reads them
// through the mapping, as the scan did before.
func BenchmarkScanGatedPartsFresh(b *testing.B) { benchGatedTables(b, true) }

// BenchmarkScanGatedPartsFreshMapped: see BenchmarkScanGatedPartsFresh.
func BenchmarkScanGatedPartsFreshMapped(b *testing.B) {
	defer func(on bool) { readLeavesOn = on }(readLeavesOn)
	readLeavesOn = false
	benchGatedTables(b, true)
}

func benchGatedTables(b *testing.B, scan bool) {
	for _, c := range []struct {
		table string
		cols  []string // the gated column third
		keep  int64
	}{
		{"NVTX_EVENTS", []string{"start", "end", "eventType", "textId"}, 60},
		{"CUPTI_ACTIVITY_KIND_RUNTIME", []string{"start", "end", "nameId", "correlationId"}, 1},
	} {
		b.Run(c.table, func(b *testing.B) { benchPartsFresh(b, c.table, c.cols, c.keep, scan) })
	}
}

func benchPartsFresh(b *testing.B, table string, cols []string, keep int64, scan bool) {
	f := benchPath(b)
	n := runtime.GOMAXPROCS(0)
	opt := ScanOptions{Gate: func(v int64) bool { return v == keep }, GateField: 2, GateFirst: true, Release: true}
	var sink atomic.Uint32
	for b.Loop() {
		db, err := Open(f)
		if err != nil {
			b.Fatal(err)
		}
		t := db.Table(table)
		if scan {
			_, err = db.ScanFieldsParts(t, cols, opt, n, func(int) func(int64, *Fields) error {
				return func(int64, *Fields) error { return nil }
			})
		} else {
			err = touchParts(db, t.Root, n, opt, &sink)
		}
		db.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// touchParts touches the cell area of every leaf of the tree at root, in
// up to n ranges at once, releasing pages as a scan with opt would.
func touchParts(db *DB, root uint32, n int, opt ScanOptions, sink *atomic.Uint32) error {
	ranges, err := db.leafParts(root, n)
	if err != nil {
		return err
	}
	opt = opt.split(len(ranges))
	errs := make([]error, len(ranges))
	var wg sync.WaitGroup
	for i, r := range ranges {
		wg.Go(func() {
			st := opt.stream(db)
			var s byte
			for _, piece := range r {
				for _, l := range piece {
					p, hdr, ncell, _, err := db.btreePage(l.pg)
					if err != nil {
						errs[i] = err // a floor of a damaged file would measure nothing
						return
					}
					s |= touchCells(p, hdr)
					if st != nil {
						st.leafDone(l.pg, ncell)
					}
				}
			}
			if st != nil {
				st.flush()
			}
			sink.Add(uint32(s))
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// BenchmarkLeafDoneAlternating is the bookkeeping of a releasing scan
// whose leaves alternate between two parts of the file (seven near leaves,
// then one far one, as in a table split by updates in place), without the
// pages themselves (no mapping: releasePages does nothing): what counting
// blocks once and keeping the other part's block costs per leaf.
func BenchmarkLeafDoneAlternating(b *testing.B) {
	db := &DB{pageSize: 4096, mapped: true}
	s := ScanOptions{Release: true, ReleaseEvery: 8 << 20}.stream(db)
	near, far := uint32(1), uint32(1<<20)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		pg := near
		if i%8 == 7 {
			pg, far = far, far+1
		} else {
			near++
		}
		if err := s.leafDone(pg, 1); err != nil {
			b.Fatal(err)
		}
	}
}
