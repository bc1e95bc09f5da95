package nsysx

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// benchRule opens the profile and runs one rule per iteration, as one
// `nsysx analyze` process does.
func benchRule(b *testing.B, spec string) {
	path := testutil.BenchFile(b)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := p.Analyze(spec)
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
