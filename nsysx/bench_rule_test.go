package nsysx

import (
	"context"
	"os"
	"testing"
)

// ruleBenchFile is the benchmark profile (train tiled 50 times with
// shared/tools/nsys-tile.py); the benchmarks skip without it.
func ruleBenchFile(b *testing.B) string {
	f := os.Getenv("NSYSX_BENCH_FILE")
	if f == "" {
		f = "/tmp/train50.sqlite"
	}
	if _, err := os.Stat(f); err != nil {
		b.Skipf("benchmark profile %s not found (python3 shared/tools/nsys-tile.py train.sqlite %s 50)", f, f)
	}
	return f
}

// benchRule opens the profile and runs one rule per iteration, as one
// `nsysx analyze` process does.
func benchRule(b *testing.B, spec string) {
	path := ruleBenchFile(b)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := p.Analyze(context.Background(), spec)
		if err != nil || r.Skipped != "" {
			b.Fatal(err, r.Skipped)
		}
		p.Close()
	}
}

func BenchmarkRuleGPUGaps(b *testing.B)         { benchRule(b, "gpu_gaps") }
func BenchmarkRuleGPUTimeUtil(b *testing.B)     { benchRule(b, "gpu_time_util") }
func BenchmarkRuleCudaMemcpyAsync(b *testing.B) { benchRule(b, "cuda_memcpy_async") }
func BenchmarkRuleCudaMemcpySync(b *testing.B)  { benchRule(b, "cuda_memcpy_sync") }
func BenchmarkRuleCudaMemsetSync(b *testing.B)  { benchRule(b, "cuda_memset_sync") }
func BenchmarkRuleCudaAPISync(b *testing.B)     { benchRule(b, "cuda_api_sync") }
