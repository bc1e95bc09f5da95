package recipes

import "testing"

// TestOSRTSum checks osrt_sum on train+fixed against the raw OSRT_API rows
// and train's `nsys stats -r osrt_sum` counts, totals and extremes.
func TestOSRTSum(t *testing.T) {
	res := runOn(t, "osrt_sum", nil, "train", "fixed")
	f := res.Output.Table("rank_stats")
	for rank, prof := range []string{"fixed", "train"} {
		groups, _ := rawByName(t, openProfile(t, prof), "OSRT_API")
		checkRank(t, "osrt_sum", f, int64(rank), "Name", groups)
	}
	_, zero := rawByName(t, openProfile(t, "train"), "OSRT_API")
	same := func(s string) string { return s }
	checkStatsGolden(t, statsGolden(t, "train", "osrt_sum"), sumsBy(f, 1, "Name", same), "Name", "Num Calls", zero)
	checkAllStats(t, res)
}
