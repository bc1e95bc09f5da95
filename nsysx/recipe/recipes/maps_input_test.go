package recipes

import (
	"errors"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
)

// TestMapsBadOptions: option values nsys's argument parser refuses are
// usage errors before any report is read.
func TestMapsBadOptions(t *testing.T) {
	cases := []struct {
		recipe string
		set    func(o *recipe.Options)
	}{
		{"cuda_gpu_time_util_map", func(o *recipe.Options) { o.Bins = 0 }},
		{"nccl_gpu_time_util_map", func(o *recipe.Options) { o.Bins = -3 }},
		{"mpi_gpu_time_util_map", func(o *recipe.Options) { o.Bins = 0 }},
		{"gpu_metric_util_map", func(o *recipe.Options) { o.Bins = 0 }},
		{"gpu_time_util", func(o *recipe.Options) { o.Chunks = 0 }},
		{"gpu_time_util", func(o *recipe.Options) { o.Chunks = 1001 }},
		{"gpu_metric_util_sum", func(o *recipe.Options) { o.Values = map[string]any{"per_kernel": true} }},
	}
	for _, c := range cases {
		o := recipe.Defaults()
		c.set(o)
		if _, err := tryRun(t, c.recipe, o, "train"); !errors.Is(err, recipe.ErrUsage) {
			t.Errorf("%s: %v, want a usage error", c.recipe, err)
		}
	}
}

// TestMapsNoData: valid reports without the data a recipe needs give no
// output (nsys's "No output generated."), not an error.
func TestMapsNoData(t *testing.T) {
	cases := []struct{ recipe, profile string }{
		{"nccl_gpu_time_util_map", "train"}, // no NCCL kernels
		{"nccl_gpu_overlap_trace", "train"},
		{"mpi_gpu_time_util_map", "rank0"}, // no MPI tables
		{"gpu_metric_util_map", "train"},   // no GPU metrics
		{"gpu_metric_util_sum", "train"},
		{"gpu_time_util", "rank0"}, // nothing below the threshold
	}
	for _, c := range cases {
		if _, err := tryRun(t, c.recipe, recipe.Defaults(), c.profile); !errors.Is(err, recipe.ErrNoData) {
			t.Errorf("%s on %s: %v, want no data", c.recipe, c.profile, err)
		}
	}
}
