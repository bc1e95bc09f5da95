package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"sort"
	"sync"

	"github.com/nsysx/nsysx/nsysx"
)

// Options tune a comparison. The zero value is the default.
type Options struct {
	// Before and After restrict each profile (nil: all of it), as
	// --filter-time and --filter-nvtx do for the reports.
	Before, After *nsysx.Filter
	// Iterations is the regular expression of iteration range names
	// (default DefaultIterations); NoIterations compares whole-run totals
	// over instances even when iterations exist.
	Iterations   string
	NoIterations bool
	// Resamples is the number of bootstrap replicates (default 1000).
	Resamples int
	// Confidence is the interval's level (default 0.95).
	Confidence float64
	// Threshold is the smallest change, in percent, called faster or
	// slower (default 2).
	Threshold float64
	// Seed seeds the bootstrap (with each row's kind and name).
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.Iterations == "" {
		o.Iterations = DefaultIterations
	}
	if o.Resamples <= 0 {
		o.Resamples = 1000
	}
	if o.Confidence <= 0 || o.Confidence >= 1 {
		o.Confidence = 0.95
	}
	if o.Threshold <= 0 {
		o.Threshold = 2
	}
	return o
}

// Side is one name's figures in one profile.
type Side struct {
	Count   int     // instances
	Total   int64   // ns, whole run (or window)
	Avg     float64 // ns per instance
	PerIter float64 // ns per iteration, when the basis is iterations
}

// Verdicts.
const (
	Faster   = "faster"
	Slower   = "slower"
	NoChange = "no change"
	New      = "new"
	Vanished = "vanished"
)

// Row is one name's comparison. Changes are fractions (0.1 = +10 %); the
// interval bounds are NaN when there was too little data to resample.
type Row struct {
	Kind          Kind
	Name          string
	Summary       bool // an [all ...] row
	Before, After Side
	// Change is the relative change of the basis statistic (time per
	// iteration, or the total) with its interval; Delta is that statistic's
	// change in ns and Impact the Delta as a share of the before profile's
	// GPU time on the same basis (NaN for NVTX and API rows).
	Change, Low, High       float64
	Delta, Impact           float64
	AvgChange, AvgLo, AvgHi float64
	Verdict                 string
}

// Comparison is the result of Profiles.
type Comparison struct {
	Before, After string // profile labels
	// Basis is "iterations" (the totals are compared per iteration) or
	// "instances" (whole-run totals).
	Basis                 string
	ItersBefore, ItersAft int
	Options               Options
	Rows                  []Row
}

// Profiles compares before and after (see the package documentation for
// the method and the verdict rule).
func Profiles(ctx context.Context, before, after *nsysx.Profile, o *Options) (*Comparison, error) {
	if ctx == nil {
		return nil, errors.New("compare: nil context")
	}
	var opt Options
	if o != nil {
		opt = *o
	}
	opt = opt.withDefaults()
	re, err := regexp.Compile(opt.Iterations)
	if err != nil {
		return nil, fmt.Errorf("iterations: %w", err)
	}
	var d [2]*data
	for i, p := range []*nsysx.Profile{before, after} {
		f := opt.Before
		if i == 1 {
			f = opt.After
		}
		if d[i], err = collect(ctx, p, f, re); err != nil {
			return nil, err
		}
	}
	if d[0].label == d[1].label {
		d[0].label, d[1].label = "before", "after"
	}
	c := &Comparison{Before: d[0].label, After: d[1].label, Options: opt, Basis: "instances",
		ItersBefore: len(d[0].iters), ItersAft: len(d[1].iters)}
	if !opt.NoIterations && c.ItersBefore >= 2 && c.ItersAft >= 2 {
		c.Basis = "iterations"
	}
	c.Rows = c.rows(d)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// summaries are the [all ...] rows: the kinds each one adds up.
var summaries = []struct {
	name  string
	kinds []Kind
	kind  Kind
}{
	{"[all GPU work]", []Kind{Kernel, Memory}, GPU},
	{"[all kernels]", []Kind{Kernel}, Kernel},
	{"[all CUDA API calls]", []Kind{API}, API},
}

// addSummaries adds the [all ...] rows, pooling the groups in a fixed
// order so that their resamples are reproducible.
func addSummaries(d *data) {
	keys := make([]key, 0, len(d.groups))
	for k := range d.groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].kind != keys[j].kind {
			return keys[i].kind < keys[j].kind
		}
		return keys[i].name < keys[j].name
	})
	for _, s := range summaries {
		var all sample
		for _, k := range keys {
			g := d.groups[k]
			for _, kk := range s.kinds {
				if k.kind == kk && !isSummary(k.name) {
					all.durs = append(all.durs, g.durs...)
					all.iter = append(all.iter, g.iter...)
				}
			}
		}
		if len(all.durs) > 0 {
			d.groups[key{s.kind, s.name}] = &all
		}
	}
}

func isSummary(name string) bool {
	for _, s := range summaries {
		if s.name == name {
			return true
		}
	}
	return false
}

// rows compares every name, concurrently.
func (c *Comparison) rows(d [2]*data) []Row {
	var keys []key
	for i := range d {
		for k := range d[i].groups {
			if _, dup := d[0].groups[k]; i == 1 && dup {
				continue
			}
			keys = append(keys, k)
		}
	}
	rows := make([]Row, len(keys))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows[i] = c.row(keys[i], d[0].groups[keys[i]], d[1].groups[keys[i]], len(d[0].iters), len(d[1].iters))
			}
		}()
	}
	for i := range keys {
		next <- i
	}
	close(next)
	wg.Wait()
	c.impacts(rows)
	sortRows(rows)
	return rows
}

func side(g *sample, iters int, byIter bool) Side {
	var s Side
	if g == nil {
		return s
	}
	s.Count = len(g.durs)
	for _, v := range g.durs {
		s.Total += v
	}
	if s.Count > 0 {
		s.Avg = float64(s.Total) / float64(s.Count)
	}
	if byIter && iters > 0 {
		s.PerIter = mean(perIteration(g, iters))
	}
	return s
}

// perIteration is a name's total time in each iteration.
func perIteration(g *sample, iters int) []float64 {
	out := make([]float64, iters)
	for i, it := range g.iter {
		if it >= 0 {
			out[it] += float64(g.durs[i])
		}
	}
	return out
}

func floats(x []int64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// row compares one name.
func (c *Comparison) row(k key, a, b *sample, itA, itB int) Row {
	byIter := c.Basis == "iterations"
	r := Row{Kind: k.kind, Name: k.name, Summary: isSummary(k.name), Before: side(a, itA, byIter), After: side(b, itB, byIter)}
	nan := math.NaN()
	r.Low, r.High, r.AvgLo, r.AvgHi, r.Impact = nan, nan, nan, nan, nan
	switch {
	case a == nil:
		r.Verdict, r.Change, r.AvgChange = New, math.Inf(1), math.Inf(1)
		r.Delta = c.basis(r.After) - 0
		return r
	case b == nil:
		r.Verdict, r.Change, r.AvgChange = Vanished, -1, -1
		r.Delta = -c.basis(r.Before)
		return r
	}
	o := c.Options
	xa, xb := floats(a.durs), floats(b.durs)
	avg := bootstrap(units{xa, 1}, units{xb, 1}, o.Resamples, o.Confidence, rowRNG(o.Seed, k, "avg"))
	r.AvgChange, r.AvgLo, r.AvgHi = avg.Est, avg.Lo, avg.Hi
	var tot interval
	if byIter {
		tot = bootstrap(units{perIteration(a, itA), 1}, units{perIteration(b, itB), 1}, o.Resamples, o.Confidence, rowRNG(o.Seed, k, "total"))
	} else { // the total is n × mean with the counts fixed: the same replicates, rescaled
		f := float64(len(xb)) / float64(len(xa))
		tot = interval{Est: (1+avg.Est)*f - 1, Lo: (1+avg.Lo)*f - 1, Hi: (1+avg.Hi)*f - 1}
	}
	r.Change, r.Low, r.High = tot.Est, tot.Lo, tot.Hi
	r.Delta = c.basis(r.After) - c.basis(r.Before)
	r.Verdict = verdict(tot, o.Threshold)
	return r
}

// basis is a side's basis statistic: time per iteration or the total.
func (c *Comparison) basis(s Side) float64 {
	if c.Basis == "iterations" {
		return s.PerIter
	}
	return float64(s.Total)
}

// verdict applies the rule of the package documentation.
func verdict(iv interval, threshold float64) string {
	switch {
	case math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi):
		return NoChange
	case iv.Hi < 0 && iv.Est*100 <= -threshold:
		return Faster
	case iv.Lo > 0 && iv.Est*100 >= threshold:
		return Slower
	}
	return NoChange
}

// impacts sets the GPU rows' Impact: Delta over the before GPU time.
func (c *Comparison) impacts(rows []Row) {
	var gpu float64
	for _, r := range rows {
		if r.Name == "[all GPU work]" {
			gpu = c.basis(r.Before)
		}
	}
	for i := range rows {
		if rows[i].Kind.GPU() && gpu > 0 {
			rows[i].Impact = rows[i].Delta / gpu
		}
	}
}

var groupOrder = map[Kind]int{GPU: 0, Kernel: 0, Memory: 0, NVTX: 1, API: 2}

// sortRows ranks GPU rows, then NVTX, then API; summaries first in their
// group, then by the size of the change.
func sortRows(rows []Row) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if ga, gb := groupOrder[a.Kind], groupOrder[b.Kind]; ga != gb {
			return ga < gb
		}
		if a.Summary != b.Summary {
			return a.Summary
		}
		if da, db := math.Abs(a.Delta), math.Abs(b.Delta); da != db {
			return da > db
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Name < b.Name
	})
}
