package nsysx

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// NVTX benchmarks over the train x50 profile (2.72 M NVTX ranges, 280 000
// kernels, 604 000 CUDA API calls): make it with
// `python3 tools/nsys-tile.py train.sqlite /tmp/train50.sqlite 50`.
// Each iteration opens the file afresh, as one CLI run does.

func BenchmarkNVTXSum(b *testing.B)           { benchReport(b, "nvtx_sum") }
func BenchmarkNVTXPushPopSum(b *testing.B)    { benchReport(b, "nvtx_pushpop_sum") }
func BenchmarkNVTXStartEndSum(b *testing.B)   { benchReport(b, "nvtx_startend_sum") }
func BenchmarkNVTXPushPopTrace(b *testing.B)  { benchReport(b, "nvtx_pushpop_trace") }
func BenchmarkNVTXKernSum(b *testing.B)       { benchReport(b, "nvtx_kern_sum") }
func BenchmarkNVTXGPUProjSum(b *testing.B)    { benchReport(b, "nvtx_gpu_proj_sum") }
func BenchmarkNVTXGPUProjTrace(b *testing.B)  { benchReport(b, "nvtx_gpu_proj_trace") }
func BenchmarkNVTXSumFilterNVTX(b *testing.B) { benchFiltered(b, "nvtx_sum", "attention/1") }

// benchFiltered runs a report under --filter-nvtx (none when nvtx is "").
func benchFiltered(b *testing.B, spec, nvtx string) {
	path := testutil.BenchFile(b)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		var f *Filter
		if nvtx != "" {
			if f, err = ParseNVTXFilter(nvtx); err != nil {
				b.Fatal(err)
			}
		}
		r, err := p.Run(b.Context(), spec, f)
		if err != nil || r.Skipped != "" {
			b.Fatal(err, r.Skipped)
		}
		p.Close()
	}
}
