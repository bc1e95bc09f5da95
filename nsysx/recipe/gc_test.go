package recipe

import (
	"context"
	"math"
	"runtime/debug"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// gcDuringMap runs a one-report recipe whose map records the process's GC
// percent and memory limit while it runs (the settings are read by setting
// them, and put back at once).
func gcDuringMap(t *testing.T, tune bool) (percent int, limit int64) {
	t.Helper()
	r := &Recipe{Name: "gc", Map: func(context.Context, *Report, *Options, any) (*Part, error) {
		percent = debug.SetGCPercent(-1)
		debug.SetGCPercent(percent)
		limit = debug.SetMemoryLimit(-1)
		return nil, nil
	}, Reduce: func(context.Context, []*Part, *Options, any) (*Output, error) { return nil, nil }}
	o := Defaults()
	o.Input, o.TuneGC = testutil.Links(t, "rank0"), tune
	if _, err := Run(context.Background(), r, o, nil); err != ErrNoData {
		t.Fatal(err)
	}
	return percent, limit
}

// TestRunLeavesGC: library code sets no process-wide state. Without
// Options.TuneGC (the kernel's %nsys recipe) Run keeps the process's GC
// percent and memory limit during the run and after it; with it (the
// commands), Run sets GCPercent and a limit of at least GCFloor during the
// run and restores both afterwards.
func TestRunLeavesGC(t *testing.T) {
	t.Setenv("GOGC", "") // a GOGC of the environment would keep TuneGC from acting
	prevPercent := debug.SetGCPercent(137)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(prevPercent); debug.SetMemoryLimit(prevLimit) })

	percent, limit := gcDuringMap(t, false)
	if percent != 137 || limit != math.MaxInt64 {
		t.Errorf("without TuneGC, during the run: GC percent %d, memory limit %d; want 137 and no limit", percent, limit)
	}
	if got := debug.SetGCPercent(137); got != 137 {
		t.Errorf("without TuneGC, after the run: GC percent %d, want 137", got)
	}

	percent, limit = gcDuringMap(t, true)
	if percent != GCPercent || limit < GCFloor || limit == math.MaxInt64 {
		t.Errorf("with TuneGC, during the run: GC percent %d, memory limit %d; want %d and at least %d", percent, limit, GCPercent, GCFloor)
	}
	if got := debug.SetGCPercent(137); got != 137 {
		t.Errorf("with TuneGC, after the run: GC percent %d, want 137 restored", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with TuneGC, after the run: memory limit %d, want none restored", got)
	}
}
