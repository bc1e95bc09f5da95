package recipe

import (
	"path/filepath"
	"testing"
)

// TestHeatmapGolden runs the kernel heatmaps on the golden input sets and
// compares analysis.parquet and files.parquet with what nsys wrote.
func TestHeatmapGolden(t *testing.T) {
	cases := []struct {
		recipe string
		set    []string
	}{
		{"cuda_gpu_time_util_map", []string{"train", "fixed"}},
		{"cuda_gpu_time_util_map", []string{"rank0", "rank1"}},
		{"nccl_gpu_time_util_map", []string{"rank0", "rank1"}},
	}
	for _, c := range cases {
		name := c.set[0] + "+" + c.set[1]
		t.Run(c.recipe+"/"+name, func(t *testing.T) {
			res := runOn(t, c.recipe, nil, c.set...)
			dir := goldenDir(name, c.recipe)
			for _, tbl := range []string{"analysis", "files"} {
				compareGolden(t, filepath.Join(dir, tbl+".parquet"), res.Output.Table(tbl))
			}
		})
	}
}

// TestNCCLOverlapGolden compares rank_trace (7240 kernels), grouped_trace
// and files with nsys's nccl_gpu_overlap_trace on rank0+rank1.
func TestNCCLOverlapGolden(t *testing.T) {
	res := runOn(t, "nccl_gpu_overlap_trace", nil, "rank0", "rank1")
	dir := goldenDir("rank0+rank1", "nccl_gpu_overlap_trace")
	for _, tbl := range []string{"rank_trace", "grouped_trace", "files"} {
		compareGolden(t, filepath.Join(dir, tbl+".parquet"), res.Output.Table(tbl))
	}
}
