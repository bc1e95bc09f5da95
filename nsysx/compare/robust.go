package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// robustAbove is the sample size past which the Hodges–Lehmann and median
// replicates draw robustAbove instances instead of all of them (an
// m-out-of-n bootstrap), their spread rescaled to the full sizes.
var robustAbove = 500

// positive returns the durations as floats, sorted, a duration of 0 counted
// as 1 ns so that every ratio is defined.
func positive(d []int64) []float64 {
	out := make([]float64, len(d))
	for i, v := range d {
		out[i] = math.Max(float64(v), 1)
	}
	slices.Sort(out)
	return out
}

// countLE is the number of pairs (i, j) with b[j] <= t*a[i], for sorted a
// and b: O(len(a)+len(b)).
func countLE(a, b []float64, t float64) int {
	n, j := 0, 0
	for _, x := range a {
		lim := t * x
		for j < len(b) && b[j] <= lim {
			j++
		}
		n += j
	}
	return n
}

// ratioAbove is the smallest ratio b[j]/a[i] above t, +Inf when none is.
func ratioAbove(a, b []float64, t float64) float64 {
	best, j := math.Inf(1), 0
	for _, x := range a {
		for j < len(b) && b[j] <= t*x {
			j++
		}
		if j < len(b) {
			best = math.Min(best, b[j]/x)
		}
	}
	return best
}

// ratioAtMost is the largest ratio b[j]/a[i] at most t.
func ratioAtMost(a, b []float64, t float64) float64 {
	best, j := math.Inf(-1), 0
	for _, x := range a {
		for j < len(b) && b[j] <= t*x {
			j++
		}
		if j > 0 {
			best = math.Max(best, b[j-1]/x)
		}
	}
	return best
}

// search finds where count, a non-decreasing count of pairs at or below
// its argument (total in all), first reaches k, between lo (fewer than k)
// and hi (at least k), to a precision tol, and returns the bracket's upper
// end (a replicate's: its middle). Each guess interpolates the counts at the bracket's ends (the
// pairs' distribution is smooth enough that this takes a few passes),
// with a bisection whenever a guess did not halve the bracket. A
// replicate's search (near: the estimate and how far from it replicates
// fall) starts from brackets around the estimate and stops once at most
// one pair in 10 000 lies in the bracket: it then misses the k-th pair by
// less than the replicates vary.
func search(count func(float64) int, lo, hi float64, total, k int, tol float64, near *guess) float64 {
	lo, hi = bracket(count, lo, hi, total, k, tol, near)
	if near != nil {
		return (lo + hi) / 2
	}
	return hi
}

// bracket is search's bracket.
func bracket(count func(float64) int, lo, hi float64, total, k int, tol float64, near *guess) (float64, float64) {
	clo, chi := 0, total
	ranks := 1
	if near != nil {
		ranks = max(1, total/10000)
		for w := near.width; hi-lo > 2*w; w *= 4 {
			l, h := near.at-w, near.at+w
			if l > lo {
				if c := count(l); c < k {
					lo, clo = l, c
				}
			}
			if h < hi {
				if c := count(h); c >= k {
					hi, chi = h, c
				}
			}
			if hi-lo <= 2*w {
				break
			}
		}
	}
	bisect := false
	for hi-lo > tol && chi-clo > ranks {
		f := 0.5
		if !bisect {
			f = min(max((float64(k)-0.5-float64(clo))/float64(chi-clo), 1.0/32), 31.0/32)
		}
		mid := lo + f*(hi-lo)
		width := hi - lo
		if c := count(mid); c >= k {
			hi, chi = mid, c
		} else {
			lo, clo = mid, c
		}
		bisect = hi-lo > width/2
	}
	return lo, hi
}

// kthRatio is the k-th smallest (from 1) of the len(a)*len(b) ratios
// b[j]/a[i] of sorted positive a and b, to a relative precision tol: a
// search on the ratio's logarithm that counts the pairs below each guess
// in one pass (countLE) instead of forming all the pairs. A replicate's
// (near != nil) is the search's bound.
func kthRatio(a, b []float64, k int, tol float64, near *guess) float64 {
	lo := math.Log(b[0]/a[len(a)-1]) - 1e-9
	hi := math.Log(b[len(b)-1]/a[0]) + 1e-9
	hi = search(func(t float64) int { return countLE(a, b, math.Exp(t)) }, lo, hi, len(a)*len(b), k, tol, near)
	if near != nil {
		return math.Exp(hi)
	}
	return ratioAtMost(a, b, math.Exp(hi))
}

// hlRatio is the Hodges–Lehmann estimate of the ratio after/before: the
// median of all ratios b[j]/a[i] (the mean of the two middle ones when
// their number is even), for sorted positive a and b, to a relative
// precision tol (near: see search).
func hlRatio(a, b []float64, tol float64, near *guess) float64 {
	n := len(a) * len(b)
	v := kthRatio(a, b, (n+1)/2, tol, near)
	if n%2 == 1 || near != nil { // a replicate: the lower middle one is as good
		return v
	}
	w := v
	if countLE(a, b, v) < n/2+1 {
		w = ratioAbove(a, b, v)
	}
	return (v + w) / 2
}

// walshCountLE is the number of Walsh averages (x[i]+x[j])/2, i <= j, at
// most t, for sorted x: O(len(x)).
func walshCountLE(x []float64, t float64) int {
	n, j := 0, len(x)-1
	for i := range x {
		for j >= i && x[i]+x[j] > 2*t {
			j--
		}
		if j < i {
			break
		}
		n += j - i + 1
	}
	return n
}

// walshAtMost is the largest Walsh average at most t, walshAbove the
// smallest above it (+Inf when none is).
func walshAtMost(x []float64, t float64) float64 {
	best, j := math.Inf(-1), len(x)-1
	for i := range x {
		for j >= i && x[i]+x[j] > 2*t {
			j--
		}
		if j < i {
			break
		}
		best = math.Max(best, (x[i]+x[j])/2)
	}
	return best
}

func walshAbove(x []float64, t float64) float64 {
	best := math.Inf(1)
	for i := range x { // the smallest x[j], j >= i, with x[i]+x[j] > 2t
		j := sort.Search(len(x)-i, func(k int) bool { return x[i]+x[i+k] > 2*t }) + i
		if j < len(x) {
			best = math.Min(best, (x[i]+x[j])/2)
		}
	}
	return best
}

// hlPaired is the one-sample Hodges–Lehmann estimate of sorted x (paired
// log ratios): the median of the Walsh averages, to precision tol (near:
// see search).
func hlPaired(x []float64, tol float64, near *guess) float64 {
	n := len(x) * (len(x) + 1) / 2
	count := func(t float64) int { return walshCountLE(x, t) }
	hi := search(count, x[0]-1e-9, x[len(x)-1]+1e-9, n, (n+1)/2, tol, near)
	if near != nil {
		return hi
	}
	v := walshAtMost(x, hi)
	if n%2 == 1 {
		return v
	}
	w := v
	if walshCountLE(x, v) < n/2+1 {
		w = walshAbove(x, v)
	}
	return (v + w) / 2
}

// medianSorted is the median of sorted x.
func medianSorted(x []float64) float64 {
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// robust is a name's per-instance robust changes: the Hodges–Lehmann ratio
// and the ratio of medians, minus 1, with their intervals; reps are the
// Hodges–Lehmann replicates (ratios) in the order drawn, for the summary
// rows.
type robust struct {
	hl, med interval
	reps    []float64
}

// resampleSorted draws m of sorted x with replacement, sorted (counting the
// draws per index keeps the order without sorting).
func resampleSorted(x []float64, m int, counts []int, out []float64, rng *rand.Rand) []float64 {
	out = out[:0]
	if m < len(x)/4 { // few draws from many: sort the drawn indices instead
		idx := counts[:m]
		for i := range idx {
			idx[i] = rng.IntN(len(x))
		}
		slices.Sort(idx)
		for _, i := range idx {
			out = append(out, x[i])
		}
		return out
	}
	clear(counts)
	for range m {
		counts[rng.IntN(len(x))]++
	}
	for i, c := range counts {
		for range c {
			out = append(out, x[i])
		}
	}
	return out
}

// robustChanges estimates the robust changes from sorted positive a to b
// with percentile bootstrap intervals at confidence conf over r resamples
// (the Hodges–Lehmann estimate and interval only withHL, the costlier
// ones; NaN otherwise). With pairs
// (the sorted log ratios of instances paired by their order, when both
// profiles have as many), the Hodges–Lehmann ratio is the one-sample
// estimate of the pairs (hlPaired) and its bootstrap resamples the pairs;
// otherwise it is the two-sample one (hlRatio), resampling each side.
// Past robustAbove units a side's resamples hold robustAbove draws and the
// replicates' spread (in log ratio) is scaled by the ratio of the
// estimate's standard errors at the full and the drawn sizes:
// √((1/na+1/nb)/(1/ma+1/mb)), or √(m/n) for pairs.
func robustChanges(a, b, pairs []float64, r int, conf float64, rng *rand.Rand, withHL bool) robust {
	const tol = 1e-12
	hl := math.NaN()
	switch {
	case !withHL:
	case pairs != nil:
		hl = math.Exp(hlPaired(pairs, tol, nil))
	default:
		hl = hlRatio(a, b, tol, nil)
	}
	med := medianSorted(b) / medianSorted(a)
	out := robust{hl: interval{Est: hl - 1, Lo: math.NaN(), Hi: math.NaN()}, med: interval{Est: med - 1, Lo: math.NaN(), Hi: math.NaN()}}
	if len(a) < minUnits || len(b) < minUnits {
		return out
	}
	ma, mb := min(len(a), robustAbove), min(len(b), robustAbove)
	scale := math.Sqrt((1/float64(len(a)) + 1/float64(len(b))) / (1/float64(ma) + 1/float64(mb)))
	ca, cb := make([]int, len(a)), make([]int, len(b))
	ra, rb := make([]float64, 0, ma), make([]float64, 0, mb)
	hls, meds := make([]float64, r), make([]float64, r)
	near := &guess{at: math.Log(hl), width: 0.05}
	var cp []int
	var rp []float64
	if pairs != nil {
		cp, rp = make([]int, len(pairs)), make([]float64, 0, min(len(pairs), robustAbove))
	}
	for i := range r {
		ra = resampleSorted(a, ma, ca, ra, rng)
		rb = resampleSorted(b, mb, cb, rb, rng)
		meds[i] = rescale(medianSorted(rb)/medianSorted(ra), med, scale)
		switch {
		case !withHL:
		case pairs != nil:
			m := min(len(pairs), robustAbove)
			rp = resampleSorted(pairs, m, cp, rp, rng)
			hls[i] = rescale(math.Exp(hlPaired(rp, 1e-5, near.update(hls[:i]))), hl, math.Sqrt(float64(m)/float64(len(pairs))))
		default:
			hls[i] = rescale(hlRatio(ra, rb, 1e-5, near.update(hls[:i])), hl, scale)
		}
	}
	if withHL {
		out.reps = slices.Clone(hls)
	}
	slices.Sort(hls)
	slices.Sort(meds)
	alpha := (1 - conf) / 2
	out.med.Lo, out.med.Hi = quantile(meds, alpha)-1, quantile(meds, 1-alpha)-1
	if withHL {
		out.hl.Lo, out.hl.Hi = quantile(hls, alpha)-1, quantile(hls, 1-alpha)-1
	}
	return out
}

// pairedLogs is the sorted log ratios of the instances of a and b paired
// by their order (a and b in start order, as many of each), 0 ns counted
// as 1 ns.
func pairedLogs(a, b []int64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = math.Log(math.Max(float64(b[i]), 1) / math.Max(float64(a[i]), 1))
	}
	slices.Sort(out)
	return out
}

// guess is where a replicate's Hodges–Lehmann estimate likely is, in the
// search's terms (a log ratio): the estimate, and three standard
// deviations of the replicates drawn so far.
type guess struct{ at, width float64 }

// update sets the width from the replicates so far (ratios; every 50).
func (g *guess) update(reps []float64) *guess {
	if n := len(reps); n >= 50 && n%50 == 0 {
		var s, ss float64
		for _, r := range reps {
			l := math.Log(r) - g.at
			s += l
			ss += l * l
		}
		m := s / float64(n)
		g.width = max(3*math.Sqrt(max(ss/float64(n)-m*m, 0)), 1e-3)
	}
	return g
}

// rescale moves a replicate ratio toward the estimate by the factor s in
// log ratio (s = 1: unchanged).
func rescale(rep, est, s float64) float64 {
	if s == 1 {
		return rep
	}
	return est * math.Exp(s*math.Log(rep/est))
}

// pairedChange is the change of a name's time per iteration over the
// iterations both runs have (the first min(len(a), len(b))), paired by
// index: the one-sample Hodges–Lehmann estimate of the per-iteration
// ratios after/before (iterations where both runs spend time in the
// name), with the percentile interval of a bootstrap that resamples the
// pairs. What the two runs share (warm-up in the first iteration, a slow
// phase) cancels out in each ratio, and one iteration slowed by something
// else (a pause, a tail) does not decide it. Without such iterations, the
// ratio of the sums, without an interval.
func pairedChange(a, b []float64, r int, conf float64, rng *rand.Rand) interval {
	m := min(len(a), len(b))
	a, b = a[:m], b[:m]
	var x []float64
	for i := range m {
		if a[i] > 0 && b[i] > 0 {
			x = append(x, math.Log(b[i]/a[i]))
		}
	}
	if len(x) == 0 {
		return interval{Est: rel(sum(a), sum(b)), Lo: math.NaN(), Hi: math.NaN()}
	}
	slices.Sort(x)
	est := hlPaired(x, 1e-12, nil)
	iv := interval{Est: math.Exp(est) - 1, Lo: math.NaN(), Hi: math.NaN()}
	if len(x) < minUnits {
		return iv
	}
	reps := make([]float64, r)
	counts, rx := make([]int, len(x)), make([]float64, 0, len(x))
	near := &guess{at: est, width: 0.05}
	for i := range reps {
		rx = resampleSorted(x, len(x), counts, rx, rng)
		reps[i] = math.Exp(hlPaired(rx, 1e-6, near.update(reps[:i])))
	}
	slices.Sort(reps)
	alpha := (1 - conf) / 2
	iv.Lo, iv.Hi = quantile(reps, alpha)-1, quantile(reps, 1-alpha)-1
	return iv
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// firstCalls is how many of a name's first instances (durs in start
// order) are first-call outliers: among the first tenth of its instances
// (at least the first one), those that last more than outlierFactor times
// the name's median; and their share of the name's time.
func firstCalls(durs []int64) (n int, share float64) {
	if len(durs) < minUnits {
		return 0, 0
	}
	limit := outlierFactor * medianSorted(positive(durs))
	var out, total float64
	for _, v := range durs {
		total += float64(v)
	}
	for _, v := range durs[:max(1, len(durs)/10)] {
		if float64(v) > limit {
			n++
			out += float64(v)
		}
	}
	if total > 0 {
		share = out / total
	}
	return n, share
}

// outlierFactor: a first call is an outlier past this many times the
// name's median duration.
const outlierFactor = 10
