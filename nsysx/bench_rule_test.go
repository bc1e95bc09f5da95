package nsysx

import "testing"

func BenchmarkRuleGPUGaps(b *testing.B)         { benchReport(b, "gpu_gaps") }
func BenchmarkRuleGPUTimeUtil(b *testing.B)     { benchReport(b, "gpu_time_util") }
func BenchmarkRuleCudaMemcpyAsync(b *testing.B) { benchReport(b, "cuda_memcpy_async") }
func BenchmarkRuleCudaMemcpySync(b *testing.B)  { benchReport(b, "cuda_memcpy_sync") }
func BenchmarkRuleCudaMemsetSync(b *testing.B)  { benchReport(b, "cuda_memset_sync") }
func BenchmarkRuleCudaAPISync(b *testing.B)     { benchReport(b, "cuda_api_sync") }
