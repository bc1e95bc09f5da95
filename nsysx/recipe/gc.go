package recipe

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The collector settings of a run. A run's maps allocate fast, and with
// the Go defaults (GOGC=100, no memory limit) the heap grows to twice the
// live data between collections. A command that owns its process asks Run
// and Result.Write to tune the collector (Options.TuneGC); library code
// never changes these process-wide settings on its own.

// GCPercent is the collector's GOGC during a run (see startGCPercent); 0
// leaves it alone.
var GCPercent = 50

// GCMinHeap is the least heap goal of a run (see gcTuner); 0 leaves the
// goal to GCPercent alone.
var GCMinHeap int64 = 32 << 20

// startGCPercent sets GCPercent for a run unless the process was started
// with GOGC set, and returns what restores the previous value. The default
// (100) lets the heap grow to twice the live data between collections;
// 50 keeps peak memory closer to what the maps in flight hold, for some
// more collector work on the spare cores. While the live heap is small a
// gcTuner raises the percent, so that the heap goal stays GCMinHeap.
func startGCPercent() (restore func()) {
	if GCPercent <= 0 || os.Getenv("GOGC") != "" {
		return func() {}
	}
	t := &gcTuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	prev := debug.SetGCPercent(gcPercentFor(t.live()))
	t.arm()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(prev)
	}
}

// gcTuner keeps the heap goal of a run at GCMinHeap or more: after each
// collection it sets the GC percent for the live heap it left
// (gcPercentFor). A run over a few reports whose maps hold a few
// megabytes each otherwise collects every 2-16 MB of allocation, fifty
// times in a 0.1 s run of cuda_api_sum over eight reports, each collection
// stopping all the cores and starting mark workers on them; a goal of
// 32 MB leaves a few. It is re-armed by a finalizer, which runs after
// every collection that finds the previous sentinel unreachable.
type gcTuner struct {
	mu      sync.Mutex
	stopped bool
	sample  []metrics.Sample
}

// gcSentinel is the object whose finalizer tells gcTuner a collection
// ended (a pointer in it keeps it out of the tiny allocator, whose blocks
// may hold a finalized object for several collections).
type gcSentinel struct{ _ *int }

// arm sets the finalizer of a new sentinel.
func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.stopped {
			return
		}
		debug.SetGCPercent(gcPercentFor(t.live()))
		t.arm()
	})
}

// live is the heap the last collection left live (0 before the first).
func (t *gcTuner) live() int64 {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(t.sample[0].Value.Uint64())
}

// gcPercentFor is the GC percent for a live heap of live bytes: GCPercent,
// or more when the goal it gives, live × (1 + percent/100), is below
// GCMinHeap (before the first collection, live 0, the runtime's goal is
// 4 MB × percent/100).
func gcPercentFor(live int64) int {
	const first = 4 << 20
	if live <= 0 {
		live = first
	}
	if live*int64(100+GCPercent)/100 >= GCMinHeap {
		return GCPercent
	}
	if live == first {
		return int(GCMinHeap * 100 / first)
	}
	return int(GCMinHeap*100/live) - 100
}

// GCFloor is the least soft memory limit a run sets (see gcLimit); 0 makes
// Run leave the Go runtime's limit alone. At 768 MiB nvtx_gpu_proj_trace
// over eight 189 MB reports (a live heap of 0.5-0.65 GB at its peak) peaks
// at 0.84-0.96 GB of RSS with 2 or 16 Ps, for about ten more collections
// and the same CPU time (1 GiB let it reach 1.08 GB).
var GCFloor int64 = 768 << 20

// gcLimit keeps the heap of a run close to what it holds live. Many maps in
// flight allocate fast, and the collector's default pacing (GOGC=100) lets
// the heap reach twice the live data; a soft limit (debug.SetMemoryLimit)
// of 1.5 times the live heap, at least GCFloor, keeps it lower at little
// cost. The limit follows the live heap as parts accumulate (update after
// each map), so it never binds below what the run needs. A process that
// has a limit already (GOMEMLIMIT) keeps it.
type gcLimit struct {
	prev, cur int64
	mu        sync.Mutex
	sample    []metrics.Sample
}

// startGCLimit sets the limit, or returns nil when it should not be set.
func startGCLimit() *gcLimit {
	prev := debug.SetMemoryLimit(-1)
	if GCFloor <= 0 || prev != math.MaxInt64 {
		return nil
	}
	g := &gcLimit{prev: prev, cur: GCFloor, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	debug.SetMemoryLimit(g.cur)
	return g
}

// update raises the limit to 1.5 times the live heap when that is higher.
func (g *gcLimit) update() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	metrics.Read(g.sample)
	if g.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if want := int64(g.sample[0].Value.Uint64()) * 3 / 2; want > g.cur {
		g.cur = want
		debug.SetMemoryLimit(want)
	}
}

// stop restores the process's limit.
func (g *gcLimit) stop() {
	if g != nil {
		debug.SetMemoryLimit(g.prev)
	}
}
