package recipes

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// This file holds what the time-utilization heatmaps share
// (cuda_gpu_time_util_map, nccl_gpu_time_util_map, mpi_gpu_time_util_map and
// gpu_metric_util_map): the session alignment of their first pass
// (docs/recipes.md §1.5) and the bins B(...) of §1.10.

// Alignment is the heatmaps' common timeline: each report's session offset
// from the earliest session start, the end of each session on that
// timeline, and one bin size for all reports.
type Alignment struct {
	Bins    int
	BinSize int64
	// Offset and Max by input position (Report.Pos); OK is false for an
	// input that has no session facts (it is dropped).
	Offset, Max []int64
	OK          []bool
}

// Align computes the alignment from each input's session start (utc) and
// duration, in input order (ok false: dropped): offset = utc − min(utc) (0
// for every input when disable), max = duration + offset, and bin size =
// ⌈max(max)/bins⌉ (Python's float division and ceil).
func Align(utc, dur []int64, ok []bool, bins int, disable bool) *Alignment {
	a := &Alignment{Bins: bins, Offset: make([]int64, len(utc)), Max: make([]int64, len(utc)), OK: ok}
	first := true
	var minUTC int64
	for i := range utc {
		if ok[i] && (first || utc[i] < minUTC) {
			minUTC, first = utc[i], false
		}
	}
	var top int64
	for i := range utc {
		if !ok[i] {
			continue
		}
		if !disable {
			a.Offset[i] = utc[i] - minUTC
		}
		a.Max[i] = dur[i] + a.Offset[i]
		top = max(top, a.Max[i])
	}
	a.BinSize = int64(math.Ceil(float64(top) / float64(bins)))
	return a
}

// prepareAlignment is the heatmaps' Prepare: it reads every input's session
// facts (Session) and aligns them. Inputs that cannot be read or lack the
// facts are dropped here and fail again in the map.
func prepareAlignment(ctx context.Context, reps []*recipe.Report, o *recipe.Options) (any, error) {
	if o.Bins < 1 || o.Bins > recipe.MaxBins {
		return nil, recipe.Usagef("--bins must be between 1 and %d, not %d", recipe.MaxBins, o.Bins)
	}
	utc := make([]int64, len(reps))
	dur := make([]int64, len(reps))
	ok := make([]bool, len(reps))
	// the reports are opened as many at once as the pool maps
	var wg sync.WaitGroup
	slots := make(chan struct{}, o.PoolSize())
	for i, r := range reps {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			if ctx.Err() != nil {
				return
			}
			var err error
			utc[i], dur[i], err = r.ReadSession(ctx)
			ok[i] = err == nil
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return Align(utc, dur, ok, o.Bins, o.DisableAlignment), nil
}

// alignmentOf returns the report's offset and session end, or an error for
// a report the first pass dropped.
func alignmentOf(shared any, r *recipe.Report) (*Alignment, int64, int64, error) {
	a, _ := shared.(*Alignment)
	if a == nil || r.Pos >= len(a.OK) || !a.OK[r.Pos] {
		return nil, 0, 0, fmt.Errorf("%s: no session start or duration", r.Path)
	}
	return a, a.Offset[r.Pos], a.Max[r.Pos], nil
}

// binFrac is the part of bins covered by [s, e] in bin units: the first
// bin's share sb, the last bin's share eb and their indexes, as nsys splits a
// range (§1.10 heatmap bins).
func binFrac(s, e, bs float64) (sb, eb int, first, last float64) {
	sp, ep := s/bs, e/bs
	sb, eb = int(math.Floor(sp)), int(math.Floor(ep))
	first = math.Min(math.Ceil(sp), ep) - sp
	if sb != eb {
		last = ep - math.Max(math.Floor(ep), sp)
	}
	return
}

// HeatBins computes B(v): the share of each of bins bins of binSize ns that
// the ranges v (already on the aligned timeline) cover, as a percentage
// rounded to one decimal. The session [offset, maxT] rectifies its first
// and last bins (divided by the session's own share of them) and makes the
// bins outside it NaN (NULL). Parts of ranges beyond the last bin are
// ignored (nsys would fail on them). As in nsys, a range's first-bin share
// is min(⌈s'⌉, e') − s', so a range that starts exactly on a bin boundary
// adds nothing to that bin (and a session that does rectifies nothing).
func HeatBins(v []composite.Interval, binSize int64, bins int, offset, maxT int64) []float64 {
	out := make([]float64, bins)
	bs := float64(binSize)
	for _, x := range v {
		addBins(out, x, bs)
	}
	rectify(out, bs, offset, maxT, true)
	return out
}

// addBins adds range x's share of each bin of bs ns to out (HeatBins'
// step for one range).
func addBins(out []float64, x composite.Interval, bs float64) {
	add := func(k int, x float64) {
		if k >= 0 && k < len(out) {
			out[k] += x
		}
	}
	sb, eb, first, last := binFrac(float64(x.Start), float64(x.End), bs)
	if sb == eb {
		add(sb, first)
		return
	}
	add(eb, last)
	add(sb, first)
	for k := max(sb+1, 0); k < eb && k < len(out); k++ {
		add(k, 1)
	}
}

// ZeroBins are the bins of no range: 0 inside the session, NaN outside.
func ZeroBins(binSize int64, bins int, offset, maxT int64) []float64 {
	out := make([]float64, bins)
	rectify(out, float64(binSize), offset, maxT, false)
	return out
}

// rectify divides the session's first and last bins by the session's share
// of them, marks the bins outside it NaN and, with pct, turns shares into
// percentages rounded to one decimal.
func rectify(out []float64, bs float64, offset, maxT int64, pct bool) {
	SB, EB, first, last := binFrac(float64(offset), float64(maxT), bs)
	if first != 0 && SB >= 0 && SB < len(out) {
		out[SB] /= first
	}
	if last != 0 && SB != EB && EB >= 0 && EB < len(out) {
		out[EB] /= last
	}
	for k := range out {
		switch {
		case k > EB || k < SB:
			out[k] = math.NaN()
		case pct:
			out[k] = pyframe.Round(out[k] * 100)
		}
	}
}

// binStarts is the Duration column: k·binSize for k = 0..bins−1.
func binStarts(bins int, binSize int64) []int64 {
	out := make([]int64, bins)
	for k := range out {
		out[k] = int64(k) * binSize
	}
	return out
}

// devKey is a (pid, device) group key.
type devKey struct{ pid, dev int64 }

// byDevice splits rows into (pid, deviceId) groups, keys ascending (as
// pandas' groupby sorts them; pids and devices are unsigned), rows kept in
// order.
func byDevice(pid, dev []int64, rows []int) ([]devKey, map[devKey][]int) {
	count := map[devKey]int{}
	var keys []devKey
	for _, i := range rows {
		k := devKey{pid[i], dev[i]}
		if _, ok := count[k]; !ok {
			keys = append(keys, k)
		}
		count[k]++
	}
	m := make(map[devKey][]int, len(keys)) // each group allocated once
	for _, k := range keys {
		m[k] = make([]int, 0, count[k])
	}
	for _, i := range rows {
		k := devKey{pid[i], dev[i]}
		m[k] = append(m[k], i)
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].pid != keys[b].pid {
			return uint64(keys[a].pid) < uint64(keys[b].pid)
		}
		return uint64(keys[a].dev) < uint64(keys[b].dev)
	})
	return keys, m
}

// shifted returns the kernels' [start, end] of rows plus the session
// offset.
func shifted(k *composite.Kernel, rows []int, off int64) []composite.Interval {
	out := make([]composite.Interval, len(rows))
	for j, i := range rows {
		out[j] = composite.Interval{Start: k.Start[i] + off, End: k.End[i] + off}
	}
	return out
}

// heatFrame is one report's heatmap table: for each group, the bins of
// every value column, with Duration first and the group columns (int64)
// after the values, numbered 0.. by a RangeIndex.
type heatFrame struct {
	bins    int
	binSize int64
	names   []string // value columns
	groups  []string // group columns, e.g. PID, Device ID
	dur     []int64
	vals    [][]float64
	keys    [][]int64
}

func newHeatFrame(a *Alignment, names, groups []string) *heatFrame {
	return &heatFrame{bins: a.Bins, binSize: a.BinSize, names: names, groups: groups,
		vals: make([][]float64, len(names)), keys: make([][]int64, len(groups))}
}

// add appends one group's rows: vals[c] are the bins of value column c.
func (h *heatFrame) add(key []int64, vals ...[]float64) {
	h.dur = append(h.dur, binStarts(h.bins, h.binSize)...)
	for c, v := range vals {
		h.vals[c] = append(h.vals[c], v...)
	}
	for c, k := range key {
		for j := 0; j < h.bins; j++ {
			h.keys[c] = append(h.keys[c], k)
		}
	}
}

func (h *heatFrame) frame() *pyframe.Frame {
	f := &pyframe.Frame{Index: pyframe.RangeIndex, Cols: []*pyframe.Column{pyframe.NewInts("Duration", pyframe.Int64, h.dur, nil)}}
	for c, n := range h.names {
		f.Cols = append(f.Cols, pyframe.NewFloats(n, h.vals[c], nil))
	}
	for c, n := range h.groups {
		f.Cols = append(f.Cols, pyframe.NewInts(n, pyframe.Int64, h.keys[c], nil))
	}
	return f
}

// registerHeatmap registers a heatmap recipe: its notebook is
// heatmapNotebook, Prepare aligns the reports' sessions, and the parts'
// analysis frames make its output.
func registerHeatmap(name, display, help string, options []string, cost float64,
	mapper func(ctx context.Context, r *recipe.Report, o *recipe.Options, shared any) (*recipe.Part, error)) {
	recipe.Register(&recipe.Recipe{Name: name, DisplayName: display, Help: help, Options: options, MapCost: cost,
		Notebook: heatmapNotebook, Prepare: prepareAlignment, Map: mapper, Reduce: recipe.AnalysisReduce})
}

// heatmapOptions are the option keys of the kernel heatmaps, in nsys's
// order; cuda_gpu_time_util_map adds cumulative after disable_alignment.
var heatmapOptions = []string{"input", "start", "end", "bins", "disable_alignment", "filter_time", "filter_nvtx"}

const heatmapNotebook = "heatmap.ipynb"
