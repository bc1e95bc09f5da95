package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRound1Fast checks Round1 against round1Decimal (the decimal-expansion
// reference) on ties, near-ties and random values of every magnitude.
func TestRound1Fast(t *testing.T) {
	vals := []float64{0, 26.25, -1.25, 0.15, 6609.65, 1.35, 0.05, 1.45, 1234567.25, 0.25, 0.35, 2.5, 1e-9,
		4503599627370495.5, 1 << 52, 1<<52 + 1, -0.05, 99.95, 0.95, 1e15 + 0.25, 123.45, 7.05, 2.675}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		exp := r.IntN(60) - 8
		x := r.Float64() * math.Pow(2, float64(exp))
		if r.IntN(2) == 0 {
			x = -x
		}
		vals = append(vals, x)
		// decimal ties and their neighbours
		d := math.Round(x*100) / 100
		vals = append(vals, d, math.Nextafter(d, math.Inf(1)), math.Nextafter(d, math.Inf(-1)))
		n := float64(r.IntN(1 << 30))
		vals = append(vals, (n+0.5)/10, n/20, n/3)
	}
	for _, x := range vals {
		if got, want := Round1(x), round1Decimal(x); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("Round1(%v) = %v, decimal expansion gives %v", x, got, want)
		}
	}
}
