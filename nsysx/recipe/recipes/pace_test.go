package recipes

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func TestComputePace(t *testing.T) {
	p := ComputePace([]int64{10, 50, 90}, []int64{30, 60, 130}, false)
	check := func(name string, got, want []int64) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("duration", p.Duration, []int64{20, 10, 40})
	check("delta", p.Delta, []int64{10, 20, 30})
	check("duration_accum", p.DurationAccum, []int64{20, 30, 70})
	check("delta_accum", p.DeltaAccum, []int64{10, 30, 60})
	p.Shift(5)
	check("start", p.Start, []int64{15, 55, 95})
	check("end", p.End, []int64{35, 65, 135})
	check("delta after shift", p.Delta, []int64{10, 20, 30})
}

func TestPaceTablesPadding(t *testing.T) {
	a := ComputePace([]int64{10, 50, 90}, []int64{30, 60, 130}, false)
	b := ComputePace([]int64{5, 25}, []int64{15, 45}, false)
	tabs := PaceTables([]*PaceSeries{a, b})
	var names []string
	for _, tb := range tabs {
		names = append(names, tb.Name)
	}
	if want := []string{"pace_start", "pace_end", "pace_duration_accum", "pace_delta_accum", "pace_duration", "pace_delta"}; !slices.Equal(names, want) {
		t.Fatalf("tables %v", names)
	}
	f := tabs[0].Frame
	if f.Index != pyframe.NoIndex || !slices.Equal(f.Names(), []string{"0", "1"}) {
		t.Fatalf("frame %v %v", f.Index, f.Names())
	}
	c0, c1 := f.Cols[0], f.Cols[1]
	if c0.Type != pyframe.Int64 || !slices.Equal(c0.IntVals, []int64{10, 50, 90}) {
		t.Errorf("rank 0: %+v", c0)
	}
	if c1.Type != pyframe.Float64 || c1.FloatVals[0] != 5 || c1.FloatVals[1] != 25 || !c1.IsNull(2) || c1.IsNull(1) {
		t.Errorf("rank 1 padded: %+v", c1)
	}
	// NVTX end is float: every column but start is float64.
	n := ComputePace([]int64{1}, []int64{2}, true)
	for _, tb := range PaceTables([]*PaceSeries{n}) {
		want := pyframe.Float64
		if tb.Name == "pace_start" {
			want = pyframe.Int64
		}
		if k := tb.Frame.Cols[0].Type; k != want {
			t.Errorf("%s kind %v, want %v", tb.Name, k, want)
		}
	}
}

func TestPaceDeltaStats(t *testing.T) {
	// Three ranks; iteration 1 has two values, iteration 2 one.
	r := []*PaceSeries{
		{Delta: []int64{1, 10, 7}},
		{Delta: []int64{2, 20}},
		{Delta: []int64{4}},
	}
	f := PaceDeltaStats(r)
	col := func(name string) []float64 { return f.Find(name).FloatVals }
	nan := math.NaN()
	want := map[string][]float64{
		"Count":  {3, 2, 1},
		"Mean":   {7.0 / 3, 15, 7},
		"Min":    {1, 10, 7},
		"Q1":     {1.5, 12.5, 7},
		"Median": {2, 15, 7},
		"Q3":     {3, 17.5, 7},
		"Max":    {4, 20, 7},
		"Sum":    {7, 30, 7},
	}
	m := 7.0 / 3
	want["Std"] = []float64{math.Sqrt(((m-1)*(m-1) + (m-2)*(m-2) + (m-4)*(m-4)) / 2), math.Sqrt((25 + 25) / 1.0), nan}
	for name, w := range want {
		got := col(name)
		for i := range w {
			if !(got[i] == w[i] || math.IsNaN(got[i]) && math.IsNaN(w[i])) {
				t.Errorf("%s[%d] = %v, want %v", name, i, got[i], w[i])
			}
		}
	}
	if !f.Find("Std").IsNull(2) || f.Find("Std").IsNull(0) {
		t.Errorf("Std NULL mask %v", f.Find("Std").Valid)
	}
}

func TestNumpyQuantileLerp(t *testing.T) {
	// numpy: a+(b−a)t below t=0.5, b−(b−a)(1−t) from 0.5 on.
	a, b, q1, q3 := 0.1, 0.7, 0.25, 0.75 // variables: Go folds constants exactly
	s := []float64{a, b}
	if got, want := npQuantile(s, q3), b-(b-a)*(1-q3); got != want {
		t.Errorf("q3 = %v, want %v", got, want)
	}
	if got, want := npQuantile(s, q1), a+(b-a)*q1; got != want {
		t.Errorf("q1 = %v, want %v", got, want)
	}
}

func TestPairwiseSum(t *testing.T) {
	// 16 values: eight lanes, lane j sums a[j] and a[j+8], then a tree.
	a := make([]float64, 16)
	for i := range a {
		a[i] = 1 / float64(i+3)
	}
	var r [8]float64
	for j := range 8 {
		r[j] = a[j] + a[j+8]
	}
	want := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	if got := pairwiseSum(a); got != want {
		t.Errorf("16 values: %v, want %v", got, want)
	}
	// Over 128 values: split at n/2 rounded down to a multiple of 8.
	b := make([]float64, 300)
	for i := range b {
		b[i] = 1 / float64(i+1)
	}
	if got, want := pairwiseSum(b), pairwise(b[:144])+pairwise(b[144:]); got != want {
		t.Errorf("300 values: %v, want %v", got, want)
	}
}

// TestPaceNameRequired: every pace recipe refuses to run without --name,
// as a usage error.
func TestPaceNameRequired(t *testing.T) {
	for _, name := range []string{"nvtx_pace", "nvtx_gpu_proj_pace", "cuda_gpu_kern_pace"} {
		r, err := recipe.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		o := recipe.Defaults()
		o.Input = []string{"unused.sqlite"}
		_, err = recipe.Run(context.Background(), r, o, nil)
		if !errors.Is(err, recipe.ErrUsage) || !strings.Contains(err.Error(), "--name") {
			t.Errorf("%s without --name: %v", name, err)
		}
	}
}
