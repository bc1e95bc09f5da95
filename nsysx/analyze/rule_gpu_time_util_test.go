package analyze

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/report"
)

// The verified example of the spec (docs/stats.md §5.8): ops [1000,1100] and [1900,2000],
// 30 chunks of ceil(1000/30) = 34 ns. Chunks 3..25 ([1102,1884)) are idle,
// chunk 26 ([1884,1918)) is 18/34 = 52.9% busy.
func TestGPUTimeUtilSpecExample(t *testing.T) {
	f := (&fx{}).kernels([5]any{1000, 1100, gpid(7), 0, 1}, [5]any{1900, 2000, gpid(7), 0, 1})
	p := f.profile(t)
	r := analyzeRule(t, p, "gpu_time_util")
	wantRows(t, r, "1,0.0,782,1102,7,0,1\n")
	if !r.IsRule || r.RowLimit != 50 {
		t.Errorf("IsRule %v RowLimit %d", r.IsRule, r.RowLimit)
	}
	if !strings.Contains(r.Advice, "below 50%%. Addressing") || !strings.HasSuffix(r.NoResult, "below 50%%.") {
		t.Errorf("texts: %q / %q", r.Advice, r.NoResult)
	}
	// One chunk: 200/1000 busy.
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=1"), "1,20.0,1000,1000,7,0,1\n")
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=1:threshold=20"), "")
	wantRows(t, analyzeRule(t, p, "gpu_time_util:rows=0"), "")
}

// chunks outside 1..1000 and a negative threshold are errors, the ranges
// the recipe accepts (RuleOptionRange; nsys's analyze took chunks=0
// and gave nothing).
func TestGPUTimeUtilChunksOption(t *testing.T) {
	p := (&fx{}).kernels([5]any{1000, 1100, gpid(7), 0, 1}).profile(t)
	analyzeRule(t, p, "gpu_time_util:chunks=1000")
	analyzeRule(t, p, "gpu_time_util:chunks=1:threshold=0")
	analyzeRule(t, p, "gpu_time_util:threshold=2147483647")
	for _, bad := range []string{"chunks=0", "chunks=1001", "chunks=-1", "chunks=x", "threshold=1.5", "threshold=-1", "threshold=2147483648", "rows=ten"} {
		_, err := report.Analyze(context.Background(), p, "gpu_time_util:"+bad)
		if !errors.Is(err, ErrBadOption) {
			t.Errorf("%s: err %v", bad, err)
		}
	}
	_, err := report.Analyze(context.Background(), p, "gpu_time_util:chunks=1001")
	if err == nil || !strings.Contains(err.Error(), "argument --chunks: value must be between 1 and 1000") {
		t.Errorf("chunks=1001: %v", err)
	}
	_, err = report.Analyze(context.Background(), p, "gpu_time_util:threshold=abc")
	if err == nil || !strings.Contains(err.Error(), "argument --threshold: invalid int value: 'abc'") {
		t.Errorf("threshold=abc: %v", err)
	}
	// nsys parses every option before filtering, but checks the chunks
	// range after: a bad number wins over a filter's SKIPPED, the range not.
	if _, err := report.Analyze(context.Background(), p, "gpu_time_util:threshold=abc:start=5:end=4"); !errors.Is(err, ErrBadOption) {
		t.Errorf("threshold=abc with start>end: %v", err)
	}
	r, err := report.Analyze(context.Background(), p, "gpu_time_util:chunks=5000:start=5:end=4")
	if err != nil || r.Skipped != "The start time cannot be greater than the end time." {
		t.Errorf("chunks=5000 with start>end: %v %q", err, r.Skipped)
	}
}

// A chunk is kept only when strictly below the threshold; consecutive kept
// chunks merge with a size-weighted mean, the last chunk being shorter.
func TestGPUTimeUtilStrictAndWeighted(t *testing.T) {
	p := (&fx{}).kernels([5]any{100, 125, gpid(7), 0, 1}, [5]any{175, 200, gpid(7), 0, 1}).profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=2"), "")
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=2:threshold=51"), "1,50.0,100,100,7,0,1\n")

	// size ceil(100/3) = 34: chunks of 34, 34 and 32 ns, 1 ns busy in the
	// first and last: (34·100/34 + 0 + 32·100/32) / 100 = 2.0.
	p = (&fx{}).kernels([5]any{100, 101, gpid(7), 0, 1}, [5]any{199, 200, gpid(7), 0, 1}).profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=3"), "1,2.0,100,100,7,0,1\n")
	// Utilisation adds up over concurrent ops and may pass 100.
	p = (&fx{}).kernels([5]any{100, 200, gpid(7), 0, 1}, [5]any{100, 200, gpid(7), 0, 1}).profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=1:threshold=201"), "1,200.0,100,100,7,0,1\n")
}

// The inner LIMIT keeps the first records in (group number, device, pid)
// order before ranking, not the lowest ones.
func TestGPUTimeUtilLimitTrap(t *testing.T) {
	p := (&fx{}).kernels(
		// device 0: chunk 0 [100,150) 2% busy (group number -1), chunk 1 busy
		[5]any{100, 101, gpid(7), 0, 1}, [5]any{150, 200, gpid(7), 0, 1},
		// device 1: chunk 0 busy, chunk 1 [150,200) idle (group number 0);
		// the zero-length op at 200 only stretches the span
		[5]any{100, 150, gpid(7), 1, 1}, [5]any{200, 200, gpid(7), 1, 1},
	).profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=2"), "1,0.0,50,150,7,1,1\n2,2.0,50,100,7,0,1\n")
	r := analyzeRule(t, p, "gpu_time_util:chunks=2:rows=1")
	wantRows(t, r, "1,2.0,50,100,7,0,1\n")
	if r.RowLimit != 1 {
		t.Errorf("RowLimit %d", r.RowLimit)
	}
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=2:rows=-1"), "1,0.0,50,150,7,1,1\n2,2.0,50,100,7,0,1\n")
}

// Ops with start <= 0 are not GPU operations; a NULL globalPid forms a group
// no op can match, so it reads 0% busy with an empty PID.
func TestGPUTimeUtilNullsAndZeroStart(t *testing.T) {
	p := (&fx{}).kernels([5]any{0, 5000, gpid(7), 0, 1}, [5]any{100, 200, nil, 0, 1}).profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=2"), "1,0.0,100,100,,0,1\n")
}

// Eligible profiler overhead inside a (pid, device) span counts as busy time.
func TestGPUTimeUtilOverhead(t *testing.T) {
	f := (&fx{}).kernels([5]any{100, 110, gpid(7), 0, 1}, [5]any{190, 200, gpid(7), 0, 1})
	f.table(tStrings, "id", "value").Add(1, "CUDA profiling overhead").Add(2, "Other overhead")
	ov := f.table("PROFILER_OVERHEAD", "start", "end", "globalTid", "nameId", "returnValue")
	ov.Add(120, 180, gtid(7, 9), 1, 0)
	p := f.profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=1:threshold=81"), "1,80.0,100,100,7,0,1\n")
	// A wrong name, another process, or an overhead touching the span's
	// bounds does not count.
	ov.Rows[0] = []any{120, 180, gtid(7, 9), 2, 0}
	wantRows(t, analyzeRule(t, (&fx{tabs: f.tabs}).profile(t), "gpu_time_util:chunks=1"), "1,20.0,100,100,7,0,1\n")
	ov.Rows[0] = []any{120, 180, gtid(8, 9), 1, 0}
	wantRows(t, analyzeRule(t, (&fx{tabs: f.tabs}).profile(t), "gpu_time_util:chunks=1"), "1,20.0,100,100,7,0,1\n")
	ov.Rows[0] = []any{100, 180, gtid(7, 9), 1, 0}
	wantRows(t, analyzeRule(t, (&fx{tabs: f.tabs}).profile(t), "gpu_time_util:chunks=1"), "1,20.0,100,100,7,0,1\n")
}

// The time filter (start=/end=) restricts the ops before the spans are cut.
func TestGPUTimeUtilWindow(t *testing.T) {
	p := (&fx{}).kernels([5]any{100, 200, gpid(7), 0, 1}, [5]any{1000, 1010, gpid(7), 0, 1},
		[5]any{5000, 5100, gpid(7), 0, 1}).profile(t)
	wantRows(t, analyzeRule(t, p, "gpu_time_util:chunks=1:start=150:end=1005"), "1,12.1,910,100,7,0,1\n") // 110 of 910 ns
	r, err := report.Analyze(context.Background(), p, "gpu_time_util:start=10:end=5")
	if err != nil || r.Skipped != "The start time cannot be greater than the end time." {
		t.Errorf("start>end: %v %q", err, r.Skipped)
	}
}

func TestGPURulesSkipWithoutOps(t *testing.T) {
	f := &fx{}
	f.table(tStrings, "id", "value").Add(1, "x")
	p := f.profile(t)
	for _, rule := range []string{"gpu_time_util", "gpu_gaps", "gpu-low-util", "gpu-starv"} {
		r, err := report.Analyze(context.Background(), p, rule)
		if err != nil || r.Skipped != "fx.sqlite could not be analyzed because it does not contain the required data. Does the application launch GPU operations?" {
			t.Errorf("%s: %v %q", rule, err, r.Skipped)
		}
	}
}
