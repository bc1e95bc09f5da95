package nsysx

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// benchReport opens the profile and computes one report or rule per
// iteration, as one `nsysx stats` or `nsysx analyze` process does.
func benchReport(b *testing.B, spec string) { benchFiltered(b, spec, "") }

func BenchmarkCudaGpuKernSum(b *testing.B)    { benchReport(b, "cuda_gpu_kern_sum") }
func BenchmarkCudaAPISum(b *testing.B)        { benchReport(b, "cuda_api_sum") }
func BenchmarkCudaGpuMemTimeSum(b *testing.B) { benchReport(b, "cuda_gpu_mem_time_sum") }
func BenchmarkCudaKernExecSum(b *testing.B)   { benchReport(b, "cuda_kern_exec_sum") }
func BenchmarkCudaGpuTrace(b *testing.B)      { benchReport(b, "cuda_gpu_trace") }
func BenchmarkCudaAPIGpuSum(b *testing.B)     { benchReport(b, "cuda_api_gpu_sum") }
func BenchmarkCudaGpuKernGbSum(b *testing.B)  { benchReport(b, "cuda_gpu_kern_gb_sum") }
func BenchmarkCudaGpuSum(b *testing.B)        { benchReport(b, "cuda_gpu_sum") }
func BenchmarkCudaGpuMemSizeSum(b *testing.B) { benchReport(b, "cuda_gpu_mem_size_sum") }

// BenchmarkEveryReport runs each `nsys stats` report on the benchmark
// profile, one open and one report per iteration as one `nsysx stats`
// process does (BenchmarkEveryReport/cuda_api_sum ...), so that a
// regression in any report shows in review; the named benchmarks above
// are the same runs under shorter names.
// A report whose data the profile lacks is measured too (its SKIPPED path,
// as nsys prints it), with a skipped=1 metric.
func BenchmarkEveryReport(b *testing.B) {
	for _, r := range Reports() {
		b.Run(r.Name, func(b *testing.B) {
			path := testutil.BenchFile(b)
			b.ReportAllocs()
			skipped := 0
			for b.Loop() {
				p, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				res, err := p.Run(b.Context(), r.Name, nil)
				if err != nil {
					b.Fatal(err)
				}
				skipped = 0
				if res.Skipped != "" {
					skipped = 1
				}
				p.Close()
			}
			b.ReportMetric(float64(skipped), "skipped")
		})
	}
}
