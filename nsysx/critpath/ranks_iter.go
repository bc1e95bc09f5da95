package critpath

import (
	"cmp"
	"context"
	"math"
	"regexp"
	"slices"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// wholeCapture names the one iteration of reports without NVTX
// iterations.
const wholeCapture = "whole capture"

// jobIterations are the job's iterations: the NVTX windows of the first
// rank that has some, and for each rank the index of its window of each
// iteration (-1 for none). Windows pair by name when every rank names its
// windows uniquely, else by order. Without windows anywhere, the whole
// capture is the one iteration (every rank's window index -1).
func jobIterations(ranks []*rankData) (names []string, idx [][]int) {
	var ref []window
	for _, r := range ranks {
		if len(r.iters) > 0 {
			ref = r.iters
			break
		}
	}
	idx = make([][]int, len(ranks))
	if ref == nil {
		for i := range idx {
			idx[i] = []int{-1}
		}
		return []string{wholeCapture}, idx
	}
	byName := true
	for _, r := range ranks {
		seen := map[string]bool{}
		for _, w := range r.iters {
			byName = byName && !seen[w.name]
			seen[w.name] = true
		}
	}
	for _, w := range ref {
		names = append(names, w.name)
	}
	for i, r := range ranks {
		idx[i] = make([]int, len(ref))
		pos := map[string]int{}
		for k, w := range r.iters {
			pos[w.name] = k
		}
		for j := range ref {
			idx[i][j] = -1
			if k, ok := pos[ref[j].name]; byName && ok {
				idx[i][j] = k
			} else if !byName && j < len(r.iters) {
				idx[i][j] = j
			}
		}
	}
	return names, idx
}

// perIteration sums each rank's waiting per iteration, measures the step,
// names the straggler and predicts the step without it; it also returns
// how many collectives fall in no iteration.
func perIteration(ranks []*rankData, cols []collective, o RanksOptions) ([]RankIteration, int) {
	names, idx := jobIterations(ranks)
	n := len(ranks)
	its := make([]RankIteration, len(names))
	for j := range its {
		its[j] = RankIteration{Name: names[j], Straggler: -1, Lost: make([]int64, n), Idle: make([]int64, n)}
	}
	// job iteration of each rank's window
	job := make([]map[int]int, n)
	for i := range ranks {
		job[i] = map[int]int{}
		for j, w := range idx[i] {
			if w >= 0 {
				job[i][w] = j
			}
		}
	}
	outside := 0
	for _, c := range cols {
		j := 0
		if names[0] != wholeCapture {
			j = collectiveIteration(ranks, job, c)
		}
		if j < 0 {
			outside++
			continue
		}
		last := c.k[0].start
		for _, k := range c.k {
			last = max(last, k.start)
		}
		it := &its[j]
		it.Collectives++
		for r, k := range c.k {
			it.Lost[r] += last - k.start
			it.Idle[r] += last - k.start - covered(ranks[r].busy[k.device], k.start, last)
		}
	}
	steps := make([][]int64, len(names))
	for i, r := range ranks {
		for j, s := range r.steps(idx[i], names[0] == wholeCapture) {
			if s >= 0 {
				steps[j] = append(steps[j], s)
			}
		}
	}
	for j := range its {
		its[j].Observed = median(steps[j])
		its[j].judge(o)
	}
	return its, outside
}

// collectiveIteration is the job iteration of the first rank whose window
// holds the collective's launch there (its start where the launch is
// unknown), or -1.
func collectiveIteration(ranks []*rankData, job []map[int]int, c collective) int {
	for r, k := range c.k {
		t := k.launch
		if t < 0 {
			t = k.start
		}
		if w := iterationAt(ranks[r].iters, t); w >= 0 {
			if j, ok := job[r][w]; ok {
				return j
			}
		}
	}
	return -1
}

// steps is the rank's step time per job iteration (its windows idx, -1
// for none), -1 where unknown: from the start of the first GPU operation
// launched in the window to that of the first launched in the rank's next
// window, or to the last one's end when there is no next. With whole, the
// one step is the span of all its GPU operations.
func (r *rankData) steps(idx []int, whole bool) []int64 {
	n := len(r.iters)
	if whole {
		n = 1
	}
	first, last := make([]int64, n), make([]int64, n)
	for i := range first {
		first[i], last[i] = math.MaxInt64, math.MinInt64
	}
	for _, op := range r.ops {
		w := 0
		if !whole {
			if w = iterationAt(r.iters, op.launch); w < 0 {
				continue
			}
		}
		first[w], last[w] = min(first[w], op.start), max(last[w], op.end)
	}
	out := make([]int64, len(idx))
	for j, w := range idx {
		if whole {
			w = 0
		}
		out[j] = -1
		if w < 0 || first[w] == math.MaxInt64 {
			continue
		}
		out[j] = last[w] - first[w]
		if w+1 < n && first[w+1] != math.MaxInt64 {
			out[j] = first[w+1] - first[w]
		}
	}
	return out
}

// judge names the straggler, the rank that waited least, when every other
// rank waited more by the threshold, and predicts the step had it kept
// the median rank's pace: it would then arrive no later than the median
// rank, so the rank that waited least among the others would be the last
// to arrive, and the step would shrink by that rank's idle waiting (less
// the straggler's own).
func (it *RankIteration) judge(o RanksOptions) {
	it.Predicted = it.Observed
	if it.Collectives == 0 {
		return
	}
	s := 0
	for r, l := range it.Lost {
		if l < it.Lost[s] {
			s = r
		}
	}
	gap, idle := int64(math.MaxInt64), int64(math.MaxInt64)
	for r := range it.Lost {
		if r != s {
			gap = min(gap, it.Lost[r]-it.Lost[s])
			idle = min(idle, it.Idle[r])
		}
	}
	if float64(gap) < max(float64(o.MinGap), o.Threshold*float64(it.Observed)) {
		return
	}
	it.Straggler = s
	it.Predicted = it.Observed - max(0, idle-it.Idle[s])
}

// iterations reads the NVTX iteration windows of p: the ranges whose name
// isIteration accepts, grouped by name with the digits left out
// ("iteration 7" is "iteration N"), the most numerous group if it has two
// ranges or more; ranges of the group that overlap are merged into the
// first.
func iterations(ctx context.Context, p *model.Profile, isIteration func(string) bool) ([]window, error) {
	rs, err := events.NVTXRanges(ctx, p, events.RangeOptions{Full: true, Keep: isIteration, ByStart: true})
	if err != nil {
		return nil, err
	}
	groups := map[string][]window{}
	for _, r := range rs.List {
		name := rs.Names[r.Name]
		k := digitRun.ReplaceAllString(name, "N")
		groups[k] = append(groups[k], window{name, r.Start, r.End})
	}
	var best []window
	var bestKey string
	for k, g := range groups {
		if len(g) > len(best) || len(g) == len(best) && k < bestKey {
			best, bestKey = g, k
		}
	}
	if len(best) < 2 {
		return nil, nil
	}
	out := best[:1]
	for _, w := range best[1:] {
		if last := &out[len(out)-1]; w.start < last.end {
			last.end = max(last.end, w.end)
			continue
		}
		out = append(out, w)
	}
	return out, nil
}

var digitRun = regexp.MustCompile(`\d+`)

// iterationAt is the index of the window of ws (sorted, disjoint) holding
// t, or -1.
func iterationAt(ws []window, t int64) int {
	i, _ := slices.BinarySearchFunc(ws, t, func(w window, t int64) int { return cmp.Compare(w.end, t+1) })
	if i < len(ws) && ws[i].start <= t {
		return i
	}
	return -1
}
