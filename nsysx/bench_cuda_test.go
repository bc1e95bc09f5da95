package nsysx

import "testing"

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
