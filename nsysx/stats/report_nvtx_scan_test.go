package stats

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/report"
)

// fixtureFile returns a testdata/fixtures export, unpacked when gzipped.
func fixtureFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(testutil.Root(), "testdata", "fixtures", name+".sqlite")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return testutil.Unpack(t, filepath.Join("testdata", "fixtures", name+".sqlite.gz"))
}

// loadBoth loads the NVTX ranges with the direct reader and with the generic
// one. A direct load that left its maxima for later must hold no open
// range; its maxima are then taken, for the comparison, while the profile
// is open.
func loadBoth(t *testing.T, path string, sel nvtxSel, f *Filter) (fast, slow *nvtxData) {
	t.Helper()
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := &Ctx{Context: context.Background(), P: p, Report: report.Registered("nvtx_sum"), Filter: f}
	if fast, err = loadNVTX(c, sel); err != nil {
		t.Fatal(err)
	}
	if fast.maxLater != nil && slices.ContainsFunc(fast.flags, func(fl uint8) bool { return fl&nvOpen != 0 }) {
		t.Errorf("%s %+v: open ranges loaded without their maxima", path, sel)
	}
	if err := fast.maxima(); err != nil {
		t.Fatal(err)
	}
	nvtxFastPath = false
	defer func() { nvtxFastPath = true }()
	if slow, err = loadNVTX(c, sel); err != nil {
		t.Fatal(err)
	}
	return fast, slow
}

// TestNVTXFastScanMatchesGeneric compares the two NVTX_EVENTS readers on
// real profiles and on a file of 1 KB pages with overflow chains: the
// direct reader on one core, and over ranges of one leaf page or more read
// at once (scanNVTXStreamParts).
func TestNVTXFastScanMatchesGeneric(t *testing.T) {
	for _, cut := range []bool{false, true} {
		func() {
			procs := 1
			if cut {
				procs = 4
				defer func(l int) { sqlite.MinPartLeaves = l }(sqlite.MinPartLeaves)
				sqlite.MinPartLeaves = 1
			}
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			nvtxFastScanMatchesGeneric(t)
		}()
	}
}

func nvtxFastScanMatchesGeneric(t *testing.T) {
	paths := map[string]string{"long": fixtureFile(t, "nvtx_long"), "edge": fixtureFile(t, "nvtx_edge"),
		"train": fixture(t, "train"), "bt": fixture(t, "bt")}
	win, _ := ParseTimeFilter("300/1500")
	for name, path := range paths {
		for _, sel := range []nvtxSel{{pushPop: true, startEnd: true, ids: true}, {pushPop: true, startEnd: true, sameThread: true, ids: true}, {startEnd: true}} {
			for _, f := range []*Filter{nil, win} {
				fast, slow := loadBoth(t, path, sel, f)
				if fast.n == 0 && f == nil && sel.pushPop {
					t.Errorf("%s: no ranges", name)
				}
				if !sameNVTXData(fast, slow) {
					t.Errorf("%s %+v filter %v: the direct reader differs from the generic one (%d vs %d ranges)", name, sel, f != nil, fast.n, slow.n)
				}
			}
		}
	}
	fast, _ := loadBoth(t, paths["long"], nvtxSel{pushPop: true, startEnd: true, ids: true}, nil)
	var long int
	for _, name := range fast.names {
		long = max(long, len(name))
	}
	if long < 70000 {
		t.Errorf("longest name %d bytes: overflow pages not followed", long)
	}
}

// TestNVTXKeptPartsMatchesGeneric: the gated NVTX scan over ranges of one
// leaf page or more read at once (scanNVTXKeptParts) loads what the generic
// reader loads, maxima included (loadBoth), for every selection that
// gates; also when the ranges keep more rows than it holds (the serial
// scan takes over), or when it runs on one core.
func TestNVTXKeptPartsMatchesGeneric(t *testing.T) {
	defer func(l int, m int64, g int) {
		sqlite.MinPartLeaves, nvtxKeptPartsMax = l, m
		runtime.GOMAXPROCS(g)
	}(sqlite.MinPartLeaves, nvtxKeptPartsMax, runtime.GOMAXPROCS(4))
	sqlite.MinPartLeaves = 1
	paths := map[string]string{"long": fixtureFile(t, "nvtx_long"), "edge": fixtureFile(t, "nvtx_edge"),
		"train": fixture(t, "train"), "bt": fixture(t, "bt"), "sync": fixture(t, "sync")}
	for _, limit := range []int64{1 << 14, 3} {
		for _, procs := range []int{4, 1} {
			runtime.GOMAXPROCS(procs)
			nvtxKeptPartsMax = limit
			for name, path := range paths {
				for _, sel := range []nvtxSel{{pushPop: true, startEnd: true, ids: true}, {startEnd: true}, {pushPop: true}} {
					fast, slow := loadBoth(t, path, sel, nil)
					if !sameNVTXData(fast, slow) {
						t.Errorf("%s %+v (limit %d, %d procs): the ranged scan differs from the generic reader (%d vs %d ranges)",
							name, sel, limit, procs, fast.n, slow.n)
					}
				}
			}
		}
	}
}

// sameNVTXData compares two loads field by field (an empty array equals a
// missing one).
func sameNVTXData(a, b *nvtxData) bool {
	return a.n == b.n && slices.Equal(a.start, b.start) && slices.Equal(a.end, b.end) && slices.Equal(a.flags, b.flags) &&
		slices.Equal(a.pair, b.pair) && slices.Equal(a.rowid, b.rowid) && slices.Equal(a.tid, b.tid) && slices.Equal(a.threads, b.threads) &&
		slices.Equal(a.pairName, b.pairName) && slices.Equal(a.names, b.names) && a.maxAll == b.maxAll && a.maxPP == b.maxPP && a.maxSE == b.maxSE
}

// TestNVTXFastScanTruncated checks that a damaged file gives an error, not a
// panic or made-up rows.
func TestNVTXFastScanTruncated(t *testing.T) {
	data := testutil.ReadFile(t, fixtureFile(t, "nvtx_long"))
	tried := 0
	for _, keep := range []int{len(data) / 2, len(data) - 1024, len(data) * 3 / 4, len(data) / 4, 8192} {
		p, err := Open(testutil.WriteTemp(t, "cut.sqlite", data[:keep]))
		if err != nil {
			continue // the schema itself was cut
		}
		tried++
		c := &Ctx{Context: context.Background(), P: p, Report: report.Registered("nvtx_sum")}
		if _, err := loadNVTX(c, nvtxSel{pushPop: true, startEnd: true}); err == nil {
			t.Errorf("cut at %d of %d: no error", keep, len(data))
		}
		p.Close()
	}
	if tried == 0 {
		t.Fatal("no cut file opened: the test checked nothing")
	}
}

// TestNVTXNullBits checks the shifts of nvtxNullBits against the names.
func TestNVTXNullBits(t *testing.T) {
	want := map[int]uint8{nvEnd: nvNullEnd, nvGtid: nvNullTid, nvTextID: nvNullTextID, nvText: nvNullText, nvDomain: nvNullDomain, nvEndGtid: nvNullEndTid}
	for k := range nvGpid + 1 {
		if got := nvtxNullBits(1 << k); got != want[k] {
			t.Errorf("field %d: NULL bits %#x, want %#x", k, got, want[k])
		}
	}
}

// TestNVTXFastScanReleaseKeepsData: the direct reader releases the pages of
// NVTX_EVENTS from the profile's own mapping (here after every page) while
// other goroutines load the same table through it; their loads, and one
// after the scans, equal a load from a profile that never released a page.
func TestNVTXFastScanReleaseKeepsData(t *testing.T) {
	path := fixture(t, "train")
	cols := []string{"start", "end", "eventType", "rangeId", "text", "globalTid", "endGlobalTid", "textId", "domainId"}
	fresh, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	want, err := fresh.Load(context.Background(), tNVTX, cols...)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { nvtxReleaseEvery = n }(nvtxReleaseEvery)
	nvtxReleaseEvery = 1
	same := func(got *Table) bool {
		if got.N != want.N || !slices.Equal(got.RowIDs, want.RowIDs) {
			return false
		}
		for _, c := range cols {
			if !reflect.DeepEqual(got.Col(c), want.Col(c)) {
				return false
			}
		}
		return true
	}
	for round := range 2 {
		p, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := range 3 {
			wg.Go(func() {
				if g == 0 && round == 1 { // a load of the table during the scans
					got, err := p.Load(context.Background(), tNVTX, cols...)
					if err != nil || !same(got) {
						t.Errorf("a load during the scans differs (%v)", err)
					}
					return
				}
				c := &Ctx{Context: context.Background(), P: p, Report: report.Registered("nvtx_sum")}
				if d, err := loadNVTX(c, nvtxSel{pushPop: true, startEnd: true, ids: true}); err != nil || d.n == 0 {
					t.Errorf("scan %d: %v", g, err)
				}
			})
		}
		wg.Wait()
		if round == 0 {
			got, err := p.Load(context.Background(), tNVTX, cols...)
			if err != nil || !same(got) {
				t.Errorf("a load after the scans differs (%v)", err)
			}
		}
		p.Close()
	}
}

// TestNVTXScanCancel: a cancelled context stops the NVTX loader, through
// the direct reader and through the generic one (a Parquet export), before
// any batch is built, and RunReport returns context.Canceled.
func TestNVTXScanCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, path := range []string{fixture(t, "train"), filepath.Join(testutil.Root(), "testdata", "profiles", "train_pqtdir")} {
		p, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		c := &Ctx{Context: ctx, P: p, Report: report.Registered("nvtx_sum")}
		sc, err := c.FilteredScanner(tNVTX, false, nvtxScanCols(p)...)
		if err != nil {
			t.Fatal(err)
		}
		batches := 0
		if err := scanNVTX(sc, func(*nvtxBatch) { batches++ }); !errors.Is(err, context.Canceled) || batches != 0 {
			t.Errorf("%s: scanNVTX gave %v after %d batches", p.Format, err, batches)
		}
		// cancelled during the scan, after the first batch
		ctx2, cancel2 := context.WithCancel(context.Background())
		batches = 0
		sc.Ctx = ctx2
		err = scanNVTX(sc, func(*nvtxBatch) {
			if batches++; batches == 1 {
				cancel2()
			}
		})
		if !errors.Is(err, context.Canceled) || batches != 1 {
			t.Errorf("%s: cancelled during the scan: %v after %d batches", p.Format, err, batches)
		}
		for _, r := range []string{"nvtx_sum", "nvtx_pushpop_trace", "nvtx_kern_sum"} {
			if _, err := report.RunReport(ctx, p, report.Registered(r), nil, nil); !errors.Is(err, context.Canceled) {
				t.Errorf("%s %s: RunReport with a cancelled context: %v", p.Format, r, err)
			}
		}
		p.Close()
	}
}

// TestNVTXReserveHint: the ranges' arrays are sized once from the first
// batch's hint, so a load of many batches never grows them (growing copies
// them all and leaves the old ones to the collector): the capacity stays
// within the hint's 2 % margin of the ranges loaded.
func TestNVTXReserveHint(t *testing.T) {
	p, err := Open(fixture(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := &Ctx{Context: context.Background(), P: p, Report: report.Registered("nvtx_sum")}
	d, err := loadNVTX(c, nvtxSel{pushPop: true, startEnd: true, ids: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.n <= nvtxBatchRows {
		t.Fatalf("%d ranges: one batch, the test checks nothing", d.n)
	}
	if n, c := len(d.start), cap(d.start); c > n+n/50+1 {
		t.Errorf("%d ranges in arrays of %d: they grew past the hint", n, c)
	}
}
