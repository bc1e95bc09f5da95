package nsysx_test

import (
	"context"
	"fmt"
	"os"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// Open a profile, compute a report, print it as nsys would.
func Example() {
	p, err := nsysx.OpenSample() // or nsysx.Open("train.sqlite")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	ctx := context.Background() // in a notebook cell: the cell's ctx
	r, err := p.Stats(ctx, "cuda_gpu_kern_sum:base")
	if err != nil {
		fmt.Println(err)
		return
	}
	format.Write(os.Stdout, r, format.Spec{Name: "csv"})
	// Output:
	// Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name
	// 99.0,92984242,6,15497373.7,14751232.5,13754027,19401710,2078199.4,touch
	// 1.0,984217,18,54678.7,54975.5,52384,56063,872.8,scale
}

// Read a report's typed cells directly.
func ExampleResult() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	r, _ := p.Stats(context.Background(), "cuda_api_sum")
	names, calls := r.Col("Name"), r.Col("Num Calls")
	for i := 0; i < 3; i++ {
		fmt.Println(names.Value(i), calls.Value(i).I)
	}
	// Output:
	// cudaDeviceSynchronize 7
	// cudaMemcpy 18
	// cudaMemcpyAsync 6
}

// Run an nsys analyze rule; its advice comes with the result.
func ExampleProfile_Analyze() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	r, _ := p.Analyze(context.Background(), "gpu_gaps")
	fmt.Println(r.Title, r.Len(), "gap(s)")
	fmt.Println(r.Col("Duration").Value(0).I > 500_000_000)
	// Output:
	// GPU Gaps 1 gap(s)
	// true
}

// Load raw columns of an export table.
func ExampleProfile_Load() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	ctx := context.Background()
	k, _ := p.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "shortName")
	var busy int64
	for i := 0; i < k.N; i++ {
		busy += k.Col("end").Ints[i] - k.Col("start").Ints[i]
	}
	name, _ := p.String(ctx, k.Col("shortName").Ints[0])
	fmt.Println(k.N, "kernels,", busy, "ns; first:", name)
	// Output:
	// 24 kernels, 93968459 ns; first: scale
}
