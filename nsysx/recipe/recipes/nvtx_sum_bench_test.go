package recipes

import (
	"os"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// The nvtx_sum map over one report, NSYSX_BENCH_NVTX_REPORT (e.g. a capture
// with a million distinct NVTX texts) or else testdata's train: the scan by
// text (the map now) against the composite path (the lean NVTX columns and
// Describe, the map before). Each run opens the report afresh, so that no
// table loaded by the last one is reused.
func BenchmarkNVTXSumMapScan(b *testing.B)      { benchNVTXSumMap(b, true) }
func BenchmarkNVTXSumMapComposite(b *testing.B) { benchNVTXSumMap(b, false) }

func benchNVTXSumMap(b *testing.B, scan bool) {
	path := os.Getenv("NSYSX_BENCH_NVTX_REPORT")
	if path == "" {
		path = testutil.Profile(b, "train")
	}
	o := recipe.Defaults()
	b.ReportAllocs()
	for b.Loop() {
		p, err := nsysx.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r := &recipe.Report{Path: path, Stem: "r", Profile: p}
		if scan {
			if _, ok, err := scanNVTXSum(b.Context(), r, o); err != nil || !ok {
				b.Fatal(err, ok)
			}
		} else {
			nv, err := loadNVTXLean(b.Context(), p, false)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := textSum(b.Context(), r, o, nvtxTextRows(nv), nil); err != nil {
				b.Fatal(err)
			}
		}
		p.Close()
	}
}

func BenchmarkBigNVTXSum(b *testing.B) { benchBig(b, "nvtx_sum") }
