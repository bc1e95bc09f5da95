package plots

import (
	"context"
	"math"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// The bars are nsys's cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum
// totals (the size CSV is in MB, rounded to 1 kB).
func TestMemOpsMatchMemSums(t *testing.T) {
	for _, name := range testutil.Profiles {
		t.Run(name, func(t *testing.T) {
			c, times := chartOrNote(t, name, "cuda_gpu_mem_time_sum", func(p *nsysx.Profile) (*Chart, error) {
				return MemOps(context.Background(), p, "")
			})
			if c == nil {
				return
			}
			sizes, _ := goldenCSV(t, name, "cuda_gpu_mem_size_sum.csv")
			d := c.data.(*MemOpsData)
			checkBars(t, d.ByTime, times, "Operation", "Total Time (ns)", "Count", 1, 20)
			if len(d.BySize.Bars) != len(sizes) {
				t.Fatalf("%d size bars, nsys has %d rows", len(d.BySize.Bars), len(sizes))
			}
			for i, r := range sizes {
				bar := d.BySize.Bars[i]
				if bar.Name != r["Operation"] || math.Abs(bar.Value/1e6-atof(t, r["Total (MB)"])) > 0.0005+1e-9 || float64(bar.Count) != atof(t, r["Count"]) {
					t.Errorf("size bar %d: got %q %v B (%d), nsys %q %s MB (%s)", i, bar.Name, bar.Value, bar.Count, r["Operation"], r["Total (MB)"], r["Count"])
				}
			}
		})
	}
	for _, by := range []string{"time", "size"} {
		c, err := MemOps(context.Background(), profile(t, "sync"), by)
		if err != nil {
			t.Fatal(err)
		}
		d := c.data.(*MemOpsData)
		if (d.ByTime == nil) != (by == "size") || (d.BySize == nil) != (by == "time") || len(c.grid[0]) != 1 {
			t.Errorf("--by %s: time %v size %v, %d panels", by, d.ByTime != nil, d.BySize != nil, len(c.grid[0]))
		}
	}
	if _, err := MemOps(context.Background(), profile(t, "sync"), "bytes"); err == nil {
		t.Error("--by bytes: no error")
	}
}
