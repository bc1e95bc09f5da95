package nsysx

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/nsysx/internal/benchmem"
)

// benchFile is the benchmark profile: train tiled 50 times with
// shared/tools/nsys-tile.py (see README "Benchmarks").
func benchFile(b *testing.B) string { return benchmem.File(b) }

func benchReport(b *testing.B, spec string) {
	path := benchFile(b)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := p.Stats(context.Background(), spec)
		if err != nil || r.Skipped != "" {
			b.Fatal(err, r.Skipped)
		}
		p.Close()
	}
}

func BenchmarkCudaGpuKernSum(b *testing.B)    { benchReport(b, "cuda_gpu_kern_sum") }
func BenchmarkCudaAPISum(b *testing.B)        { benchReport(b, "cuda_api_sum") }
func BenchmarkCudaGpuMemTimeSum(b *testing.B) { benchReport(b, "cuda_gpu_mem_time_sum") }
func BenchmarkCudaKernExecSum(b *testing.B)   { benchReport(b, "cuda_kern_exec_sum") }
func BenchmarkCudaGpuTrace(b *testing.B)      { benchReport(b, "cuda_gpu_trace") }
