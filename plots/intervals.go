package plots

import (
	"math"
	"slices"
)

// span is a time interval [s, e] in ns.
type span struct{ s, e int64 }

// sortSpans sorts by start, then end.
func sortSpans(v []span) {
	slices.SortFunc(v, func(a, b span) int {
		if a.s != b.s {
			if a.s < b.s {
				return -1
			}
			return 1
		}
		if a.e < b.e {
			return -1
		}
		if a.e > b.e {
			return 1
		}
		return 0
	})
}

// consolidate merges overlapping and touching spans (nsys recipes'
// interval grouping: a new group starts where start > the running maximum
// end). v is sorted in place; the result is sorted and disjoint.
func consolidate(v []span) []span {
	if len(v) == 0 {
		return nil
	}
	sortSpans(v)
	out := []span{v[0]}
	for _, x := range v[1:] {
		last := &out[len(out)-1]
		if x.s > last.e {
			out = append(out, x)
			continue
		}
		last.e = max(last.e, x.e)
	}
	return out
}

// intersect returns the overlaps of two sorted disjoint span lists (parts
// of positive length).
func intersect(a, b []span) []span {
	var out []span
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		s, e := max(a[i].s, b[j].s), min(a[i].e, b[j].e)
		if e > s {
			out = append(out, span{s, e})
		}
		if a[i].e < b[j].e {
			i++
		} else {
			j++
		}
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

// clip keeps the parts of spans inside [lo, hi].
func clip(v []span, lo, hi int64) []span {
	var out []span
	for _, x := range v {
		s, e := max(x.s, lo), min(x.e, hi)
		if e > s || e == s && x.s == x.e && s >= lo && s <= hi {
			out = append(out, span{s, e})
		}
	}
	return out
}

// heatBins computes nsys's utilisation heatmap bins (recipes spec §1.10,
// "Heatmap bins") for spans already shifted by the session offset: the
// fraction of each bin that the spans cover, as a percentage rounded to one
// decimal, corrected at the session's first and last bins for their
// partial coverage, and NaN for bins outside the session [offset, maxT].
func heatBins(v []span, binSize int64, bins int, offset, maxT int64) []float64 {
	out := make([]float64, bins)
	bs := float64(binSize)
	add := func(k int, x float64) {
		if k >= 0 && k < bins {
			out[k] += x
		}
	}
	for _, x := range v {
		sp, ep := float64(x.s)/bs, float64(x.e)/bs
		sb, eb := int(math.Floor(sp)), int(math.Floor(ep))
		if sb == eb {
			add(sb, math.Min(math.Ceil(sp), ep)-sp)
			continue
		}
		add(eb, ep-math.Max(math.Floor(ep), sp))
		add(sb, math.Min(math.Ceil(sp), ep)-sp)
		for k := sb + 1; k < eb; k++ {
			add(k, 1)
		}
	}
	// The session's own coverage of its first and last bins.
	sP, eP := float64(offset)/bs, float64(maxT)/bs
	SB, EB := int(math.Floor(sP)), int(math.Floor(eP))
	var first, last float64
	if SB == EB {
		first = math.Min(math.Ceil(sP), eP) - sP
	} else {
		last = eP - math.Max(math.Floor(eP), sP)
		first = math.Min(math.Ceil(sP), eP) - sP
	}
	if first != 0 && SB >= 0 && SB < bins {
		out[SB] /= first
	}
	if last != 0 && SB != EB && EB >= 0 && EB < bins {
		out[EB] /= last
	}
	for k := range out {
		if k > EB || k < SB {
			out[k] = math.NaN()
			continue
		}
		out[k] = math.RoundToEven(out[k]*100*10) / 10
	}
	return out
}
