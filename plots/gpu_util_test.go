package plots

import (
	"context"
	"math"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// goldenRows groups a heatmap recipe's output by (PID, Device ID): the
// values of column col in bin order, and the bin size.
func goldenRows(t *testing.T, rel, col string) (map[devKey][]float64, int64) {
	g := parquetColumns(t, rel)
	rows := map[devKey][]float64{}
	for i := range g["Duration"] {
		k := devKey{int64(g["PID"][i]), int64(g["Device ID"][i])}
		rows[k] = append(rows[k], g[col][i])
	}
	return rows, int64(g["Duration"][1] - g["Duration"][0])
}

// The heatmap is nsys's cuda_gpu_time_util_map recipe output, bin for bin,
// with the reports aligned on their session start times.
func TestGPUUtilMatchesRecipe(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		names []string
	}{
		{"train+fixed", []string{"train", "fixed"}},
		{"rank0+rank1", []string{"rank0", "rank1"}},
		{"rank0+rank1", []string{"rank1", "rank0"}}, // input order does not matter
	} {
		t.Run(tc.dir, func(t *testing.T) {
			want, size := goldenRows(t, tc.dir+"/cuda_gpu_time_util_map/analysis.parquet", "Kernel")
			var ps []*nsysx.Profile
			for _, n := range tc.names {
				ps = append(ps, profile(t, n))
			}
			c, err := GPUUtil(context.Background(), ps, &Options{Bins: 30})
			if err != nil {
				t.Fatal(err)
			}
			d := c.data.(*UtilData)
			if d.BinSize != size || d.Bins != 30 {
				t.Errorf("bins: %d of %d ns, recipe: 30 of %d ns", d.Bins, d.BinSize, size)
			}
			if len(d.Rows) != len(want) {
				t.Fatalf("%d rows, recipe has %d", len(d.Rows), len(want))
			}
			for _, r := range d.Rows {
				w := want[devKey{r.PID, r.Device}]
				if len(w) != len(r.Values) {
					t.Fatalf("%s: %d bins, recipe %d", r.Label, len(r.Values), len(w))
				}
				for k := range w {
					if !sameFloat(r.Values[k], w[k], 1e-9) {
						t.Errorf("%s bin %d: %v, recipe %v", r.Label, k, r.Values[k], w[k])
					}
				}
			}
		})
	}
}

// Busy time is the union of kernel intervals: it never exceeds the summed
// kernel time, and a single bin over the kernels' span holds busy/span.
func TestGPUUtilInvariants(t *testing.T) {
	for _, name := range []string{"train", "sync", "cnn", "rank0", "nsysai_mfu_2gpu_before"} {
		p := profile(t, name)
		ops, err := loadGPUOps(context.Background(), p, false)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := int64(math.MaxInt64), int64(0)
		for _, op := range ops {
			lo, hi = min(lo, op.s), max(hi, op.e)
		}
		c, err := GPUUtil(context.Background(), []*nsysx.Profile{p}, &Options{Bins: 1, Start: lo, End: hi})
		if err != nil {
			t.Fatal(err)
		}
		if c.Note != "" {
			t.Fatalf("%s: %s", name, c.Note)
		}
		for _, r := range c.data.(*UtilData).Rows {
			var sum int64
			for _, op := range ops {
				if op.pid == r.PID && op.dev == r.Device {
					sum += op.e - op.s
				}
			}
			if r.Busy > sum || r.Busy <= 0 {
				t.Errorf("%s %s: busy %d, kernels sum to %d", name, r.Label, r.Busy, sum)
			}
			want := math.Round(float64(r.Busy)/float64(hi-lo)*1000) / 10
			if len(r.Values) != 1 || math.Abs(r.Values[0]-want) > 0.11 { // both rounded to 0.1
				t.Errorf("%s %s: one bin %v, busy/span %v%%", name, r.Label, r.Values, want)
			}
		}
	}
}

func TestGPUUtilDevice(t *testing.T) {
	p := profile(t, "nsysai_h100_2gpu_1s")
	c, err := GPUUtil(context.Background(), []*nsysx.Profile{p}, &Options{Device: 1, OneDevice: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.data.(*UtilData).Rows {
		if r.Device != 1 {
			t.Errorf("--device 1 kept %s", r.Label)
		}
	}
	c, err = GPUUtil(context.Background(), []*nsysx.Profile{p}, &Options{Device: 7, OneDevice: true})
	if err != nil || c.Note == "" {
		t.Errorf("--device 7: note %q, err %v", c.Note, err)
	}
}
