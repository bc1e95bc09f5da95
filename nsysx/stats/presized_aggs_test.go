package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPresizedAggs: the groups presizedAggs fills hold, in row order, the
// same durations and NULL counts as adding each row to its group in turn.
func TestPresizedAggs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 1000} {
		for _, groups := range []int{1, 3, 40} {
			st, en := &Column{Name: "start", Ints: make([]int64, n)}, &Column{Name: "end", Ints: make([]int64, n)}
			of := make([]int32, n)
			want := make([]Agg, groups)
			for i := range n {
				of[i] = int32(r.IntN(groups))
				st.Ints[i] = r.Int64N(1000)
				en.Ints[i] = st.Ints[i] + r.Int64N(500)
				switch r.IntN(10) {
				case 0:
					st.SetNull(i)
				case 1:
					en.SetNull(i)
				}
				if st.IsNull(i) || en.IsNull(i) {
					want[of[i]].AddNull()
				} else {
					want[of[i]].Add(en.Ints[i] - st.Ints[i])
				}
			}
			got := presizedAggs(groups, of, st, en)
			for g := range groups {
				if !slices.Equal(got[g].vals, want[g].vals) || got[g].nulls != want[g].nulls {
					t.Fatalf("n=%d group %d: %v (%d NULL), want %v (%d NULL)", n, g, got[g].vals, got[g].nulls, want[g].vals, want[g].nulls)
				}
				if cap(got[g].vals) != len(got[g].vals) {
					t.Errorf("n=%d group %d: capacity %d for %d values", n, g, cap(got[g].vals), len(got[g].vals))
				}
			}
		}
	}
}
