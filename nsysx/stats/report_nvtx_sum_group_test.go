package stats

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestGroupDurationsChunks: on enough ranges to be cut into chunks (one per
// core, four here), and on few (most groups one value), groupDurations gives every (name, style) group, or
// every name, the durations of its ranges as nsys's GROUP BY meets them and
// counts its NULLs: written out here as one pass over the ranges appending
// to each (pair, style), whose lists are then joined per name in pair order
// (and, by name alone, each pair's push/pop before its start/end), with the
// open ranges lasting until m, or NULL without it. Several pairs share a
// name, as the pairs of two domain ids registered under one name do.
func TestGroupDurationsChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{300_000, 700} { // 700: many groups of one value
		testGroupDurations(t, r, n)
	}
}

func testGroupDurations(t *testing.T, r *rand.Rand, n int) {
	const pairs, names = 500, 300
	d := &nvtxData{n: n, start: make([]int64, n), end: make([]int64, n), flags: make([]uint8, n), pair: make([]int32, n),
		pairName: make([]int32, pairs), names: make([]string, names)}
	for p := range pairs {
		d.pairName[p] = int32(r.IntN(names))
	}
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
	type key struct {
		name  int32
		style uint8
	}
	for _, mOK := range []bool{true, false} {
		byPair := make([]Agg, 2*pairs)
		for i := range n {
			g := &byPair[int(d.pair[i])*2+int(d.flags[i]&nvStartEnd)]
			switch {
			case d.flags[i]&nvOpen == 0:
				g.vals = append(g.vals, d.end[i]-d.start[i])
			case mOK:
				g.vals = append(g.vals, m-d.start[i])
			default:
				g.nulls++
			}
		}
		for _, withStyle := range []bool{true, false} {
			want := map[key]*Agg{}
			for p := range pairs {
				for st := range 2 {
					k := key{d.pairName[p], 0}
					if withStyle {
						k.style = uint8(st)
					}
					if want[k] == nil {
						want[k] = &Agg{}
					}
					want[k].vals = append(want[k].vals, byPair[p*2+st].vals...)
					want[k].nulls += byPair[p*2+st].nulls
				}
			}
			for k, a := range want {
				if a.Count() == 0 {
					delete(want, k)
				}
			}
			durs, got, more := d.groupDurations(m, mOK, withStyle)
			if len(got) != len(want) {
				t.Fatalf("mOK %v withStyle %v: %d groups, want %d", mOK, withStyle, len(got), len(want))
			}
			for _, g := range got {
				k := key{g.name, 0}
				if withStyle {
					k.style = g.style
				}
				w := want[k]
				vals, nulls := []int64{g.total}, int32(0) // a group of one value holds it
				if g.more > 0 {
					x := more[g.more-1]
					vals, nulls = durs[x.lo:x.hi], x.nulls
				}
				if w == nil || !slices.Equal(vals, w.vals) || int(nulls) != w.nulls || int(g.n) != len(w.vals) {
					t.Fatalf("mOK %v withStyle %v, group %+v: %d values and %d NULLs, not the expected ones (or another order)", mOK, withStyle, k, len(vals), nulls)
				}
				delete(want, k)
			}
		}
	}
}
