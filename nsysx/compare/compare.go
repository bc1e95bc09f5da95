package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
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
	// MinShare is the smallest share of its group's time, in percent, at
	// which a row counts for Failing and is listed in the summary
	// (default 1).
	MinShare float64
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
	if o.MinShare <= 0 {
		o.MinShare = 1
	}
	return o
}

// Side is one name's figures in one profile.
type Side struct {
	Count   int     // instances
	Total   int64   // ns, whole run (or window)
	Avg     float64 // ns per instance
	Median  float64 // ns per instance
	PerIter float64 // ns per iteration, when the basis is iterations
	// FirstCalls is the number of first-call outliers (see the package
	// documentation) and FirstShare their share of Total.
	FirstCalls int
	FirstShare float64
}

// Methods: how a row's Change and interval were estimated.
const (
	PairedIterations = "paired-iterations"      // per-iteration totals, paired by iteration
	PairedInstances  = "hodges-lehmann-paired"  // instances paired by order: one-sample Hodges–Lehmann ratio
	HodgesLehmann    = "hodges-lehmann"         // two-sample Hodges–Lehmann ratio of instances, counts fixed
	ByName           = "hodges-lehmann-by-name" // a summary: its names' estimates, weighted by their before time
)

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
	// MedChange is the change of the median instance, with its interval.
	MedChange, MedLo, MedHi float64
	// Share is the row's share of its group's time (GPU work, CUDA API
	// calls, or for NVTX ranges the analysed span), the larger of the two
	// profiles', on the basis of Change.
	Share float64
	// Method is how Change was estimated (PairedIterations,
	// PairedInstances, HodgesLehmann, ByName), "" for new and vanished
	// names.
	Method  string
	Verdict string
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
	// SharedBefore and SharedAfter are the shares of each profile's
	// kernel time in kernel names both profiles run (NaN without
	// kernels); Warnings says when either is below one half.
	SharedBefore, SharedAfter float64
	Warnings                  []string
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
	c.comparability(d)
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
	sort.Slice(keys, func(i, j int) bool { return isSummary(keys[i].name) && !isSummary(keys[j].name) })
	rows := make([]Row, len(keys))
	reps := make([][]float64, len(keys))
	first := 0 // the summary rows come first; under the instances basis they are computed last, from the others
	for first < len(keys) && isSummary(keys[first].name) {
		first++
	}
	work := func(from, to int) {
		var wg sync.WaitGroup
		next := make(chan int)
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					rows[i], reps[i] = c.row(keys[i], d[0].groups[keys[i]], d[1].groups[keys[i]], len(d[0].iters), len(d[1].iters))
				}
			}()
		}
		for i := from; i < to; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	work(first, len(keys))
	work(0, first)
	if c.Basis != "iterations" {
		for i := range first {
			c.byName(&rows[i], rows[first:], reps[first:])
		}
	}
	c.impacts(rows)
	c.shares(rows, d)
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
		s.Median = medianSorted(floatsSorted(g.durs))
	}
	if byIter && iters > 0 {
		s.PerIter = mean(perIteration(g, iters))
	}
	s.FirstCalls, s.FirstShare = g.firstN, g.firstShare
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

// floatsSorted is x as floats, sorted.
func floatsSorted(x []int64) []float64 {
	out := floats(x)
	slices.Sort(out)
	return out
}

func floats(x []int64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// row compares one name; reps are the replicates of the ratio of its
// totals under the instances basis (nil for summaries, or with too few
// instances), for the summary rows (byName).
func (c *Comparison) row(k key, a, b *sample, itA, itB int) (Row, []float64) {
	byIter := c.Basis == "iterations"
	r := Row{Kind: k.kind, Name: k.name, Summary: isSummary(k.name), Before: side(a, itA, byIter), After: side(b, itB, byIter)}
	nan := math.NaN()
	r.Low, r.High, r.AvgLo, r.AvgHi, r.MedLo, r.MedHi, r.Impact = nan, nan, nan, nan, nan, nan, nan
	switch {
	case a == nil:
		r.Verdict, r.Change, r.AvgChange, r.MedChange = New, math.Inf(1), math.Inf(1), math.Inf(1)
		r.Delta = c.basis(r.After) - 0
		return r, nil
	case b == nil:
		r.Verdict, r.Change, r.AvgChange, r.MedChange = Vanished, -1, -1, -1
		r.Delta = -c.basis(r.Before)
		return r, nil
	}
	o := c.Options
	avg := bootstrap(units{floats(a.durs), 1}, units{floats(b.durs), 1}, o.Resamples, o.Confidence, rowRNG(o.Seed, k, "avg"))
	r.AvgChange, r.AvgLo, r.AvgHi = avg.Est, avg.Lo, avg.Hi
	var pairs []float64
	if !byIter && !r.Summary && len(a.durs) == len(b.durs) {
		pairs = pairedLogs(a.durs, b.durs)
	}
	rob := robustChanges(positive(a.durs), positive(b.durs), pairs, o.Resamples, o.Confidence, rowRNG(o.Seed, k, "robust"), !byIter && !r.Summary)
	r.MedChange, r.MedLo, r.MedHi = rob.med.Est, rob.med.Lo, rob.med.Hi
	var tot interval
	var reps []float64
	if byIter {
		r.Method = PairedIterations
		tot = pairedChange(perIteration(a, itA), perIteration(b, itB), o.Resamples, o.Confidence, rowRNG(o.Seed, k, "total"))
	} else { // the total is n × the per-instance ratio, the counts fixed
		r.Method = HodgesLehmann
		if pairs != nil {
			r.Method = PairedInstances
		}
		f := float64(len(b.durs)) / float64(len(a.durs))
		tot = interval{Est: (1+rob.hl.Est)*f - 1, Lo: (1+rob.hl.Lo)*f - 1, Hi: (1+rob.hl.Hi)*f - 1}
		reps = rob.reps
		for i := range reps {
			reps[i] *= f
		}
	}
	r.Change, r.Low, r.High = tot.Est, tot.Lo, tot.Hi
	r.Delta = c.basis(r.After) - c.basis(r.Before)
	r.Verdict = verdict(tot, o.Threshold)
	return r, reps
}

// byName sets a summary row's change under the instances basis from the
// rows of its names: the before total of each name times its estimated
// ratio (after: its Hodges–Lehmann ratio with the counts fixed), plus the
// new names' totals, over the before total; the interval combines the
// names' replicates, replicate by replicate (a bootstrap stratified by
// name: the mix of names does not vary between replicates, and a name's
// first-call outliers weigh as little as in its own row).
func (c *Comparison) byName(sum *Row, rows []Row, reps [][]float64) {
	var kinds []Kind
	for _, s := range summaries {
		if s.name == sum.Name {
			kinds = s.kinds
		}
	}
	var before, est float64
	agg := make([]float64, c.Options.Resamples)
	for i, r := range rows {
		if !slices.Contains(kinds, r.Kind) {
			continue
		}
		tb, ta := float64(r.Before.Total), float64(r.After.Total)
		before += tb
		switch {
		case r.Verdict == New || r.Verdict == Vanished:
			est += ta
			for j := range agg {
				agg[j] += ta
			}
		case reps[i] == nil: // too few instances to resample: its totals
			est += ta
			for j := range agg {
				agg[j] += ta
			}
		default:
			est += tb * (1 + r.Change)
			for j := range agg {
				agg[j] += tb * reps[i][j]
			}
		}
	}
	if before == 0 {
		return
	}
	sum.Method = ByName
	sum.Change = est/before - 1
	slices.Sort(agg)
	alpha := (1 - c.Options.Confidence) / 2
	sum.Low, sum.High = quantile(agg, alpha)/before-1, quantile(agg, 1-alpha)/before-1
	sum.Verdict = verdict(interval{sum.Change, sum.Low, sum.High}, c.Options.Threshold)
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

// groupOf is the summary row whose time a row's share is of; NVTX ranges
// have none (their share is of the analysed span).
var groupOf = map[Kind]string{GPU: "[all GPU work]", Kernel: "[all GPU work]", Memory: "[all GPU work]", API: "[all CUDA API calls]"}

// shares sets each row's Share: its time over its group's, on the basis
// of the comparison, the larger of the two profiles'.
func (c *Comparison) shares(rows []Row, d [2]*data) {
	tot := [2]map[string]float64{{}, {}}
	for _, r := range rows {
		if r.Summary {
			tot[0][r.Name], tot[1][r.Name] = c.basis(r.Before), c.basis(r.After)
		}
	}
	frac := func(x, of float64) float64 {
		if of <= 0 {
			return 0
		}
		return x / of
	}
	for i := range rows {
		r := &rows[i]
		den := [2]float64{c.span(d[0]), c.span(d[1])}
		if g, ok := groupOf[r.Kind]; ok {
			den = [2]float64{tot[0][g], tot[1][g]}
		}
		r.Share = max(frac(c.basis(r.Before), den[0]), frac(c.basis(r.After), den[1]))
	}
}

// span is the time a profile's NVTX rows are a share of: the mean
// iteration under the iterations basis, else from the first instance's
// start to the last one's end.
func (c *Comparison) span(d *data) float64 {
	if c.Basis == "iterations" && len(d.iters) > 0 {
		var t float64
		for _, w := range d.iters {
			t += float64(w[1] - w[0])
		}
		return t / float64(len(d.iters))
	}
	if d.last <= d.first {
		return 0
	}
	return float64(d.last) - float64(d.first)
}

// comparability sets SharedBefore and SharedAfter, and warns when less
// than half of either profile's kernel time is in kernel names both run.
func (c *Comparison) comparability(d [2]*data) {
	var shared, all [2]float64
	for i := range d {
		for k, g := range d[i].groups {
			if k.kind != Kernel || isSummary(k.name) {
				continue
			}
			var t float64
			for _, v := range g.durs {
				t += float64(v)
			}
			all[i] += t
			if _, ok := d[1-i].groups[k]; ok {
				shared[i] += t
			}
		}
	}
	c.SharedBefore, c.SharedAfter = math.NaN(), math.NaN()
	if all[0] == 0 || all[1] == 0 {
		return
	}
	c.SharedBefore, c.SharedAfter = shared[0]/all[0], shared[1]/all[1]
	var low []string
	for i, s := range []float64{c.SharedBefore, c.SharedAfter} {
		if s < 0.5 {
			low = append(low, [2]string{c.Before, c.After}[i])
		}
	}
	if len(low) > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("warning: less than half of %s's kernel time is in kernel names both profiles run (%s %.1f%%, %s %.1f%%): "+
			"they may run different code, and the kernel rows and totals compare different work",
			strings.Join(low, "'s and "), c.Before, c.SharedBefore*100, c.After, c.SharedAfter*100))
	}
}
