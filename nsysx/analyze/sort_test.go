package analyze

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortStablePDQ: the same order as slices.SortStableFunc, ties
// included, on random pairs sorted by their first value only.
func TestSortStablePDQ(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 19, 20, 21, 500, 5000} {
		s := make([][2]int, n)
		for i := range s {
			s[i] = [2]int{r.IntN(1 + n/10), i}
		}
		want := slices.Clone(s)
		cmp := func(a, b [2]int) int { return b[0] - a[0] }
		slices.SortStableFunc(want, cmp)
		sortStablePDQ(s, cmp)
		if !slices.Equal(s, want) {
			t.Fatalf("%d elements: not the stable order", n)
		}
	}
}
