package nsysx

import "testing"

// BenchmarkRule runs each `nsys analyze` rule on the benchmark profile, one
// open and one rule per iteration as one `nsysx analyze` process does
// (BenchmarkRule/gpu_gaps ...).
func BenchmarkRule(b *testing.B) {
	for _, rule := range []string{"gpu_gaps", "gpu_time_util", "cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync", "cuda_api_sync"} {
		b.Run(rule, func(b *testing.B) { benchReport(b, rule) })
	}
}
