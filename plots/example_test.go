package plots_test

import (
	"context"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/plots"
)

// Parse reads a chart request as `nsysx plot` and `%plot` take it: the
// chart's name, its options, then the profiles.
func ExampleParse() {
	d, o, files, err := plots.Parse([]string{"kernel-hist", "--kernel", "gemm", "--bins", "20", "train.sqlite"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Name, o.Kernel, o.Bins, files)
	// Output:
	// kernel-hist gemm 20 [train.sqlite]
}

// Draw the top kernels of a profile and write the chart as PNG; Text is the
// data behind it, as a notebook's text/plain output shows it.
func ExampleKernels() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	c, err := plots.Kernels(context.Background(), p, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := c.PNG(io.Discard); err != nil { // or an os.File, or c.SVG, c.VegaLite
		fmt.Println(err)
	}
	fmt.Print(c.Text())
	// Output:
	// CUDA kernels by total GPU time
	// sample:sync · 2 kernels, 24 launches, 94.0 ms of GPU kernel time
	//
	//   99.0%     93.0 ms         6 launches  touch(float *, unsigned long)
	//    1.0%      984 µs        18 launches  scale(float *, unsigned long, float)
	// Bar: total GPU time of the kernel (sum over launches); label: that total and its share of all kernel time (nsys cuda_gpu_kern_sum).
}

// A profile without what a chart needs gives a chart whose Note says why
// (drawn as that message), not an error.
func ExampleNCCL() {
	p, _ := nsysx.OpenSample()
	defer p.Close()
	c, err := plots.NCCL(context.Background(), []*nsysx.Profile{p}, nil)
	fmt.Println(err)
	fmt.Println(c.Note)
	// Output:
	// <nil>
	// no NCCL kernels (short names starting with "nccl") in sample:sync
}

// ShortName makes labels of demangled C++ kernel names.
func ExampleShortName() {
	fmt.Println(plots.ShortName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, T2, T3)"))
	fmt.Println(plots.ShortName("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>(T2 *, const T1 *, int, int, int)"))
	// Output:
	// at::native::vectorized_elementwise_kernel
	// softmax_warp_forward
}
