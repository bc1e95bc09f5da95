package recipe

import (
	"path/filepath"
	"testing"
)

// TestNVTXGPUProjSumGolden reproduces nsys's nvtx_gpu_proj_sum on
// train+fixed: rank_stats (29 260 rows), all_stats and files.
func TestNVTXGPUProjSumGolden(t *testing.T) {
	res := runOn(t, "nvtx_gpu_proj_sum", Defaults(), "train", "fixed")
	dir := goldenDir("train+fixed", "nvtx_gpu_proj_sum")
	for _, tb := range []string{"rank_stats", "all_stats", "files"} {
		compareGolden(t, filepath.Join(dir, tb+".parquet"), res.Output.Table(tb))
	}
}

// TestNCCLGPUProjSumGolden reproduces nccl_gpu_proj_sum on rank0+rank1.
func TestNCCLGPUProjSumGolden(t *testing.T) {
	res := runOn(t, "nccl_gpu_proj_sum", Defaults(), "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nccl_gpu_proj_sum")
	for _, tb := range []string{"rank_stats", "all_stats", "files"} {
		compareGolden(t, filepath.Join(dir, tb+".parquet"), res.Output.Table(tb))
	}
}

// TestNVTXGPUProjTraceGolden reproduces nvtx_gpu_proj_trace on
// rank0+rank1: trace (680 rows) and files.
func TestNVTXGPUProjTraceGolden(t *testing.T) {
	res := runOn(t, "nvtx_gpu_proj_trace", Defaults(), "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nvtx_gpu_proj_trace")
	for _, tb := range []string{"trace", "files"} {
		compareGolden(t, filepath.Join(dir, tb+".parquet"), res.Output.Table(tb))
	}
}

// TestNVTXPaceGolden reproduces nvtx_pace --name forward on rank0+rank1.
func TestNVTXPaceGolden(t *testing.T) {
	o := Defaults()
	o.Name = "forward"
	res := runOn(t, "nvtx_pace", o, "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nvtx_pace")
	for _, tb := range []string{"stats", "pace_start", "pace_end", "pace_duration", "pace_duration_accum",
		"pace_delta", "pace_delta_accum", "pace_delta_stats", "files"} {
		compareGolden(t, filepath.Join(dir, tb+".parquet"), res.Output.Table(tb))
	}
}
