package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sampleNs draws n durations in ns: lognormal around med with spread s,
// rounded (so that ties occur), a few of them 0.
func sampleNs(rng *rand.Rand, n int, med, s float64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(math.Round(med * math.Exp(s*rng.NormFloat64())))
	}
	return out
}

// hlRatio and kthRatio agree with every pair formed and sorted, for odd
// and even numbers of pairs, ties and zero durations.
func TestHodgesLehmannAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		na, nb int
		s      float64
	}{{1, 1, 0.1}, {2, 3, 0.5}, {7, 9, 0.01}, {40, 41, 1}, {150, 90, 2}, {300, 300, 0.001}} {
		a, b := sampleNs(rng, c.na, 1000, c.s), sampleNs(rng, c.nb, 1300, c.s)
		a[0] = 0
		want := pairwiseMedianRatio(a, b)
		if got := hlRatio(positive(a), positive(b), 1e-12, nil); math.Abs(got/want-1) > 1e-9 {
			t.Errorf("%d x %d: Hodges-Lehmann ratio %v, all pairs %v", c.na, c.nb, got, want)
		}
		var all []float64
		for _, x := range positive(a) {
			for _, y := range positive(b) {
				all = append(all, y/x)
			}
		}
		slices.Sort(all)
		for _, k := range []int{1, len(all) / 3, len(all)} {
			if k < 1 {
				continue
			}
			if got := kthRatio(positive(a), positive(b), k, 1e-12, nil); math.Abs(got/all[k-1]-1) > 1e-9 {
				t.Errorf("%d x %d: ratio %d of %d is %v, sorted pairs give %v", c.na, c.nb, k, len(all), got, all[k-1])
			}
		}
		if c.na == c.nb {
			want := walshMedianRatio(a, b)
			if got := math.Exp(hlPaired(pairedLogs(a, b), 1e-12, nil)); math.Abs(got/want-1) > 1e-9 {
				t.Errorf("%d pairs: one-sample Hodges-Lehmann %v, all Walsh averages %v", c.na, got, want)
			}
		}
	}
}

// The robust intervals cover a known ratio about as often as they claim:
// 200 samples of 40 lognormal durations, after = 1.1 x before in
// distribution, independent (two-sample) and paired (after = 1.1 x before
// x noise).
func TestRobustCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var hl, paired, med int
	const trials = 200
	for range trials {
		a, b := sampleNs(rng, 40, 1e5, 0.3), sampleNs(rng, 40, 1.1e5, 0.3)
		r := robustChanges(positive(a), positive(b), nil, 400, 0.95, rng, true)
		if r.hl.Lo < 0.1 && 0.1 < r.hl.Hi {
			hl++
		}
		if r.med.Lo < 0.1 && 0.1 < r.med.Hi {
			med++
		}
		c := make([]int64, len(a))
		for i := range a {
			c[i] = int64(float64(a[i]) * 1.1 * math.Exp(0.05*rng.NormFloat64()))
		}
		p := robustChanges(positive(a), positive(c), pairedLogs(a, c), 400, 0.95, rng, true)
		if p.hl.Lo < 0.1 && 0.1 < p.hl.Hi {
			paired++
		}
	}
	for name, n := range map[string]int{"two-sample": hl, "paired": paired, "median": med} {
		if f := float64(n) / trials; f < 0.88 || f > 0.995 {
			t.Errorf("%s: the 95%% interval covered the ratio in %.1f%% of the samples", name, f*100)
		}
	}
}

// Past robustAbove instances the replicates draw robustAbove and are
// rescaled: the interval is the one drawing every instance, to within a
// fifth of its width.
func TestRobustSubsampled(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a, b := sampleNs(rng, 3000, 1e4, 0.5), sampleNs(rng, 2500, 1.05e4, 0.5)
	c := make([]int64, len(a))
	for i := range a {
		c[i] = int64(float64(a[i]) * 1.05 * math.Exp(0.1*rng.NormFloat64()))
	}
	sub := robustChanges(positive(a), positive(b), nil, 1000, 0.95, rand.New(rand.NewPCG(1, 1)), true)
	subP := robustChanges(positive(a), positive(c), pairedLogs(a, c), 1000, 0.95, rand.New(rand.NewPCG(1, 1)), true)
	defer func(n int) { robustAbove = n }(robustAbove)
	robustAbove = 1 << 30
	full := robustChanges(positive(a), positive(b), nil, 1000, 0.95, rand.New(rand.NewPCG(2, 2)), true)
	fullP := robustChanges(positive(a), positive(c), pairedLogs(a, c), 1000, 0.95, rand.New(rand.NewPCG(2, 2)), true)
	for _, c := range []struct {
		name      string
		sub, full interval
	}{{"two-sample", sub.hl, full.hl}, {"paired", subP.hl, fullP.hl}, {"median", sub.med, full.med}} {
		w := c.full.Hi - c.full.Lo
		if math.Abs(c.sub.Lo-c.full.Lo) > w/5 || math.Abs(c.sub.Hi-c.full.Hi) > w/5 || c.sub.Est != c.full.Est {
			t.Errorf("%s: drawing %d gives %+v, drawing all %+v", c.name, 500, c.sub, c.full)
		}
	}
}

// Per-iteration pairs: what both runs share cancels (a warm-up iteration
// ten times the others), the estimate is the median of the Walsh averages
// of the log ratios, and iterations past the shorter run are left out.
func TestPairedChange(t *testing.T) {
	a := []float64{100, 10, 10, 10, 10, 10}
	b := []float64{150, 15, 15, 15, 15, 15, 99}
	iv := pairedChange(a, b, 500, 0.95, rand.New(rand.NewPCG(1, 1)))
	if math.Abs(iv.Est-0.5) > 1e-12 || math.Abs(iv.Lo-0.5) > 1e-9 || math.Abs(iv.Hi-0.5) > 1e-9 {
		t.Errorf("%+v, want exactly +50%%", iv)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	var x, y []float64
	var xi, yi []int64
	for range 30 {
		v := 1e6 * math.Exp(0.2*rng.NormFloat64())
		w := v * 1.03 * math.Exp(0.02*rng.NormFloat64())
		x, y = append(x, v), append(y, w)
		xi, yi = append(xi, int64(v)), append(yi, int64(w))
	}
	for i := range x { // the test's Walsh averages read integer ns
		x[i], y[i] = float64(xi[i]), float64(yi[i])
	}
	iv = pairedChange(x, y, 1000, 0.95, rand.New(rand.NewPCG(1, 1)))
	if want := walshMedianRatio(xi, yi) - 1; math.Abs(iv.Est-want) > 1e-9 || !(iv.Lo > 0.02 && iv.Hi < 0.04) {
		t.Errorf("%+v, Walsh averages give %v; want an interval around +3%%", iv, want)
	}
	if iv := pairedChange([]float64{0, 0}, []float64{0, 5}, 100, 0.95, rng); iv.Est != math.Inf(1) || !math.IsNaN(iv.Lo) {
		t.Errorf("no iteration with time in both: %+v", iv)
	}
}

// First-call outliers: among the first tenth of the calls, those past ten
// times the median.
func TestFirstCalls(t *testing.T) {
	d := make([]int64, 100)
	for i := range d {
		d[i] = 100
	}
	d[0], d[3], d[50] = 5000, 2000, 9000 // the 51st call is no first call
	n, share := firstCalls(d)
	if want := 7000.0 / (97*100 + 16000); n != 2 || math.Abs(share-want) > 1e-12 {
		t.Errorf("%d outliers, share %v; want 2, %v", n, share, want)
	}
	if n, _ := firstCalls(d[:2]); n != 0 {
		t.Error("outliers among two calls")
	}
}
