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
