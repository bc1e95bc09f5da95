package plots

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HistBin is one histogram bin [Lo, Hi) (the last bin includes Hi).
type HistBin struct {
	Lo, Hi float64
	Count  int
}

// histogram counts vals in bins of width w from lo; the last bin takes the
// maximum.
func histogram(vals []float64, lo, w float64, bins int) []HistBin {
	out := make([]HistBin, bins)
	for k := range out {
		out[k] = HistBin{Lo: lo + float64(k)*w, Hi: lo + float64(k+1)*w}
	}
	for _, v := range vals {
		k := int(math.Floor((v - lo) / w))
		k = max(0, min(k, bins-1))
		out[k].Count++
	}
	return out
}

// median sorts v and returns its median (NaN when v is empty).
func median(v []float64) float64 {
	slices.Sort(v)
	return quantile(v, 0.5)
}

// quantile is numpy's linear quantile of sorted values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	i := int(math.Floor(pos))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	t := pos - float64(i)
	a, b := sorted[i], sorted[i+1]
	if t < 0.5 {
		return a + (b-a)*t
	}
	return b - (b-a)*(1-t)
}

// fdBins chooses integer-width bins for integer durations as nsys's
// cuda_gpu_kern_hist notebook does (docs/recipes.md §2.12): the
// Freedman-Diaconis width over the distinct values, truncated to an
// integer (at least 1), at most 1000 bins; with bins > 0 the width is
// ceil(span/bins) instead. It returns the start, width and bin count.
func fdBins(vals []float64, bins int) (lo, w float64, n int) {
	s := slices.Clone(vals)
	slices.Sort(s)
	s = slices.Compact(s)
	lo, hi := s[0], s[len(s)-1]
	if hi == lo {
		return lo - 0.01, 0.02, 1
	}
	if bins > 0 {
		w = math.Ceil((hi - lo) / float64(bins))
		return lo, w, int(math.Ceil((hi-lo)/w + 1e-9))
	}
	iqr := quantile(s, 0.75) - quantile(s, 0.25)
	w = math.Trunc(2 * iqr / math.Cbrt(float64(len(s))))
	if w < 1 {
		w = 1
	}
	n = int(math.Min(math.Ceil((hi-lo)/w), 1000))
	if n < 1 {
		n = 1
	}
	w = math.Max(w, math.Ceil((hi-lo)/float64(n)))
	return lo, w, n
}

// histBars draws histogram bins as bars (vertical: x is the value; with
// horizontal, y is the value and bars grow to the right).
type histBars struct {
	bins       []HistBin
	scale      float64 // value units per axis unit
	horizontal bool
	fill       color.Color
}

// Plot implements plot.Plotter.
func (h *histBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, b := range h.bins {
		if b.Count == 0 {
			continue
		}
		v0, v1, n := b.Lo/h.scale, b.Hi/h.scale, float64(b.Count)
		var r vg.Rectangle
		if h.horizontal {
			r = vg.Rectangle{Min: vg.Point{X: trX(0), Y: trY(v0)}, Max: vg.Point{X: trX(n), Y: trY(v1)}}
		} else {
			r = vg.Rectangle{Min: vg.Point{X: trX(v0), Y: trY(0)}, Max: vg.Point{X: trX(v1), Y: trY(n)}}
		}
		c.SetColor(h.fill)
		c.Fill(r.Path())
		c.SetLineWidth(0.5)
		c.SetColor(color.White)
		c.Stroke(r.Path())
	}
}

// DataRange implements plot.DataRanger.
func (h *histBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	maxN := 0.0
	for _, b := range h.bins {
		lo, hi = math.Min(lo, b.Lo/h.scale), math.Max(hi, b.Hi/h.scale)
		maxN = math.Max(maxN, float64(b.Count))
	}
	if h.horizontal {
		return 0, maxN, lo, hi
	}
	return lo, hi, 0, maxN
}
