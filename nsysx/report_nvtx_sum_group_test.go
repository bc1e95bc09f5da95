package nsysx

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestGroupDurationsChunks: on enough ranges to be cut into chunks (one per
// core, four here), groupDurations gives every (pair, style) group the
// durations of its ranges in range order and counts its NULLs, as one pass
// over the ranges appending to each group does (written out here), with the
// open ranges lasting until m, or NULL without it.
func TestGroupDurationsChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(1, 2))
	const n, pairs = 300_000, 500
	d := &nvtxData{n: n, start: make([]int64, n), end: make([]int64, n), flags: make([]uint8, n), pair: make([]int32, n), pairNames: make([][]string, pairs)}
	for i := range n {
		d.start[i] = r.Int64N(1e9)
		d.end[i] = d.start[i] + r.Int64N(1e6)
		d.pair[i] = int32(r.IntN(pairs))
		if r.IntN(4) == 0 {
			d.flags[i] |= nvStartEnd
		}
		if r.IntN(50) == 0 {
			d.flags[i] |= nvOpen
		}
	}
	const m = int64(2e9)
	for _, mOK := range []bool{true, false} {
		want := make([]Agg, 2*pairs)
		for i := range n {
			g := &want[int(d.pair[i])*2+int(d.flags[i]&nvStartEnd)]
			switch {
			case d.flags[i]&nvOpen == 0:
				g.vals = append(g.vals, d.end[i]-d.start[i])
			case mOK:
				g.vals = append(g.vals, m-d.start[i])
			default:
				g.nulls++
			}
		}
		got := d.groupDurations(m, mOK)
		if len(got) != len(want) {
			t.Fatalf("%d groups, want %d", len(got), len(want))
		}
		for g := range want {
			if !slices.Equal(got[g].vals, want[g].vals) || got[g].nulls != want[g].nulls {
				t.Fatalf("mOK %v, group %d: %d values and %d NULLs, want %d and %d (or another order)", mOK, g, len(got[g].vals), got[g].nulls, len(want[g].vals), want[g].nulls)
			}
		}
	}
}
