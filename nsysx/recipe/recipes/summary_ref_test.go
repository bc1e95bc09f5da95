package recipes

import (
	"context"
	"math"
	"sort"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// ref is a group's statistics computed the plain way: sorted values, a
// two-pass standard deviation, sums in float64 (exact for these integer
// nanosecond values).
type ref struct {
	n                         int
	mean, std                 float64
	min, q1, med, q3, max, sm float64
}

func refDescribe(v []float64) ref {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	r := ref{n: len(s), min: s[0], max: s[len(s)-1]}
	for _, x := range s {
		r.sm += x
	}
	r.mean = r.sm / float64(r.n)
	if r.n > 1 {
		var ss float64
		for _, x := range s {
			ss += (x - r.mean) * (x - r.mean)
		}
		r.std = math.Sqrt(ss / float64(r.n-1))
	}
	q := func(p float64) float64 {
		pos := p * float64(r.n-1)
		lo := int(pos)
		if lo+1 >= r.n {
			return s[lo]
		}
		return s[lo] + (s[lo+1]-s[lo])*(pos-float64(lo))
	}
	r.q1, r.med, r.q3 = q(0.25), q(0.5), q(0.75)
	return r
}

// checkRank compares the rows of stats frame f with Rank rank against the
// groups computed in the test: the same keys in ascending order, exact
// Count, Min, Max, Sum and quantiles (rounded), Mean and Std within the
// rounding step (the reference sums in another order).
func checkRank(t *testing.T, what string, f *pyframe.Frame, rank int64, key string, groups map[string][]float64) {
	t.Helper()
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rows []int
	for i, r := range f.Find("Rank").IntVals {
		if r == rank {
			rows = append(rows, i)
		}
	}
	if len(rows) != len(keys) {
		t.Fatalf("%s rank %d: %d rows, want %d", what, rank, len(rows), len(keys))
	}
	col := func(name string, i int) float64 { return f.Find(name).Float(i) }
	bad := 0
	for k, i := range rows {
		if got := f.Find(key).Strs[i]; got != keys[k] {
			t.Fatalf("%s rank %d row %d: key %q, want %q", what, rank, k, got, keys[k])
		}
		r := refDescribe(groups[keys[k]])
		exact := map[string]float64{"Count": float64(r.n), "Min": r.min, "Max": r.max, "Sum": r.sm,
			"Q1": pyframe.Round(r.q1), "Median": pyframe.Round(r.med), "Q3": pyframe.Round(r.q3)}
		approx := map[string]float64{"Mean": r.mean, "Std": r.std}
		for name, w := range exact {
			if g := col(name, i); g != w && bad < 10 {
				bad++
				t.Errorf("%s rank %d %q: %s = %v, want %v", what, rank, keys[k], name, g, w)
			}
		}
		for name, w := range approx {
			g := col(name, i)
			if name == "Std" && r.n < 2 {
				if !f.Find("Std").IsNull(i) {
					t.Errorf("%s %q: Std %v, want NULL", what, keys[k], g)
				}
				continue
			}
			if math.Abs(g-w) > 0.05+1e-9*math.Abs(w) && bad < 10 {
				bad++
				t.Errorf("%s rank %d %q: %s = %v, want %v", what, rank, keys[k], name, g, w)
			}
		}
	}
}

// rawByName groups end−start of a (start, end, nameId) table's rows with
// start ≥ 0 and a positive duration by StringIds(nameId); zero counts the
// rows left out for a zero duration.
func rawByName(t *testing.T, p *nsysx.Profile, table string) (groups map[string][]float64, zero map[string]int) {
	t.Helper()
	tb, err := p.Load(context.Background(), table, "start", "end", "nameId")
	if err != nil {
		t.Fatal(err)
	}
	groups, zero = map[string][]float64{}, map[string]int{}
	for i := 0; i < tb.N; i++ {
		s, e := tb.Col("start").Int(i), tb.Col("end").Int(i)
		name, _ := p.String(context.Background(), tb.Col("nameId").Int(i))
		switch {
		case s < 0:
		case e-s > 0:
			groups[name] = append(groups[name], float64(e-s))
		default:
			zero[name]++
		}
	}
	return groups, zero
}
