package plots

import (
	"context"
	"math"
	"strings"
	"testing"
)

// The instances are those nsys's nvtx_sum counts for the matched names,
// with the same total duration.
func TestIterationsMatchNVTXSum(t *testing.T) {
	for _, tc := range []struct {
		prof string
		o    Options
		n    int
	}{
		{"train", Options{}, 20},
		{"rank0", Options{}, 20},
		{"cnn", Options{}, 20}, // ranges named just "step"
		{"train", Options{Range: "forward"}, 20},
		{"train", Options{Match: `^(forward|backward)$`}, 40},
		{"sync", Options{Range: "step"}, 6},
	} {
		t.Run(tc.prof+"/"+tc.o.Range+tc.o.Match, func(t *testing.T) {
			d, note, err := iterationsData(context.Background(), profile(t, tc.prof), &tc.o)
			if err != nil || note != "" {
				t.Fatalf("note %q, err %v", note, err)
			}
			if len(d.Items) != tc.n {
				t.Errorf("%d instances, want %d", len(d.Items), tc.n)
			}
			count, sum := map[string]float64{}, map[string]float64{}
			for _, it := range d.Items {
				count[it.Name]++
				sum[it.Name] += float64(it.Duration)
			}
			rows, _ := goldenCSV(t, tc.prof, "nvtx_sum.csv")
			for name := range count {
				var n, total float64
				for _, r := range rows {
					if strings.TrimPrefix(r["Range"], ":") == name || r["Range"] == name {
						n += atof(t, r["Instances"])
						total += atof(t, r["Total Time (ns)"])
					}
				}
				if n != count[name] || total != sum[name] {
					t.Errorf("%q: %v instances, %v ns; nsys %v, %v ns", name, count[name], sum[name], n, total)
				}
			}
			var hist int
			for _, b := range d.Hist {
				hist += b.Count
			}
			if hist != len(d.Items) {
				t.Errorf("histogram holds %d of %d", hist, len(d.Items))
			}
			for i := 1; i < len(d.Items); i++ {
				if d.Items[i].Start < d.Items[i-1].Start {
					t.Fatal("instances not in start order")
				}
			}
		})
	}
}

// train.py synchronises and sleeps every 10 steps (testdata README): those
// iterations are the outliers.
func TestIterationsOutliers(t *testing.T) {
	d, _, err := iterationsData(context.Background(), profile(t, "train"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, it := range d.Items {
		if it.Outlier {
			out = append(out, it.X)
		}
	}
	if !d.Numbered || len(out) != 2 || out[0] != 10 || out[1] != 20 {
		t.Errorf("outliers at %v (numbered %v), want iterations 10 and 20", out, d.Numbered)
	}
	if d.Items[0].X != 5 || math.IsNaN(d.Median) || d.Median < d.Q1 || d.Median > d.Q3 {
		t.Errorf("first x %v, quartiles %v %v %v", d.Items[0].X, d.Q1, d.Median, d.Q3)
	}
}

func TestIterationsNotFound(t *testing.T) {
	for _, tc := range []struct {
		prof string
		o    Options
		want string
	}{
		{"train", Options{Range: "no such range"}, "no NVTX range named"},
		{"train", Options{Match: "^zzz"}, "matches ^zzz"},
		{"nsysai_healthy_1pct", Options{}, "no NVTX ranges"},
		{"bt", Options{Range: "forward"}, ""},
	} {
		c, err := Iterations(context.Background(), profile(t, tc.prof), &tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.Note, tc.want) || (tc.want == "") != (c.Note == "") {
			t.Errorf("%s %+v: note %q, want %q", tc.prof, tc.o, c.Note, tc.want)
		}
	}
}
