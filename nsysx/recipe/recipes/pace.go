package recipes

import (
	"math"
	"slices"
	"strconv"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// PaceSeries is one rank's pacing columns (docs/recipes.md §1.10), one
// entry per iteration (a row of the chosen name, in row order). Values are
// integer nanoseconds; EndFloat says that end, and everything computed from
// it, has pandas dtype float64 (NVTX end, which has NULLs).
type PaceSeries struct {
	Start, End                []int64
	Duration, Delta           []int64
	DurationAccum, DeltaAccum []int64
	EndFloat                  bool
}

// PaceColumns are the pace columns in the order nsys writes their files.
var PaceColumns = []string{"start", "end", "duration_accum", "delta_accum", "duration", "delta"}

// ComputePace derives duration = end−start, delta_k = start_k − end_{k−1}
// (end_{−1} = 0) and their running sums from one rank's rows.
func ComputePace(start, end []int64, endFloat bool) *PaceSeries {
	n := len(start)
	p := &PaceSeries{
		Start: slices.Clone(start), End: slices.Clone(end), EndFloat: endFloat,
		Duration: make([]int64, n), Delta: make([]int64, n),
		DurationAccum: make([]int64, n), DeltaAccum: make([]int64, n),
	}
	var prevEnd, da, ea int64
	for i := range n {
		p.Duration[i] = pyframe.Elapsed(end[i], start[i])
		p.Delta[i] = pyframe.Elapsed(start[i], prevEnd)
		prevEnd = end[i]
		da = pyframe.AddInt(da, p.Duration[i])
		ea = pyframe.AddInt(ea, p.Delta[i])
		p.DurationAccum[i], p.DeltaAccum[i] = da, ea
	}
	return p
}

// Shift adds a session offset to start and end only (§1.5).
func (p *PaceSeries) Shift(off int64) {
	for i := range p.Start {
		p.Start[i] += off
		p.End[i] += off
	}
}

// column returns a pace column by name and whether it is float64.
func (p *PaceSeries) column(name string) ([]int64, bool) {
	switch name {
	case "start":
		return p.Start, false
	case "end":
		return p.End, p.EndFloat
	case "duration":
		return p.Duration, p.EndFloat
	case "delta":
		return p.Delta, p.EndFloat
	case "duration_accum":
		return p.DurationAccum, p.EndFloat
	}
	return p.DeltaAccum, p.EndFloat
}

// PaceTables builds the per-column files pace_<c>: iterations as rows, one
// column per rank named "0", "1", ...; ranks with fewer iterations are
// padded with NULL, which makes their column float64.
func PaceTables(ranks []*PaceSeries) []recipe.Table {
	rows := 0
	for _, r := range ranks {
		rows = max(rows, len(r.Start))
	}
	var out []recipe.Table
	for _, c := range PaceColumns {
		f := &pyframe.Frame{Index: pyframe.NoIndex}
		for k, r := range ranks {
			vals, isFloat := r.column(c)
			f.Cols = append(f.Cols, paceColumn(strconv.Itoa(k), vals, isFloat, rows))
		}
		out = append(out, recipe.Table{Name: "pace_" + c, Frame: f, NoCSV: true})
	}
	return out
}

func paceColumn(name string, vals []int64, isFloat bool, rows int) *pyframe.Column {
	if !isFloat && len(vals) == rows {
		return &pyframe.Column{Name: name, Type: pyframe.Int64, IntVals: slices.Clone(vals)}
	}
	c := &pyframe.Column{Name: name, Type: pyframe.Float64, FloatVals: make([]float64, rows)}
	if len(vals) < rows {
		c.Valid = make([]bool, rows)
	}
	for i := range rows {
		if i < len(vals) {
			c.FloatVals[i] = float64(vals[i])
			if c.Valid != nil {
				c.Valid[i] = true
			}
		} else {
			c.FloatVals[i] = math.NaN()
		}
	}
	return c
}

// PaceDeltaStats is pace_delta_stats: per iteration, pandas' describe of
// the ranks' deltas (NULLs skipped) plus their sum, with numpy arithmetic
// (pairwise sums, two-pass sample std, linear quantiles), not rounded.
func PaceDeltaStats(ranks []*PaceSeries) *pyframe.Frame {
	rows := 0
	for _, r := range ranks {
		rows = max(rows, len(r.Delta))
	}
	names := []string{"Count", "Mean", "Std", "Min", "Q1", "Median", "Q3", "Max", "Sum"}
	cols := make([][]float64, len(names))
	vals := make([]float64, len(ranks))
	present := make([]bool, len(ranks))
	for i := range rows {
		for k, r := range ranks {
			present[k] = i < len(r.Delta)
			vals[k] = 0 // pandas fills a missing value with 0 before summing
			if present[k] {
				vals[k] = float64(r.Delta[i])
			}
		}
		st := npDescribe(vals, present)
		for j := range cols {
			cols[j] = append(cols[j], st[j])
		}
	}
	f := &pyframe.Frame{Index: pyframe.NoIndex}
	for j, n := range names {
		f.Cols = append(f.Cols, floatColumn(n, cols[j]))
	}
	return f
}

// floatColumn is a Float64 column whose NaNs are NULL.
func floatColumn(name string, v []float64) *pyframe.Column {
	c := &pyframe.Column{Name: name, Type: pyframe.Float64, FloatVals: v}
	for i, x := range v {
		if math.IsNaN(x) {
			if c.Valid == nil {
				c.Valid = make([]bool, len(v))
				for j := range c.Valid {
					c.Valid[j] = true
				}
			}
			c.Valid[i] = false
		}
	}
	return c
}

// npDescribe computes count, mean, std, min, q1, median, q3, max and sum
// of the present values as pandas does: vals holds every slot (0 where
// missing, as nanops fills it), so the pairwise sums see the same layout.
func npDescribe(vals []float64, present []bool) [9]float64 {
	nan := math.NaN()
	var seen []float64
	for i, x := range vals {
		if present[i] {
			seen = append(seen, x)
		}
	}
	if len(seen) == 0 {
		return [9]float64{0, nan, nan, nan, nan, nan, nan, nan, 0}
	}
	n := float64(len(seen))
	sum := pairwiseSum(vals)
	mean := sum / n
	std := nan
	if len(seen) > 1 {
		sq := make([]float64, len(vals))
		for i, x := range vals {
			if present[i] {
				d := mean - x
				sq[i] = d * d
			}
		}
		std = math.Sqrt(pairwiseSum(sq) / (n - 1))
	}
	slices.Sort(seen)
	return [9]float64{n, mean, std, seen[0], npQuantile(seen, 0.25), npQuantile(seen, 0.5), npQuantile(seen, 0.75), seen[len(seen)-1], sum}
}

// npQuantile is numpy's "linear" percentile of sorted values.
func npQuantile(s []float64, q float64) float64 {
	h := float64(len(s)-1) * q
	i := math.Floor(h)
	t := h - i
	lo := int(i)
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	a, b := s[lo], s[lo+1]
	d := b - a
	if t >= 0.5 {
		return b - d*(1-t)
	}
	return a + d*t
}

// pairwiseSum is numpy's pairwise summation of float64 (add.reduce with
// the identity 0 as the initial value).
func pairwiseSum(a []float64) float64 {
	return 0 + pairwise(a)
}

func pairwise(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := 0.0
		for _, x := range a {
			res += x
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range 8 {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwise(a[:n2]) + pairwise(a[n2:])
}
