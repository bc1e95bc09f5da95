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
