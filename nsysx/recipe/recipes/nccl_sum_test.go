package recipes

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// TestNCCLSumGolden compares nccl_sum on rank0+rank1 with nsys's files
// (float64 Min/Max/Sum: NVTX end has NULLs).
func TestNCCLSumGolden(t *testing.T) {
	res := runOn(t, "nccl_sum", nil, "rank0", "rank1")
	compareWritten(t, res, "rank0+rank1", "nccl_sum", "rank_stats", "all_stats", "files")
	if res.Output.Table("rank_stats_by_device") != nil {
		t.Error("nccl_sum wrote rank_stats_by_device")
	}
}

// TestNoNCCL: the streamed check agrees with the kernels as loaded (any
// short name starting with "nccl") on every real profile.
func TestNoNCCL(t *testing.T) {
	some := map[bool]bool{}
	for _, prof := range testutil.Profiles {
		p := openProfile(t, prof)
		k, err := composite.LoadKernelCols(t.Context(), p, composite.KernelShort)
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for i := range k.ShortName {
			has = has || isNCCL(k, i)
		}
		if got := noNCCL(t.Context(), p); got != !has {
			t.Errorf("%s: noNCCL %v, but the loaded kernels have NCCL ones: %v", prof, got, has)
		}
		some[has] = true
	}
	if !some[true] || !some[false] {
		t.Fatalf("profiles with and without NCCL kernels: %v", some)
	}
}
