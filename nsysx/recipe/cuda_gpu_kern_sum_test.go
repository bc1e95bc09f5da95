package recipe

import (
	"path/filepath"
	"testing"
)

// TestKernSumGolden runs cuda_gpu_kern_sum on both golden input sets and
// compares every output file with what nsys wrote.
func TestKernSumGolden(t *testing.T) {
	for _, set := range [][]string{{"train", "fixed"}, {"rank0", "rank1"}} {
		name := set[0] + "+" + set[1]
		t.Run(name, func(t *testing.T) {
			res := runOn(t, "cuda_gpu_kern_sum", nil, set...)
			dir := goldenDir(name, "cuda_gpu_kern_sum")
			for _, tbl := range []string{"rank_stats", "rank_stats_by_device", "all_stats", "files"} {
				compareGolden(t, filepath.Join(dir, tbl+".parquet"), res.Output.Table(tbl))
			}
		})
	}
}
