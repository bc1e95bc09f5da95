package recipe

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

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
// commands), Run sets GCPercent or more (gcTuner) and a limit of at least
// GCFloor during the run and restores both afterwards.
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
	if percent < GCPercent || limit < GCFloor || limit == math.MaxInt64 {
		t.Errorf("with TuneGC, during the run: GC percent %d, memory limit %d; want at least %d and at least %d", percent, limit, GCPercent, GCFloor)
	}
	if got := debug.SetGCPercent(137); got != 137 {
		t.Errorf("with TuneGC, after the run: GC percent %d, want 137 restored", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with TuneGC, after the run: memory limit %d, want none restored", got)
	}
}

// TestGCPercentFor: the percent gcTuner sets gives a heap goal,
// live × (1 + percent/100), of GCMinHeap (within a percent's rounding)
// while GCPercent would give less, and is GCPercent from there on; before
// the first collection the goal is the runtime's 4 MB × percent/100.
func TestGCPercentFor(t *testing.T) {
	defer func(p int, m int64) { GCPercent, GCMinHeap = p, m }(GCPercent, GCMinHeap)
	GCPercent, GCMinHeap = 50, 32<<20
	if p := gcPercentFor(0); int64(4<<20)*int64(p)/100 != GCMinHeap {
		t.Errorf("before the first collection: percent %d, goal %d, want %d", p, int64(4<<20)*int64(p)/100, GCMinHeap)
	}
	for _, live := range []int64{1 << 10, 1 << 20, 5 << 20, 21 << 20, 22 << 20, 64 << 20, 1 << 30} {
		p := gcPercentFor(live)
		goal := live * int64(100+p) / 100
		switch {
		case live*150/100 >= GCMinHeap:
			if p != GCPercent {
				t.Errorf("live %d: percent %d, want GCPercent %d", live, p, GCPercent)
			}
		case goal > GCMinHeap || GCMinHeap-goal > live/100:
			t.Errorf("live %d: percent %d gives a goal of %d, want %d", live, p, goal, GCMinHeap)
		}
	}
	GCMinHeap = 0
	if p := gcPercentFor(1 << 10); p != GCPercent {
		t.Errorf("GCMinHeap 0: percent %d, want %d", p, GCPercent)
	}
}

// TestGCTunerFollowsCollections: after a collection the tuner sets the
// percent for the live heap that collection left (higher than GCPercent
// for this test's small heap), and after restore it sets nothing more.
func TestGCTunerFollowsCollections(t *testing.T) {
	t.Setenv("GOGC", "")
	prev := debug.SetGCPercent(137)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	restore := startGCPercent()
	debug.SetGCPercent(GCPercent) // what the tuner must raise again
	tuned := func() int {
		for range 200 {
			runtime.GC()
			if p := debug.SetGCPercent(GCPercent); p != GCPercent {
				return p
			}
			time.Sleep(time.Millisecond) // the finalizer runs on a goroutine of its own
		}
		return GCPercent
	}
	if p := tuned(); p <= GCPercent {
		t.Fatalf("after collections: GC percent %d, want more than %d for a small heap", p, GCPercent)
	}
	restore()
	if p := debug.SetGCPercent(137); p != 137 {
		t.Errorf("after restore: GC percent %d, want 137", p)
	}
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if p := debug.SetGCPercent(137); p != 137 {
		t.Errorf("collections after restore: GC percent %d, want 137 kept", p)
	}
}
