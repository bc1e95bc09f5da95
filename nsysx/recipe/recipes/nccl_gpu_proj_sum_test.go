package recipes

import (
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// TestNCCLGPUProjSumGolden reproduces nccl_gpu_proj_sum on rank0+rank1:
// rank_stats, all_stats, files and the .nsys-analysis.
func TestNCCLGPUProjSumGolden(t *testing.T) {
	res := runOn(t, "nccl_gpu_proj_sum", recipe.Defaults(), "rank0", "rank1")
	compareWritten(t, res, "rank0+rank1", "nccl_gpu_proj_sum", "rank_stats", "all_stats", "files")
}
