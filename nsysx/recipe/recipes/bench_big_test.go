package recipes

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// The big-input benchmarks run a recipe over NSYSX_BENCH_RECIPE_DIR (a
// directory of reports: e.g. eight copies of train tiled 24 times with
// tools/nsys-tile.py, about 140 MB each), with NSYSX_BENCH_WORKERS mappers
// (default: the CPUs). They skip without the directory. Besides time and
// allocations they report peak-heap-MB, the largest heap in use (HeapInuse
// sampled every few milliseconds) during one run.

func benchBig(b *testing.B, recipeName string, args ...string) {
	dir := os.Getenv("NSYSX_BENCH_RECIPE_DIR")
	if dir == "" {
		b.Skip("NSYSX_BENCH_RECIPE_DIR not set (a directory of big reports)")
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("NSYSX_BENCH_RECIPE_DIR: %v", err)
	}
	r, err := recipe.Lookup(recipeName)
	if err != nil {
		b.Fatal(err)
	}
	o, err := recipe.ParseArgs(r, append([]string{"--input", dir, "--output", filepath.Join(b.TempDir(), "out")}, args...))
	if err != nil {
		b.Fatal(err)
	}
	if w := os.Getenv("NSYSX_BENCH_WORKERS"); w != "" {
		if o.Workers, err = strconv.Atoi(w); err != nil {
			b.Fatalf("NSYSX_BENCH_WORKERS: %v", err)
		}
	}
	o.Strict = true
	peak := startPeakHeap()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := recipe.Run(context.Background(), r, o, nil); err != nil && err != recipe.ErrNoData {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
}

// startPeakHeap samples HeapInuse until the returned function is called,
// which gives the largest value seen.
func startPeakHeap() func() uint64 {
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		var m runtime.MemStats
		var top uint64
		for {
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
			select {
			case <-stop:
				done <- top
				return
			default:
				time.Sleep(5 * time.Millisecond)
			}
		}
	}()
	return func() uint64 { close(stop); return <-done }
}

func BenchmarkBigCudaGPUKernSum(b *testing.B)      { benchBig(b, "cuda_gpu_kern_sum") }
func BenchmarkBigCudaGPUKernHist(b *testing.B)     { benchBig(b, "cuda_gpu_kern_hist") }
func BenchmarkBigCudaAPISum(b *testing.B)          { benchBig(b, "cuda_api_sum") }
func BenchmarkBigCudaAPISync(b *testing.B)         { benchBig(b, "cuda_api_sync") }
func BenchmarkBigNVTXGPUProjTrace(b *testing.B)    { benchBig(b, "nvtx_gpu_proj_trace") }
func BenchmarkBigNCCLGPUOverlapTrace(b *testing.B) { benchBig(b, "nccl_gpu_overlap_trace") }
func BenchmarkBigCudaGPUTimeUtilMap(b *testing.B)  { benchBig(b, "cuda_gpu_time_util_map") }
func BenchmarkBigGPUTimeUtil(b *testing.B)         { benchBig(b, "gpu_time_util") }
func BenchmarkBigNVTXPace(b *testing.B)            { benchBig(b, "nvtx_pace", "--name", "forward") }
func BenchmarkBigNCCLSum(b *testing.B)             { benchBig(b, "nccl_sum") }
func BenchmarkBigNCCLGPUProjSum(b *testing.B)      { benchBig(b, "nccl_gpu_proj_sum") }
func BenchmarkBigMPIGPUTimeUtilMap(b *testing.B)   { benchBig(b, "mpi_gpu_time_util_map") }
func BenchmarkBigNVTXGPUProjPace(b *testing.B) {
	benchBig(b, "nvtx_gpu_proj_pace", "--name", "forward")
}
