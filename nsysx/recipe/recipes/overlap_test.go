package recipes

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

func randSpans(r *rand.Rand, n int, horizon int64) []composite.Interval {
	v := make([]composite.Interval, n)
	for i := range v {
		s := r.Int63n(horizon)
		v[i] = composite.Interval{Start: s, End: s + r.Int63n(horizon/4+1)}
	}
	return v
}

// brutePieces is every overlapping pair, by A row then B position.
func brutePieces(a, b []composite.Interval) []composite.Piece {
	self := b == nil
	if self {
		b = a
	}
	var out []composite.Piece
	for i, x := range a {
		for j, y := range b {
			if self && i == j {
				continue
			}
			s, e := max(x.Start, y.Start), min(x.End, y.End)
			if x.Start < y.End && x.End > y.Start && e > s {
				out = append(out, composite.Piece{Interval: composite.Interval{Start: s, End: e}, Row: i})
			}
		}
	}
	return out
}

func pieceKey(p []composite.Piece) string {
	s := make([]string, len(p))
	for i, x := range p {
		s[i] = fmt.Sprint(x.Row, x.Start, x.End)
	}
	sort.Strings(s)
	return fmt.Sprint(s)
}

// components groups closed intervals by connectivity (union-find over
// every overlapping or touching pair): the same partition as docs/recipes.md §1.10's G.
func components(v []composite.Interval) []int {
	parent := make([]int, len(v))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for i := range v {
		for j := range v {
			if v[i].Start <= v[j].End && v[j].Start <= v[i].End {
				parent[find(i)] = find(j)
			}
		}
	}
	out := make([]int, len(v))
	for i := range v {
		out[i] = find(i)
	}
	return out
}

// bruteOverlapSum reads the definition literally: for every A row and every
// component, the span [min start, max end] of that row's pieces in it.
func bruteOverlapSum(a, b []composite.Interval) []float64 {
	p := brutePieces(a, b)
	comp := components(composite.PieceSpans(p))
	out := make([]float64, len(a))
	for row := range a {
		for c := range p { // component ids are piece indices
			lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
			for i, x := range p {
				if x.Row == row && comp[i] == c {
					lo, hi = min(lo, x.Start), max(hi, x.End)
				}
			}
			if lo <= hi {
				out[row] += float64(hi - lo)
			}
		}
	}
	return out
}

func TestOverlapRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 300; iter++ {
		a := randSpans(r, r.Intn(12), 100)
		var b []composite.Interval
		if iter%3 != 0 {
			b = randSpans(r, r.Intn(12), 100)
		}
		if got, want := pieceKey(composite.OverlapPieces(a, b)), pieceKey(brutePieces(a, b)); got != want {
			t.Fatalf("pieces of %v, %v:\n got %s\nwant %s", a, b, got, want)
		}
		if got, want := composite.OverlapSum(a, b), bruteOverlapSum(a, b); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("overlap sum of %v, %v: got %v, want %v", a, b, got, want)
		}
		c := composite.Consolidate(append([]composite.Interval(nil), a...))
		for i := 1; i < len(c); i++ {
			if c[i].Start <= c[i-1].End {
				t.Fatalf("consolidate %v: %v not disjoint", a, c)
			}
		}
		if coverage(c) != coverage(a) {
			t.Fatalf("consolidate %v: %v covers other points", a, c)
		}
	}
}

// coverage lists the covered unit points 2x (closed intervals, so that
// touching ranges are distinguishable from gaps).
func coverage(v []composite.Interval) string {
	var pts []int64
	for x := int64(0); x <= 400; x++ {
		for _, s := range v {
			if 2*s.Start <= x && x <= 2*s.End {
				pts = append(pts, x)
				break
			}
		}
	}
	return fmt.Sprint(pts)
}

// TestOverlapSumBridged: row 0 overlaps rows 1 and 3 in two separate pieces
// that row 2's piece bridges, so nsys counts row 0's [10,40] whole (30), not
// the 20 of its own pieces.
func TestOverlapSumBridged(t *testing.T) {
	a := []composite.Interval{{Start: 0, End: 100}, {Start: 200, End: 300}}
	b := []composite.Interval{{Start: 10, End: 20}, {Start: 30, End: 40}, {Start: 215, End: 235}, {Start: 205, End: 210}}
	if got := composite.OverlapSum(a, b); fmt.Sprint(got) != "[20 25]" {
		t.Errorf("A vs B: got %v, want [20 25]", got)
	}
	self := []composite.Interval{{Start: 0, End: 100}, {Start: 10, End: 20}, {Start: 15, End: 40}, {Start: 60, End: 70}}
	// Row 0: pieces [10,20], [15,40], [60,70] → groups [10,40] and [60,70]
	// = 40. Row 1: [10,20] with 0, [15,20] with 2 → 10. Row 2: [15,40] and
	// [15,20] → 25, bridged into one group with row 0's and row 1's pieces.
	if got := composite.OverlapSum(self, nil); fmt.Sprint(got) != "[40 10 25 10]" {
		t.Errorf("self: got %v, want [40 10 25 10]", got)
	}
	bridge := []composite.Interval{{Start: 0, End: 10}, {Start: 20, End: 30}, {Start: 5, End: 25}}
	// Row 2's pieces [5,10] and [20,25] are bridged by row 0's... no: row
	// 0's piece is [5,10], row 1's [20,25]: two groups → row 2 gets 10.
	if got := composite.OverlapSum(bridge[2:], bridge[:2]); fmt.Sprint(got) != "[10]" {
		t.Errorf("separate: got %v", got)
	}
	// With a bridging piece of another A row, row 0's two pieces merge.
	a2 := []composite.Interval{{Start: 5, End: 25}, {Start: 8, End: 22}}
	b2 := []composite.Interval{{Start: 0, End: 10}, {Start: 9, End: 21}, {Start: 20, End: 30}}
	// row 0 pieces: [5,10],[9,21],[20,25] → one group [5,25] = 20.
	if got := composite.OverlapSum(a2, b2); got[0] != 20 {
		t.Errorf("bridged: got %v", got)
	}
}

// bruteBins is the covered share of each bin computed with integers,
// divided by the session's share of the bin, in percent. It keeps nsys's
// quirk (the first-bin share is min(⌈s'⌉, e') − s'): a range that starts
// exactly on a bin boundary adds nothing to that first bin, and a session
// that does so does not rectify it.
func bruteBins(v []composite.Interval, bs int64, bins int, off, maxT int64) []float64 {
	out := make([]float64, bins)
	cov := func(s, e int64, k int) int64 {
		if s%bs == 0 && s/bs == int64(k) {
			return 0
		}
		lo, hi := max(s, int64(k)*bs), min(e, int64(k+1)*bs)
		return max(hi-lo, 0)
	}
	for k := range out {
		inside := int64(k) >= off/bs && int64(k) <= maxT/bs
		if !inside {
			out[k] = math.NaN()
			continue
		}
		var c int64
		for _, x := range v {
			c += cov(x.Start, x.End, k)
		}
		sess := cov(off, maxT, k)
		if sess == 0 || int64(k) > off/bs && int64(k) < maxT/bs {
			sess = bs
		}
		out[k] = float64(c) / float64(sess) * 100
	}
	return out
}

func TestHeatBinsBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for iter := 0; iter < 500; iter++ {
		bins := 1 + r.Intn(12)
		off := r.Int63n(400)
		maxT := off + 1 + r.Int63n(1000)
		bs := int64(math.Ceil(float64(maxT) / float64(bins)))
		var v []composite.Interval
		for _, s := range composite.Consolidate(randSpans(r, r.Intn(8), 1000)) {
			s.Start, s.End = max(s.Start, off), min(s.End, maxT)
			if s.End > s.Start {
				v = append(v, s)
			}
		}
		got := HeatBins(v, bs, bins, off, maxT)
		want := bruteBins(v, bs, bins, off, maxT)
		for k := range got {
			g, w := got[k], want[k]
			if math.IsNaN(g) != math.IsNaN(w) || !math.IsNaN(g) && math.Abs(g-w) > 0.05+1e-9 {
				t.Fatalf("bins=%d bs=%d session [%d,%d] ranges %v: bin %d got %v, want %v", bins, bs, off, maxT, v, k, g, w)
			}
		}
	}
}

func TestAlign(t *testing.T) {
	a := Align([]int64{500, 100, 300}, []int64{1000, 2000, 50}, []bool{true, true, false}, 30, false)
	if fmt.Sprint(a.Offset[:2], a.Max[:2]) != "[400 0] [1400 2000]" || a.BinSize != 67 {
		t.Errorf("aligned: offsets %v max %v bin size %d", a.Offset, a.Max, a.BinSize)
	}
	a = Align([]int64{500, 100}, []int64{1000, 2000}, []bool{true, true}, 7, true)
	if fmt.Sprint(a.Offset, a.Max) != "[0 0] [1000 2000]" || a.BinSize != 286 {
		t.Errorf("disabled: offsets %v max %v bin size %d", a.Offset, a.Max, a.BinSize)
	}
}
