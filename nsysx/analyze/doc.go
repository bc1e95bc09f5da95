// Package analyze holds the `nsys analyze` rules, one file each
// (rule_NAME.go registers its Report, with Rule set, through
// report.Register from init): the copy and synchronisation rules
// (cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync, cuda_api_sync)
// and the GPU gaps and utilisation rules (gpu_gaps, gpu_time_util), with
// the argument parsing, NVTX/time ranges and scans they share
// (rule_common.go, rule_gpu_ops.go). Package nsysx runs them
// (Profile.Analyze).
package analyze
