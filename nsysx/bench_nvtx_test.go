package nsysx

import (
	"fmt"
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

// The cost of NVTX names on a PyTorch autograd capture, where nearly every
// range has a name of its own ("aten::select, seq = 985, op_id = 15424"):
// interning a million distinct texts, then grouping a million ranges by
// them (docs/performance.md, "Names counted once"). Synthetic, no file.

func BenchmarkNVTXInternDistinct(b *testing.B) {
	texts := distinctNames(1 << 20)
	b.ReportAllocs()
	for b.Loop() {
		var t textTable
		for _, s := range texts {
			t.intern(s)
		}
	}
}

func BenchmarkNVTXGroupDistinct(b *testing.B) {
	const n = 1 << 20
	d := &nvtxData{n: n, start: make([]int64, n), end: make([]int64, n), flags: make([]uint8, n), pair: make([]int32, n),
		pairName: make([]int32, n), names: make([]string, n)}
	for i := range n {
		d.start[i], d.end[i] = int64(i)*100, int64(i)*100+int64(i%977)
		d.pair[i], d.pairName[i] = int32(i), int32(i)
	}
	b.ReportAllocs()
	for b.Loop() {
		durs, groups := d.groupDurations(0, true, true)
		forEachGroup(len(groups), func(k int) { g := &groups[k]; g.st = statsOf(durs[g.lo:g.hi]) })
		nvtxSumOrder(d, groups)
	}
}

// distinctNames is n PyTorch autograd range names, each with an op_id of
// its own.
func distinctNames(n int) [][]byte {
	ops := []string{"aten::select", "aten::mm", "aten::add_", "torch::autograd::AccumulateGrad"}
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, "%s, seq = %d, op_id = %d", ops[i%len(ops)], i/7, 15424+i)
	}
	return out
}
