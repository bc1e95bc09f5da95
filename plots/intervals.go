package plots

import (
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/recipes"
)

// span is a time interval [s, e] in ns.
type span struct{ s, e int64 }

// consolidate merges overlapping and touching spans: nsys recipes'
// interval grouping (composite.Consolidate; a new group starts where start >
// the running maximum end). The result is sorted and disjoint.
func consolidate(v []span) []span {
	return fromIntervals(composite.Consolidate(toIntervals(v)))
}

// toIntervals and fromIntervals convert between span and composite.Interval.
func toIntervals(v []span) []composite.Interval {
	out := make([]composite.Interval, len(v))
	for i, x := range v {
		out[i] = composite.Interval{Start: x.s, End: x.e}
	}
	return out
}

func fromIntervals(v []composite.Interval) []span {
	if len(v) == 0 {
		return nil
	}
	out := make([]span, len(v))
	for i, x := range v {
		out[i] = span{x.Start, x.End}
	}
	return out
}

// intersect returns the overlaps of two sorted disjoint span lists (parts
// of positive length): composite.OverlapPieces, which for such lists gives
// them in time order.
func intersect(a, b []span) []span {
	p := composite.OverlapPieces(toIntervals(a), toIntervals(b))
	out := make([]span, len(p))
	for i, x := range p {
		out[i] = span{x.Start, x.End}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// total sums the lengths of spans.
func total(v []span) int64 {
	var t int64
	for _, x := range v {
		t += x.e - x.s
	}
	return t
}

// mergeNear merges sorted disjoint spans separated by less than gap ns
// and, with widen, widens spans shorter than gap to gap, so that a lane
// drawn at a pixel width of gap keeps at most one span per pixel.
func mergeNear(v []span, gap int64, widen bool) []span {
	if len(v) == 0 || gap <= 0 {
		return v
	}
	out := []span{v[0]}
	for _, x := range v[1:] {
		last := &out[len(out)-1]
		if x.s-last.e < gap {
			last.e = max(last.e, x.e)
			continue
		}
		out = append(out, x)
	}
	for i := range out {
		if widen && out[i].e-out[i].s < gap {
			out[i].e = out[i].s + gap
		}
	}
	return out
}

// heatBins computes nsys's utilisation heatmap bins (recipes.HeatBins, the
// cuda_gpu_time_util_map recipe's) for spans already shifted by the session
// offset: the share of each bin that the spans cover, as a percentage
// rounded to one decimal, corrected at the session's first and last bins
// for their partial coverage, and NaN for bins outside the session
// [offset, maxT].
func heatBins(v []span, binSize int64, bins int, offset, maxT int64) []float64 {
	return recipes.HeatBins(toIntervals(v), binSize, bins, offset, maxT)
}
