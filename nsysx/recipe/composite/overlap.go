package composite

import (
	"sort"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// This file holds the interval algorithms the heatmap and overlap recipes
// share (docs/recipes.md §1.10): interval grouping, consolidation, the
// overlap pieces of two range lists and the per-row overlap sum.

// Interval is a time range [Start, End] in ns.
type Interval struct{ Start, End int64 }

// Piece is one overlap piece: a Interval tagged with the position of the A row
// it belongs to.
type Piece struct {
	Interval
	Row int
}

// sortedOrder returns the positions of v sorted by start (stable).
func sortedOrder(v []Interval) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]].Start < v[idx[b]].Start })
	return idx
}

// Groups numbers the interval groups of v (§1.10 G): sorted by start with a
// running maximum of end, a new group starts where start > the previous
// running maximum (touching ranges join). It returns each range's group,
// numbered 0.. in start order.
func Groups(v []Interval) []int {
	g := make([]int, len(v))
	var runMax int64
	n := -1
	for k, i := range sortedOrder(v) {
		if k == 0 || v[i].Start > runMax {
			n++
			runMax = v[i].End
		}
		runMax = max(runMax, v[i].End)
		g[i] = n
	}
	return g
}

// Consolidate merges v into one [min start, max end] per interval group,
// in start order (§1.10 consolidate).
func Consolidate(v []Interval) []Interval {
	out := make([]Interval, 0, len(v))
	for _, i := range sortedOrder(v) {
		x := v[i]
		if len(out) > 0 && x.Start <= out[len(out)-1].End {
			last := &out[len(out)-1]
			last.End = max(last.End, x.End)
			continue
		}
		out = append(out, x)
	}
	return out
}

// OverlapPieces returns, for every pair a∈A, b∈B with a.start < b.end and
// a.end > b.start, the piece [max starts, min ends] when it is longer than
// zero, tagged with a's position (§1.10 overlap pieces). With b nil, B is A
// and a row is never paired with itself. Pieces come in A's row order and,
// for one A row, in B's start order.
func OverlapPieces(a, b []Interval) []Piece {
	self := b == nil
	if self {
		b = a
	}
	ord := sortedOrder(b)
	// runMax[k]: the largest end among the first k+1 ranges of B in start
	// order, so that the B ranges that can end after a.start begin at the
	// first k with runMax[k] > a.start.
	runMax := make([]int64, len(ord))
	for k, j := range ord {
		runMax[k] = b[j].End
		if k > 0 {
			runMax[k] = max(runMax[k], runMax[k-1])
		}
	}
	var out []Piece
	for i, x := range a {
		k0 := sort.Search(len(ord), func(k int) bool { return runMax[k] > x.Start })
		for k := k0; k < len(ord) && b[ord[k]].Start < x.End; k++ {
			j := ord[k]
			if self && j == i || b[j].End <= x.Start {
				continue
			}
			s, e := max(x.Start, b[j].Start), min(x.End, b[j].End)
			if e > s {
				out = append(out, Piece{Interval{s, e}, i})
			}
		}
	}
	return out
}

// OverlapSum returns, per A row, the time it overlaps B (B nil: the other
// rows of A), as nsys computes it (§1.10 overlap sum): the pieces of all
// rows are grouped together, each (A row, group) counts [min start, max
// end], and the lengths are summed per row (0 where none).
func OverlapSum(a, b []Interval) []float64 {
	pieces := OverlapPieces(a, b)
	groups := Groups(PieceSpans(pieces))
	type key struct{ row, group int }
	merged := map[key]Interval{}
	var keys []key
	for i, p := range pieces {
		k := key{p.Row, groups[i]}
		m, ok := merged[k]
		if !ok {
			keys = append(keys, k)
			merged[k] = p.Interval
			continue
		}
		merged[k] = Interval{min(m.Start, p.Start), max(m.End, p.End)}
	}
	sums := make([]int64, len(a))
	for _, k := range keys {
		sums[k.row] = pyframe.AddInt(sums[k.row], pyframe.Elapsed(merged[k].End, merged[k].Start))
	}
	out := make([]float64, len(a))
	for i, s := range sums {
		out[i] = pyframe.Round(float64(s))
	}
	return out
}

// PieceSpans drops the row tags.
func PieceSpans(p []Piece) []Interval {
	out := make([]Interval, len(p))
	for i := range p {
		out[i] = p[i].Interval
	}
	return out
}
