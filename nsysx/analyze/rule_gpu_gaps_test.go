package analyze

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/report"
)

const ms = 1000000

// The limit trap (docs/stats.md §5.7): with 120 gaps growing over time, the default
// rows=50 ranks the 50 earliest gaps, not the 50 longest.
func TestGPUGapsLimitTrap(t *testing.T) {
	var ops [][5]any
	var gapStart []int64 // end of op i = start of gap i
	t0 := int64(1000)
	for i := 0; i <= 120; i++ {
		ops = append(ops, [5]any{t0, t0 + 10, gpid(7), 0, 1})
		gapStart = append(gapStart, t0+10)
		t0 += 10 + int64(600+i)*ms
	}
	p := (&fx{}).kernels(ops...).profile(t)
	row := func(n, i int) string {
		return fmt.Sprintf("%d,%d,%d,7,0,1\n", n, int64(600+i)*ms, gapStart[i])
	}
	var want strings.Builder
	for n := 1; n <= 50; n++ {
		want.WriteString(row(n, 50-n))
	}
	r := analyzeRule(t, p, "gpu_gaps")
	wantRows(t, r, want.String())
	if r.RowLimit != 50 || !r.IsRule {
		t.Errorf("RowLimit %d IsRule %v", r.RowLimit, r.IsRule)
	}
	want.Reset()
	for n := 1; n <= 120; n++ {
		want.WriteString(row(n, 120-n))
	}
	wantRows(t, analyzeRule(t, p, "gpu_gaps:rows=-1"), want.String())
	wantRows(t, analyzeRule(t, p, "gpu_gaps:rows=0"), "")
	wantRows(t, analyzeRule(t, p, "gpu_gaps:rows=1"), row(1, 0))
	wantRows(t, analyzeRule(t, p, "gpu_gaps:rows=2:gap=615"), row(1, 17)+row(2, 16))
}

// Starts and ends are ranked separately (the spec's diagram): an op inside
// another closes no gap, and the gap's ids are those of the op owning the end.
func TestGPUGapsPairing(t *testing.T) {
	p := (&fx{}).kernels(
		[5]any{100, 1000, gpid(7), 0, 5}, // a
		[5]any{200, 500, gpid(7), 0, 6},  // b, inside a
		[5]any{2000, 3000, gpid(7), 0, 7},
	).profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_gaps:gap=0"), "1,1000,1000,7,0,5\n")
}

// The threshold is compared strictly, in ms, and shows in the texts.
func TestGPUGapsStrict(t *testing.T) {
	p := (&fx{}).kernels(
		[5]any{100, 200, gpid(7), 0, 1},
		[5]any{200 + 1*ms, 300 + 1*ms, gpid(7), 0, 1},     // gap of exactly 1 ms
		[5]any{300 + 2*ms + 1, 400 + 2*ms, gpid(7), 0, 1}, // gap of 1 ms + 1 ns
	).profile(t)
	r := analyzeRule(t, p, "gpu_gaps:gap=1")
	wantRows(t, r, fmt.Sprintf("1,%d,%d,7,0,1\n", 1*ms+1, 300+1*ms))
	if !strings.HasPrefix(r.Advice, "The following are ranges where a GPU is idle for more than 1ms. ") ||
		r.NoResult != "There were no problems detected with GPU utilization. GPU was not found to be idle for more than 1ms." {
		t.Errorf("texts: %q / %q", r.Advice, r.NoResult)
	}
	// Equal durations rank by start; gap=0 keeps any positive gap.
	wantRows(t, analyzeRule(t, p, "gpu_gaps:gap=0"), fmt.Sprintf("1,%d,%d,7,0,1\n2,%d,200,7,0,1\n", 1*ms+1, 300+1*ms, 1*ms))
	// The largest gap the recipe takes (RuleOptionRange) finds none.
	wantRows(t, analyzeRule(t, p, "gpu_gaps:gap=2147483647"), "")
	// Negative gaps and gaps beyond it are refused, as by the recipe.
	for _, bad := range []string{"gap=-5", "gap=2147483648", "gap=99999999999999"} {
		if _, err := report.Analyze(context.Background(), p, "gpu_gaps:"+bad); !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "value must be between 0 and 2147483647") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// Ops with equal ends rank in union order: kernels, then memcpys, then
// memsets, so the gap after two ops ending together belongs to the memcpy.
func TestGPUGapsEndTies(t *testing.T) {
	f := (&fx{}).kernels([5]any{100, 500, gpid(7), 0, 1}, [5]any{1000, 1100, gpid(7), 0, 1})
	f.table(tMemcpy, "start", "end", "deviceId", "contextId", "globalPid").Add(200, 500, 0, 2, gpid(7))
	wantRows(t, analyzeRule(t, f.profile(t), "gpu_gaps:gap=0"), "1,500,500,7,0,2\n")
}

// Per (pid, device) spans; a NULL globalPid never makes a gap; overhead
// rows of the process fill gaps and carry the group's ids.
func TestGPUGapsGroupsAndOverhead(t *testing.T) {
	f := (&fx{}).kernels(
		[5]any{100, 200, gpid(8), 1, 3}, [5]any{1000, 1100, gpid(8), 1, 3},
		[5]any{100, 200, gpid(7), 0, 1}, [5]any{700, 800, gpid(7), 0, 1},
		[5]any{100, 200, nil, 0, 1}, [5]any{5000, 5100, nil, 0, 1},
	)
	p := f.profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_gaps:gap=0"), "1,800,200,8,1,3\n2,500,200,7,0,1\n")
	// Without PROFILER_OVERHEAD names in StringIds nothing changes; with one,
	// overhead [300,900] of pid 8 splits the 800 ns gap of device 1.
	f.table(tStrings, "id", "value").Add(1, "CUDA profiling data flush overhead")
	f.table("PROFILER_OVERHEAD", "start", "end", "globalTid", "nameId", "returnValue").Add(300, 900, gtid(8, 8), 1, 0)
	wantRows(t, analyzeRule(t, f.profile(t), "gpu_gaps:gap=0"), "1,500,200,7,0,1\n2,100,200,8,1,3\n3,100,900,8,1,3\n")
}
