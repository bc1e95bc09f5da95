package stats

import (
	"math/rand"
	"slices"
	"testing"
)

// TestMedianSelect checks Agg.Median (quickselect) against the median of a
// sorted copy, on random, constant, sorted, reversed and few-valued inputs.
func TestMedianSelect(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	gens := map[string]func(i, n int) int64{
		"random":   func(int, int) int64 { return r.Int63n(1 << 40) },
		"constant": func(int, int) int64 { return 7 },
		"sorted":   func(i, _ int) int64 { return int64(i) },
		"reversed": func(i, n int) int64 { return int64(n - i) },
		"few":      func(int, int) int64 { return r.Int63n(3) },
		"organ":    func(i, n int) int64 { return int64(min(i, n-i)) },
	}
	for name, g := range gens {
		for _, n := range []int{1, 2, 3, 4, 5, 16, 17, 18, 100, 101, 1000, 4097} {
			var a Agg
			for i := 0; i < n; i++ {
				a.Add(g(i, n))
			}
			orig := slices.Clone(a.vals)
			s := slices.Clone(a.vals)
			slices.Sort(s)
			want := IntV(s[n/2])
			if n%2 == 0 {
				want = FloatV((float64(s[n/2-1]) + float64(s[n/2])) / 2)
			}
			if got := a.Median(); got != want {
				t.Errorf("%s n=%d: median %v, want %v", name, n, got, want)
			}
			if !slices.Equal(a.vals, orig) {
				t.Errorf("%s n=%d: Median reordered the samples", name, n)
			}
		}
	}
}
