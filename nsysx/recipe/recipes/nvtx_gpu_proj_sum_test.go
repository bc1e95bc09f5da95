package recipes

import (
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// TestNVTXGPUProjSumGolden reproduces nsys's nvtx_gpu_proj_sum on
// train+fixed: rank_stats (29 260 rows), all_stats, files and the
// .nsys-analysis (two notebooks).
func TestNVTXGPUProjSumGolden(t *testing.T) {
	res := runOn(t, "nvtx_gpu_proj_sum", recipe.Defaults(), "train", "fixed")
	if n := res.Output.Table("rank_stats").Rows(); n != 29260 {
		t.Errorf("rank_stats has %d rows, want 29 260", n)
	}
	compareWritten(t, res, "train+fixed", "nvtx_gpu_proj_sum", "rank_stats", "all_stats", "files")
}
