package plots

import (
	"context"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// Per rank, the NCCL kernel time is the total of nsys's cuda_gpu_kern_sum
// rows whose names contain "nccl", and the compute time the rest.
func TestNCCLBusyMatchesKernSum(t *testing.T) {
	c, err := NCCL(context.Background(), []*nsysx.Profile{profile(t, "rank0"), profile(t, "rank1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := c.data.(*NCCLData)
	if len(d.Rows) != 2 {
		t.Fatalf("%d rows, want one per rank", len(d.Rows))
	}
	for i, name := range []string{"rank0", "rank1"} {
		rows, _ := goldenCSV(t, name, "cuda_gpu_kern_sum.csv")
		var nccl, other, ncclN, otherN float64
		for _, r := range rows {
			if strings.Contains(strings.ToLower(r["Name"]), "nccl") {
				nccl += atof(t, r["Total Time (ns)"])
				ncclN += atof(t, r["Instances"])
			} else {
				other += atof(t, r["Total Time (ns)"])
				otherN += atof(t, r["Instances"])
			}
		}
		r := d.Rows[i]
		if !strings.HasSuffix(r.Profile, name) || float64(r.NCCLTime) != nccl || float64(r.ComputeTime) != other ||
			float64(r.NCCLKernels) != ncclN || float64(r.ComputeKernels) != otherN {
			t.Errorf("%s: NCCL %d ns in %d kernels, compute %d ns in %d; nsys: %v in %v, %v in %v",
				r.Label, r.NCCLTime, r.NCCLKernels, r.ComputeTime, r.ComputeKernels, nccl, ncclN, other, otherN)
		}
		if nccl == 0 || r.Overlap > r.NCCLBusy || r.NCCLBusy > r.NCCLTime || r.ComputeBusy > r.ComputeTime {
			t.Errorf("%s: busy NCCL %d, compute %d, overlap %d", r.Label, r.NCCLBusy, r.ComputeBusy, r.Overlap)
		}
	}
}

// The bins are nsys's nccl_gpu_time_util_map recipe output.
func TestNCCLMatchesRecipe(t *testing.T) {
	c, err := NCCL(context.Background(), []*nsysx.Profile{profile(t, "rank1"), profile(t, "rank0")}, &Options{Bins: 30})
	if err != nil {
		t.Fatal(err)
	}
	d := c.data.(*NCCLData)
	for _, col := range []string{"All", "NCCL", "Compute", "Overlap"} {
		want, size := goldenRows(t, "rank0+rank1/nccl_gpu_time_util_map/analysis.parquet", col)
		if d.BinSize != size {
			t.Errorf("bin size %d, recipe %d", d.BinSize, size)
		}
		for _, r := range d.Rows {
			got := map[string][]float64{"All": r.All, "NCCL": r.NCCL, "Compute": r.Compute, "Overlap": r.Shared}[col]
			w := want[devKey{r.PID, r.Device}]
			if len(w) != 30 || len(got) != 30 {
				t.Fatalf("%s: %d bins, recipe %d", r.Label, len(got), len(w))
			}
			for k := range w {
				if !sameFloat(got[k], w[k], 1e-9) {
					t.Errorf("%s %s bin %d: %v, recipe %v", r.Label, col, k, got[k], w[k])
				}
			}
		}
	}
}

func TestNCCLWithoutNCCL(t *testing.T) {
	for _, name := range []string{"train", "sync", "nsysai_healthy_1pct", "train22"} {
		c, err := NCCL(context.Background(), []*nsysx.Profile{profile(t, name)}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Note == "" || c.grid != nil {
			t.Errorf("%s: no note about missing NCCL kernels", name)
		}
	}
}
