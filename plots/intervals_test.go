package plots

import (
	"math"
	"slices"
	"testing"
)

// Hand-computed bins (docs/recipes.md §1.10): bin size 10, four bins.
func TestHeatBins(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name     string
		spans    []span
		off, max int64
		want     []float64
	}{
		{"inside", []span{{5, 25}}, 0, 40, []float64{50, 100, 50, 0}},
		{"partial first and last bins", []span{{5, 25}}, 5, 35, []float64{100, 100, 50, 0}},
		{"outside the session is NULL", []span{{15, 20}}, 15, 25, []float64{nan, 100, 0, nan}},
		{"two spans", []span{{1, 5}, {7, 10}, {31, 40}}, 0, 40, []float64{70, 0, 0, 90}},
		// nsys's quirk: a span that starts on a bin edge adds nothing to
		// that first bin (min(ceil(s'), e') - s' is 0 there).
		{"start on a bin edge", []span{{10, 15}, {20, 35}}, 0, 40, []float64{0, 0, 0, 50}},
		{"session ends on an edge", []span{{21, 30}}, 0, 30, []float64{0, 0, 90, 0}},
	} {
		got := heatBins(tc.spans, 10, 4, tc.off, tc.max)
		for k := range tc.want {
			if !sameFloat(got[k], tc.want[k], 1e-9) {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

func TestHeatBinsRounding(t *testing.T) {
	got := heatBins([]span{{1, 2}, {5, 6}}, 3, 2, 0, 6)
	if got[0] != 33.3 || got[1] != 33.3 {
		t.Errorf("got %v, want 33.3 (1/3 rounded to 0.1)", got)
	}
}

func TestSpans(t *testing.T) {
	c := consolidate([]span{{5, 7}, {0, 2}, {2, 3}, {6, 9}, {20, 21}})
	if !slices.Equal(c, []span{{0, 3}, {5, 9}, {20, 21}}) {
		t.Errorf("consolidate: %v", c)
	}
	if got := intersect([]span{{0, 10}, {20, 30}}, []span{{5, 25}, {29, 40}}); !slices.Equal(got, []span{{5, 10}, {20, 25}, {29, 30}}) {
		t.Errorf("intersect: %v", got)
	}
	if got := mergeNear([]span{{0, 1}, {3, 4}, {10, 30}}, 5, true); !slices.Equal(got, []span{{0, 5}, {10, 30}}) {
		t.Errorf("mergeNear widen: %v", got)
	}
	if got := mergeNear([]span{{0, 1}, {3, 4}, {10, 30}}, 5, false); !slices.Equal(got, []span{{0, 4}, {10, 30}}) {
		t.Errorf("mergeNear: %v", got)
	}
	if total(c) != 8 {
		t.Errorf("total %d", total(c))
	}
}

// A GPU lane at pixel resolution shows, per pixel, the kind that ran
// longest there.
func TestDominantBars(t *testing.T) {
	var kinds [opKinds][]span
	kinds[opKernel] = []span{{0, 35}, {52, 58}}
	kinds[opMemset] = []span{{36, 39}, {50, 52}}
	got := dominantBars(kinds, 0, 60, 10)
	want := []TimelineBar{{0, 40, "kernel", 2}, {50, 60, "kernel", 2}} // counts: operations starting in the bar
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	kinds[opMemcpy] = []span{{40, 49}}
	got = dominantBars(kinds, 0, 60, 10)
	want = []TimelineBar{{0, 40, "kernel", 2}, {40, 50, "memcpy", 1}, {50, 60, "kernel", 2}}
	if !slices.Equal(got, want) {
		t.Errorf("with memcpy: got %v, want %v", got, want)
	}
}

// A window that ends at int64's end (a crafted end timestamp) is binned
// without overflow: the bars are those of the same lane shifted to 0.
func TestDominantBarsAtInt64End(t *testing.T) {
	const hi int64 = math.MaxInt64
	lo := hi - 60
	var kinds [opKinds][]span
	kinds[opKernel] = []span{{lo, lo + 35}, {lo + 52, hi}}
	kinds[opMemset] = []span{{lo + 36, lo + 39}}
	got := dominantBars(kinds, lo, hi, 10)
	want := []TimelineBar{{lo, lo + 40, "kernel", 2}, {lo + 50, hi, "kernel", 1}} // as in TestDominantBars
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// a resolution of a whole int64 span (the chart's pixels over it)
	kinds[opKernel] = []span{{0, hi}}
	kinds[opMemset] = nil
	if got := dominantBars(kinds, 0, hi, hi/1000); len(got) != 1 || got[0].Start != 0 || got[0].End != hi {
		t.Errorf("whole span: %v", got)
	}
}

func TestMergeBars(t *testing.T) {
	bars := []TimelineBar{{0, 100, "forward", 1}, {100, 101, "data", 1}, {101, 103, "x", 1}, {500, 600, "backward", 1},
		{600, 700, "backward", 1}, {800, 802, "a", 1}, {802, 804, "b", 1}, {804, 806, "c", 1}, {900, 904, "d", 1}, {904, 906, "e", 1},
		{1000, 1002, "s", 1}, {1002, 1004, "s", 1}, {1004, 1006, "s", 1}}
	got := mergeBars(bars, 5)
	want := []TimelineBar{{0, 103, "forward", 3}, {500, 700, "backward", 2}, {800, 806, "3 ranges", 3}, {900, 906, "d", 2}, {1000, 1006, "s", 3}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if got := mergeBars(bars, 0); len(got) != len(bars) {
		t.Errorf("resolution 0 merged: %v", got)
	}
}
