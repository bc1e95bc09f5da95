package nsysx_test

import (
	"context"
	"fmt"
	"os"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// Run a report over one NVTX range: the CUDA API calls made inside the
// sample's first "h2d_sync" range, as `nsysx stats --filter-nvtx h2d_sync`.
func ExampleProfile_Run() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	f, _ := nsysx.ParseNVTXFilter("h2d_sync")
	r, err := p.Run(context.Background(), "cuda_api_sum", f)
	if err != nil { // a *nsysx.SkipError when the range is not in the profile
		fmt.Println(err)
		return
	}
	format.Write(os.Stdout, r.Select("Name", "Num Calls"), format.Spec{Name: "csv"})
	// Output:
	// Name,Num Calls
	// cudaMemcpy,1
}

// Group a trace's rows and aggregate them, like pandas' groupby: kernel
// launches per grid size in the GPU trace.
func ExampleResult_GroupBy() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	r, err := p.Run(context.Background(), "cuda_gpu_trace", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	kernels := r.Where("GrdX", "!=", nil)
	g := kernels.GroupBy("Name").Agg("count(*) as Launches", "sum(Duration) as Total").Sort("-Total")
	format.Write(os.Stdout, g, format.Spec{Name: "csv"})
	// Output:
	// Name,Launches,Total (ns)
	// "touch(float *, unsigned long)",6,92984242
	// "scale(float *, unsigned long, float)",18,984217
}

// Keep the rows that pass a test: kernels of the summary that took more
// than a millisecond in all.
func ExampleResult_Where() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	r, _ := p.Run(context.Background(), "cuda_gpu_kern_sum:base", nil)
	long := r.Where("Total Time", ">", 1_000_000)
	for i := 0; i < long.Len(); i++ {
		fmt.Println(long.Col("Name").Value(i), long.Col("Instances").Value(i))
	}
	// Output:
	// touch 6
}

// Stream a table's rows without loading it: the memcpy bytes of the sample.
func ExampleProfile_Scan() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	var n, bytes int64
	err := p.Scan(context.Background(), "CUPTI_ACTIVITY_KIND_MEMCPY", nil, []string{"bytes"}, func(r nsysx.ScanRow) error {
		n++
		bytes += r.Int(0)
		return nil
	})
	fmt.Println(n, "copies,", bytes, "bytes", err)
	// Output:
	// 16317 copies, 1946181632 bytes <nil>
}

// Round1 rounds as SQLite's round(x, 1) does, ties away from zero on the
// exact binary value (docs/stats.md §2.2): 0.15 is stored just below 0.15.
func ExampleRound1() {
	fmt.Println(nsysx.Round1(26.25), nsysx.Round1(-1.25), nsysx.Round1(0.15), nsysx.Round1(6609.65))
	// Output:
	// 26.3 -1.3 0.1 6609.6
}
