package plots

import (
	"context"
	"strings"
	"testing"
)

// The histogram holds every launch of the kernel nsys's cuda_gpu_kern_sum
// lists: count, total, minimum and maximum agree.
func TestKernelHistMatchesKernSum(t *testing.T) {
	for _, tc := range []struct{ prof, kernel string }{
		{"train", ""}, {"sync", "touch"}, {"rank0", "ncclDevKernel"}, {"cnn", "elementwise_kernel"},
		{"train", "at::native::vectorized_layer_norm_kernel"},
	} {
		t.Run(tc.prof+"/"+tc.kernel, func(t *testing.T) {
			d, note, err := kernelHistData(context.Background(), profile(t, tc.prof), tc.kernel, 0)
			if err != nil || note != "" {
				t.Fatalf("note %q, err %v", note, err)
			}
			rows, _ := goldenCSV(t, tc.prof, "cuda_gpu_kern_sum.csv")
			var row map[string]string
			for _, r := range rows {
				if r["Name"] == d.Name {
					row = r
					break
				}
			}
			if row == nil {
				t.Fatalf("nsys has no kernel %q", d.Name)
			}
			if tc.kernel == "" && rows[0]["Name"] != d.Name {
				t.Errorf("default kernel %q, nsys's top is %q", d.Name, rows[0]["Name"])
			}
			if tc.kernel != "" && !strings.Contains(strings.ToLower(d.Name), strings.ToLower(tc.kernel)) && ShortName(d.Name) != tc.kernel {
				t.Errorf("%q picked %q", tc.kernel, d.Name)
			}
			var n int
			var sum, lo, hi float64 = 0, 1e300, 0
			for _, v := range d.Durations {
				sum += v
				lo, hi = min(lo, v), max(hi, v)
			}
			for _, b := range d.Bins {
				n += b.Count
				if b.Hi <= b.Lo {
					t.Errorf("empty bin %+v", b)
				}
			}
			if float64(n) != atof(t, row["Instances"]) || float64(len(d.Durations)) != atof(t, row["Instances"]) ||
				sum != atof(t, row["Total Time (ns)"]) || lo != atof(t, row["Min (ns)"]) || hi != atof(t, row["Max (ns)"]) {
				t.Errorf("%d launches (%d binned), %v ns, %v..%v; nsys %s, %s ns, %s..%s", len(d.Durations), n, sum, lo, hi,
					row["Instances"], row["Total Time (ns)"], row["Min (ns)"], row["Max (ns)"])
			}
			if d.Bins[0].Lo > lo || d.Bins[len(d.Bins)-1].Hi < hi {
				t.Errorf("bins %v..%v do not cover %v..%v", d.Bins[0].Lo, d.Bins[len(d.Bins)-1].Hi, lo, hi)
			}
		})
	}
}

// nsys's notebook rule: Freedman-Diaconis over the distinct durations,
// integer width; with a bin count, width ceil(span/bins).
func TestFDBins(t *testing.T) {
	// distinct 1..100: IQR 49.5, n^(1/3) 4.6416 -> w = trunc(21.33) = 21, 5 bins
	var v []float64
	for i := 1; i <= 100; i++ {
		v = append(v, float64(i), float64(i))
	}
	if lo, w, n := fdBins(v, 0); lo != 1 || w != 21 || n != 5 {
		t.Errorf("fd: %v %v %v, want 1 21 5", lo, w, n)
	}
	if lo, w, n := fdBins(v, 10); lo != 1 || w != 10 || n != 10 {
		t.Errorf("10 bins: %v %v %v, want 1 10 10", lo, w, n)
	}
	if _, w, n := fdBins([]float64{7, 7, 7}, 0); w != 0.02 || n != 1 {
		t.Errorf("one value: width %v, %d bins", w, n)
	}
	h := histogram([]float64{0, 1, 2, 9.99, 10}, 0, 5, 2)
	if h[0].Count != 3 || h[1].Count != 2 {
		t.Errorf("histogram %+v", h)
	}
}
