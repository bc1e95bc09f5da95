package format

import (
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/internal/benchmem"
)

// benchTrace opens the benchmark profile, runs the report and writes it as
// CSV, as `nsysx stats -f csv` does: the whole path from file to output,
// with the peak memory of the run (peak-MB).
func benchTrace(b *testing.B, spec string) {
	path := testutil.BenchFile(b)
	b.ReportAllocs()
	runtime.GC()
	peak := benchmem.StartPeak()
	for b.Loop() {
		p, err := nsysx.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := p.Stats(context.Background(), spec)
		if err != nil || r.Skipped != "" {
			b.Fatal(err, r.Skipped)
		}
		if err := Write(io.Discard, r, Spec{Name: "csv"}); err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
	peak.Report(b)
}

func BenchmarkWriteCudaGpuTrace(b *testing.B)     { benchTrace(b, "cuda_gpu_trace") }
func BenchmarkWriteCudaAPITrace(b *testing.B)     { benchTrace(b, "cuda_api_trace") }
func BenchmarkWriteNVTXPushPopTrace(b *testing.B) { benchTrace(b, "nvtx_pushpop_trace") }
func BenchmarkWriteNVTXGPUProjTrace(b *testing.B) { benchTrace(b, "nvtx_gpu_proj_trace") }
func BenchmarkWriteNVTXGPUProjSum(b *testing.B)   { benchTrace(b, "nvtx_gpu_proj_sum") }
