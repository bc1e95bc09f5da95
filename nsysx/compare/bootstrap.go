package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// normalAbove is the sample size past which a resampled mean is drawn from
// its normal approximation instead of by drawing every instance.
const normalAbove = 20000

// interval is a relative change (after/before - 1, as a fraction) with its
// percentile bootstrap interval; Lo and Hi are NaN when there is too little
// data to resample.
type interval struct{ Est, Lo, Hi float64 }

// units is one side's resampling units and the factor its mean is scaled by
// (the instance count for a total over instances, 1 otherwise).
type units struct {
	x     []float64
	scale float64
}

func (u units) mean() float64 { return mean(u.x) * u.scale }

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	if len(x) == 0 {
		return 0
	}
	return s / float64(len(x))
}

func sd(x []float64, m float64) float64 {
	if len(x) < 2 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// resampledMean is the mean of one bootstrap resample of x.
func resampledMean(x []float64, m, s float64, rng *rand.Rand) float64 {
	n := len(x)
	if n > normalAbove {
		return m + s/math.Sqrt(float64(n))*rng.NormFloat64()
	}
	var sum float64
	for range n {
		sum += x[rng.IntN(n)]
	}
	return sum / float64(n)
}

// rel is b/a - 1, with 0/0 = 0 and x/0 = +Inf.
func rel(a, b float64) float64 {
	switch {
	case a == 0 && b == 0:
		return 0
	case a == 0:
		return math.Inf(1)
	}
	return b/a - 1
}

// bootstrap estimates the relative change of the (scaled) mean from a to b
// and its percentile interval at confidence conf over r resamples. Fewer
// than minUnits units on either side give no interval.
func bootstrap(a, b units, r int, conf float64, rng *rand.Rand) interval {
	iv := interval{Est: rel(a.mean(), b.mean()), Lo: math.NaN(), Hi: math.NaN()}
	if len(a.x) < minUnits || len(b.x) < minUnits {
		return iv
	}
	ma, mb := mean(a.x), mean(b.x)
	sa, sb := sd(a.x, ma), sd(b.x, mb)
	reps := make([]float64, r)
	for i := range reps {
		reps[i] = rel(resampledMean(a.x, ma, sa, rng)*a.scale, resampledMean(b.x, mb, sb, rng)*b.scale)
	}
	slices.Sort(reps)
	alpha := (1 - conf) / 2
	iv.Lo, iv.Hi = quantile(reps, alpha), quantile(reps, 1-alpha)
	return iv
}

// minUnits is the fewest resampling units that give an interval.
const minUnits = 3

// quantile is the linear-interpolation quantile q of sorted x.
func quantile(x []float64, q float64) float64 {
	pos := q * float64(len(x)-1)
	lo := int(math.Floor(pos))
	if lo+1 >= len(x) {
		return x[len(x)-1]
	}
	f := pos - float64(lo)
	if f == 0 || math.IsInf(x[lo], 0) || math.IsInf(x[lo+1], 0) {
		return x[lo+int(math.Round(f))]
	}
	return x[lo]*(1-f) + x[lo+1]*f
}

// rowRNG is the generator of one row: seeded by the options' seed and the
// row's kind and name, so a row's interval does not depend on the others.
func rowRNG(seed uint64, k key, which string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(string(k.kind) + "\x00" + k.name + "\x00" + which))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}
