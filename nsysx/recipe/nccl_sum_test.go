package recipe

import "testing"

// TestNCCLSumGolden compares nccl_sum on rank0+rank1 with nsys's files
// (float64 Min/Max/Sum: NVTX end has NULLs).
func TestNCCLSumGolden(t *testing.T) {
	res := runOn(t, "nccl_sum", nil, "rank0", "rank1")
	compareWritten(t, res, "rank0+rank1", "nccl_sum", "rank_stats", "all_stats", "files")
	if res.Output.Table("rank_stats_by_device") != nil {
		t.Error("nccl_sum wrote rank_stats_by_device")
	}
}
