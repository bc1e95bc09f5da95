package nsysx

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// fixtureFile returns a testdata/fixtures export, unpacked when gzipped.
func fixtureFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "testdata", "fixtures", name+".sqlite")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return testutil.Unpack(t, filepath.Join("testdata", "fixtures", name+".sqlite.gz"))
}

// loadBoth loads the NVTX ranges with the direct reader and with the generic
// one.
func loadBoth(t *testing.T, path string, sel nvtxSel, f *Filter) (fast, slow *nvtxData) {
	t.Helper()
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := &Ctx{P: p, Report: registry["nvtx_sum"], Filter: f}
	if fast, err = c.loadNVTX(sel); err != nil {
		t.Fatal(err)
	}
	nvtxFastPath = false
	defer func() { nvtxFastPath = true }()
	if slow, err = c.loadNVTX(sel); err != nil {
		t.Fatal(err)
	}
	return fast, slow
}

// TestNVTXFastScanMatchesGeneric compares the two NVTX_EVENTS readers on
// real profiles and on a file of 1 KB pages with overflow chains.
func TestNVTXFastScanMatchesGeneric(t *testing.T) {
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
	for _, ns := range fast.pairNames {
		long = max(long, len(ns[0]))
	}
	if long < 70000 {
		t.Errorf("longest name %d bytes: overflow pages not followed", long)
	}
}

// sameNVTXData compares two loads field by field (an empty array equals a
// missing one).
func sameNVTXData(a, b *nvtxData) bool {
	return a.n == b.n && slices.Equal(a.start, b.start) && slices.Equal(a.end, b.end) && slices.Equal(a.flags, b.flags) &&
		slices.Equal(a.pair, b.pair) && slices.Equal(a.rowid, b.rowid) && slices.Equal(a.gtid, b.gtid) &&
		reflect.DeepEqual(a.pairNames, b.pairNames) && a.maxAll == b.maxAll && a.maxPP == b.maxPP && a.maxSE == b.maxSE
}

// TestNVTXFastScanTruncated checks that a damaged file gives an error, not a
// panic or made-up rows.
func TestNVTXFastScanTruncated(t *testing.T) {
	data, err := os.ReadFile(fixtureFile(t, "nvtx_long"))
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, keep := range []int{len(data) / 2, len(data) - 1024, len(data) * 3 / 4, len(data) / 4, 8192} {
		path := filepath.Join(t.TempDir(), "cut.sqlite")
		if err := os.WriteFile(path, data[:keep], 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Open(path)
		if err != nil {
			continue // the schema itself was cut
		}
		tried++
		c := &Ctx{P: p, Report: registry["nvtx_sum"]}
		if _, err := c.loadNVTX(nvtxSel{pushPop: true, startEnd: true}); err == nil {
			t.Errorf("cut at %d of %d: no error", keep, len(data))
		}
		p.Close()
	}
	if tried == 0 {
		t.Fatal("no cut file opened: the test checked nothing")
	}
}
