package nsysx

import (
	"context"
	"os"
	"testing"
)

// benchFile is the benchmark profile: train tiled 50 times with
// shared/tools/nsys-tile.py (see README "Benchmarks").
func benchFile(b *testing.B) string {
	f := os.Getenv("NSYSX_BENCH_FILE")
	if f == "" {
		f = "/tmp/train50.sqlite"
	}
	if _, err := os.Stat(f); err != nil {
		b.Skipf("benchmark profile %s not found: make it with `make bench-data` (see README)", f)
	}
	return f
}

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
