package stats

import (
	"math"
	"testing"
)

// geometry4d must give fmt's printf('%4d %4d %4d') text, as geometry does.
func TestGeometry4d(t *testing.T) {
	vals := []int64{0, 1, -1, 7, 42, 999, 1000, 9999, 10000, -999, -1000, 123456789, math.MaxInt64, math.MinInt64}
	var xyz [3]*Column
	for j := range xyz {
		xyz[j] = &Column{Name: "d", Type: Int}
	}
	for i, v := range vals {
		xyz[0].Ints = append(xyz[0].Ints, v)
		xyz[1].Ints = append(xyz[1].Ints, vals[(i+3)%len(vals)])
		xyz[2].Ints = append(xyz[2].Ints, vals[(i+7)%len(vals)])
	}
	xyz[1].SetNull(2)
	xyz[2].SetNull(5)
	for i := range vals {
		got, want := geometry4d(xyz, i), geometry(xyz[0], xyz[1], xyz[2], i)
		if got != want {
			t.Errorf("row %d: geometry4d %q, fmt %q", i, got, want)
		}
	}
}

// forEachGroup visits every group once and raises fn's panic in the caller
// (RunReport turns an *OverflowError into the report's error).
func TestForEachGroup(t *testing.T) {
	seen := make([]int32, 1000)
	forEachGroup(len(seen), func(g int) { seen[g]++ })
	for g, n := range seen {
		if n != 1 {
			t.Fatalf("group %d visited %d times", g, n)
		}
	}
	defer func() {
		if _, ok := recover().(*OverflowError); !ok {
			t.Fatal("the panic of fn did not reach the caller")
		}
	}()
	forEachGroup(10, func(g int) {
		if g == 7 {
			panic(&OverflowError{What: "test"})
		}
	})
}
