package analyze

import (
	"cmp"
	"math"
	"slices"
	"strconv"
)

func init() {
	register(rule("gpu_gaps", "GPU Gaps", "gpu-starv",
		"Stretches where a GPU runs nothing for longer than gap= milliseconds (500 by default), per process and device.",
		runGPUGaps,
		Option{Name: "gap", Default: "500", Help: "minimum gap, in milliseconds (strictly exceeded)"}))
}

// gpuGap is one idle stretch: from the j-th smallest end to the (j+1)-th
// smallest start of a (pid, device).
type gpuGap struct {
	dur, start int64
	group      int32
	owner      int32 // the op whose end starts the gap
}

// runGPUGaps implements docs/stats.md §5.7. Per (pid, device), the op starts and the op
// ends are each sorted; the j-th end and the (j+1)-th start bound a gap when
// end < start and the length exceeds gap ms. As in nsys, the LIMIT applies
// twice: to the gaps in (pid, device, time) order before they are ranked, and
// to the ranked rows.
func runGPUGaps(c *Ctx) (*Result, error) {
	var gap int64
	srcs, a, skip, err := gpuRuleSetup(c, func() (err error) {
		gap, err = pyIntOpt(c, "gap", 500)
		return err
	})
	if skip != nil || err != nil {
		return skip, err
	}
	if err := checkRuleRange("gap", gap); err != nil {
		return nil, err
	}
	g := strconv.FormatInt(gap, 10)
	res := newRuleResult(c, a,
		"The following are ranges where a GPU is idle for more than "+g+"ms. Addressing these gaps might improve application performance."+suggestGaps,
		"There were no problems detected with GPU utilization. GPU was not found to be idle for more than "+g+"ms.",
		"Row#", "Duration:dur_ns", "Start:ts_ns", "PID", "Device ID", "Context ID", "_Global ID", "_API")
	longer := gapTest(gap)
	type row struct {
		gap gpuGap
		ops *gpuOps
	}
	var rows []row
	for _, s := range srcs {
		o, err := loadGPUOps(c, s)
		if err != nil {
			return nil, err
		}
		for _, gp := range o.gaps(longer, a) {
			rows = append(rows, row{gp, o})
		}
	}
	slices.SortStableFunc(rows, func(x, y row) int {
		if r := cmp.Compare(y.gap.dur, x.gap.dur); r != 0 {
			return r
		}
		return cmp.Compare(x.gap.start, y.gap.start)
	})
	for i, r := range rows[:a.limit(len(rows))] {
		gr := &r.ops.groups[r.gap.group]
		pid, dev := gr.keyValues()
		gid, ctx := r.ops.idValues(r.gap.owner)
		res.Add(IntV(int64(i+1)), IntV(r.gap.dur), IntV(r.gap.start), pid, dev, ctx, gid, TextV(r.ops.src.api))
	}
	return res, nil
}

// gapTest returns duration > gap*1000000, the product taken exactly (nsys
// writes it into the SQL as a literal; beyond int64 it is a real).
func gapTest(gap int64) func(d int64) bool {
	if gap > math.MaxInt64/1000000 || gap < math.MinInt64/1000000 {
		th := float64(gap) * 1e6
		return func(d int64) bool { return float64(d) > th }
	}
	th := gap * 1000000
	return func(d int64) bool { return d > th }
}

// gaps lists the qualifying gaps of every group, in (pid, device, time)
// order, at most a.rows of them (the inner LIMIT).
func (o *gpuOps) gaps(longer func(int64) bool, a ruleArgs) []gpuGap {
	var out []gpuGap
	limit := a.rows
	maxN := int32(0)
	for gi := range o.groups {
		maxN = max(maxN, o.groups[gi].n)
	}
	// Backing arrays and merge scratch for one group's starts and ends.
	sArr, eArr := make([]int64, maxN), make([]int64, maxN)
	sBuf, eBuf := make([]int64, maxN), make([]int64, maxN)
	for gi := range o.groups {
		gr := &o.groups[gi]
		if gr.pidNull || gr.devNull || gr.n < 2 {
			continue // NULL keys never join
		}
		if limit >= 0 && int64(len(out)) >= limit {
			break
		}
		ops := o.ops(gi)
		for i, k := range ops {
			sArr[i], eArr[i] = o.start[k], o.end[k]
		}
		starts := sortRuns(sArr[:len(ops)], sBuf)
		ends := sortRuns(eArr[:len(ops)], eBuf)
		first := len(out)
		for j := 0; j+1 < len(ops); j++ {
			e, s := ends[j], starts[j+1]
			if e < s && longer(s-e) {
				if limit >= 0 && int64(len(out)) >= limit {
					break
				}
				// owner: rank of this end among equal ends, resolved below
				out = append(out, gpuGap{dur: s - e, start: e, group: int32(gi), owner: int32(j)})
			}
		}
		o.resolveOwners(out[first:], ends, ops)
	}
	return out
}

// resolveOwners replaces each gap's end rank j by the op that holds the j-th
// smallest end; ops with equal ends rank in union order (nsys's window sort
// is stable).
func (o *gpuOps) resolveOwners(gs []gpuGap, ends []int64, ops []int32) {
	if len(gs) == 0 {
		return
	}
	// For each gap: its end value and its position among the ops with that end.
	type want struct {
		end int64
		nth int
		gap int
	}
	ws := make([]want, len(gs))
	for i, g := range gs {
		j := int(g.owner)
		lo, _ := slices.BinarySearch(ends, ends[j])
		ws[i] = want{ends[j], j - lo, i}
	}
	slices.SortFunc(ws, func(x, y want) int {
		if r := cmp.Compare(x.end, y.end); r != 0 {
			return r
		}
		return cmp.Compare(x.nth, y.nth)
	})
	need := map[int64]bool{}
	for _, w := range ws {
		need[w.end] = true
	}
	seen := map[int64]int{}
	found := map[[2]int64]int32{}
	for _, k := range ops {
		e := o.end[k]
		if !need[e] {
			continue
		}
		found[[2]int64{e, int64(seen[e])}] = k
		seen[e]++
	}
	for _, w := range ws {
		gs[w.gap].owner = found[[2]int64{w.end, int64(w.nth)}]
	}
}

// sortRuns sorts xs ascending, using buf (as long as xs) as scratch, and
// returns the sorted slice (xs or buf). The op tables are nearly in time
// order, so the input is usually a few ascending runs, which are merged
// pairwise; other inputs are sorted in place.
func sortRuns(xs, buf []int64) []int64 {
	bounds := []int{0}
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] {
			if len(bounds) == 32 {
				slices.Sort(xs)
				return xs
			}
			bounds = append(bounds, i)
		}
	}
	bounds = append(bounds, len(xs))
	src, dst := xs, buf[:len(xs)]
	for len(bounds) > 2 {
		m := len(bounds) - 1 // runs
		next := []int{0}
		for k := 0; k < m; k += 2 {
			lo, mid, hi := bounds[k], bounds[min(k+1, m)], bounds[min(k+2, m)]
			mergeInto(dst[lo:hi], src[lo:mid], src[mid:hi])
			next = append(next, hi)
		}
		bounds = next
		src, dst = dst, src
	}
	return src
}

// mergeInto merges the ascending a and b into dst (len(a)+len(b) long).
func mergeInto(dst, a, b []int64) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if b[j] < a[i] {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}
