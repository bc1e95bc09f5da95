package stats

import (
	"fmt"
	"testing"
)

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
	for i, t := range distinctNames(n) {
		d.start[i], d.end[i] = int64(i)*100, int64(i)*100+int64(i%977)
		d.pair[i], d.pairName[i], d.names[i] = int32(i), int32(i), ":"+string(t)
	}
	b.ReportAllocs()
	for b.Loop() {
		durs, groups, more := d.groupDurations(0, true, true)
		forEachGroup(len(more), func(k int) { x := &more[k]; x.st = statsOf(durs[x.lo:x.hi]) })
		sortNVTXSum(d.names, groups, more)
	}
}

// BenchmarkNVTXBuildDistinct is the NVTX load's builder on a million
// push/pop ranges without a domain, each of a name of its own: texts
// interned, pairs counted, names resolved (nvtxBuilder.addRows, finish), in
// batches as the load hands them over.
func BenchmarkNVTXBuildDistinct(b *testing.B) {
	texts := distinctNames(1 << 20)
	rows := make([]nvtxRow, len(texts))
	for i, t := range texts {
		rows[i] = nvtxRow{rowid: int64(i), start: int64(i) * 100, end: int64(i)*100 + 50, typ: nvtxPushPop, gtid: 1 << 24,
			null: nvNullTextID | nvNullDomain | nvNullEndTid, text: t}
	}
	b.ReportAllocs()
	for b.Loop() {
		bd := &nvtxBuilder{sel: nvtxSel{pushPop: true}, d: &nvtxData{}, domRows: map[nvGroupKey]*nvDomRow{},
			dkeys: map[nvDomKey]int32{}, byTextID: map[int64]int32{}, lastDK: nvDomKey{-1, -1}}
		bd.reserve(len(rows))
		for lo := 0; lo < len(rows); lo += nvtxBatchRows {
			bd.addRows(rows[lo:min(lo+nvtxBatchRows, len(rows))])
		}
		bd.finish()
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

// BenchmarkNVTXSortByTotal is nvtx_sum's order by total (sortByTotal) of a
// million groups whose totals take 20 000 values, as a PyTorch capture's
// single-range groups do.
func BenchmarkNVTXSortByTotal(b *testing.B) {
	const n = 1 << 20
	src := make([]nvtxSumGroup, n)
	for i := range src {
		src[i] = nvtxSumGroup{name: int32(i), n: 1, total: int64(1000 + (i*7919)%20000*13)}
	}
	groups := make([]nvtxSumGroup, n)
	b.ReportAllocs()
	for b.Loop() {
		copy(groups, src)
		sortByTotal(groups)
	}
}
