package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
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

// TestSortNVTXSumTies: the groups in nvtx_sum's row order (Total
// descending, NULL last, then name, then style) when most totals tie and
// the runs of one total cross the parts sorted on separate cores, and with
// totals of every sign and size (the radix sort's bytes): compared with one
// sort on the whole key.
func TestSortNVTXSumTies(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(3, 4))
	const n = 200_000
	names := make([]string, n/2) // distinct, in no order
	for i, k := range r.Perm(len(names)) {
		names[i] = fmt.Sprintf("op%d", k)
	}
	for _, spread := range []int64{3, 300, 1e9, -1e9} { // 3: runs longer than a part; -1e9: signed
		groups := make([]nvtxSumGroup, n)
		for i := range groups {
			g := &groups[i]
			g.name, g.style, g.n = int32(i/2), uint8(i%2), 1
			if spread > 0 {
				g.total = r.Int64N(spread)
			} else {
				g.total = r.Int64N(-2*spread) + spread
			}
			if r.IntN(100) == 0 {
				g.n, g.total = 0, 0
			}
		}
		want := slices.Clone(groups)
		slices.SortFunc(want, func(a, b nvtxSumGroup) int {
			if an, bn := a.n == 0, b.n == 0; an != bn {
				if an {
					return 1
				}
				return -1
			}
			return cmp.Or(cmp.Compare(b.total, a.total), strings.Compare(names[a.name], names[b.name]), cmp.Compare(a.style, b.style))
		})
		sortNVTXSum(names, groups, nil)
		for i := range groups {
			if groups[i] != want[i] {
				t.Fatalf("spread %d: row %d is %+v, want %+v", spread, i, groups[i], want[i])
			}
		}
	}
}

// TestSortByTotal: the radix sort orders totals of every sign and size
// (each byte varying, or shared by all), the NULL totals last, as a
// comparison sort of (NULL, -total) does.
func TestSortByTotal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	extremes := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 32, -1, 0, 1, 255, 256, 1 << 40, math.MaxInt64}
	for _, n := range []int{10, 5000, 100_000} { // 10: below the radix sort's size
		for _, pick := range []func() int64{
			func() int64 { return extremes[r.IntN(len(extremes))] },
			func() int64 { return r.Int64() - r.Int64() },
			func() int64 { return 1<<33 + r.Int64N(1000) }, // the high bytes shared
		} {
			groups := make([]nvtxSumGroup, n)
			for i := range groups {
				groups[i] = nvtxSumGroup{name: int32(i), n: 1, total: pick()}
				if r.IntN(20) == 0 {
					groups[i].n, groups[i].total = 0, 0
				}
			}
			want := slices.Clone(groups)
			slices.SortStableFunc(want, func(a, b nvtxSumGroup) int {
				return cmp.Or(cmp.Compare(btoi(a.n == 0), btoi(b.n == 0)), cmp.Compare(b.total, a.total))
			})
			sortByTotal(groups)
			for i := range groups {
				if g, w := groups[i], want[i]; g.n != w.n || g.total != w.total {
					t.Fatalf("n %d: row %d is %+v, want %+v", n, i, g, w)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestNVTXBuilderPairs: ranges of one domain first (the builder only counts
// their pairs), then of others and none (it spreads them into arrays): two
// ranges share a pair exactly when they share domain id and text, and every
// range is named ":" + its text (no domain is registered), as a map of
// (domain, text) written out here says.
func TestNVTXBuilderPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, first := range []int{0, 1, 50, 400} { // ranges of domain 7 before the others
		b := &nvtxBuilder{sel: nvtxSel{pushPop: true}, d: &nvtxData{}, domRows: map[nvGroupKey]*nvDomRow{},
			dkeys: map[nvDomKey]int32{}, byTextID: map[int64]int32{}, lastDK: nvDomKey{-1, -1}}
		type key struct {
			dom  int64
			text string
		}
		var keys []key
		for i := range 2000 {
			k := key{7, fmt.Sprintf("t%d", r.IntN(300))}
			if i >= first {
				k.dom = int64(r.IntN(4)) // 0: no domain
			}
			row := nvtxRow{rowid: int64(i), start: int64(i), end: int64(i + 1), typ: nvtxPushPop, gtid: 1 << 24,
				domainID: k.dom, null: nvNullTextID | nvNullEndTid, text: []byte(k.text)}
			if k.dom == 0 {
				row.null |= nvNullDomain
			}
			b.add(&row)
			keys = append(keys, k)
		}
		b.finish()
		d := b.d
		pairOf := map[key]int32{}
		for i, k := range keys {
			p, ok := pairOf[k]
			if !ok {
				p = d.pair[i]
				pairOf[k] = p
			}
			if d.pair[i] != p || d.name(i) != ":"+k.text {
				t.Fatalf("first %d, range %d %+v: pair %d named %q, want pair %d named %q", first, i, k, d.pair[i], d.name(i), p, ":"+k.text)
			}
		}
		if len(pairOf) != b.pairs() {
			t.Fatalf("first %d: %d pairs, want %d", first, b.pairs(), len(pairOf))
		}
	}
}
