package recipe

import (
	"path/filepath"
	"testing"
)

// TestNCCLGPUProjSumGolden reproduces nccl_gpu_proj_sum on rank0+rank1.
func TestNCCLGPUProjSumGolden(t *testing.T) {
	res := runOn(t, "nccl_gpu_proj_sum", Defaults(), "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nccl_gpu_proj_sum")
	for _, tb := range []string{"rank_stats", "all_stats", "files"} {
		compareGolden(t, filepath.Join(dir, tb+".parquet"), res.Output.Table(tb))
	}
}
