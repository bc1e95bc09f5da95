package recipe

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/model"
)

// TestInFlightBound: with InFlightBytes below two reports' estimate, Run
// maps one report at a time whatever the workers, and still maps them all;
// with room for every report, they run together.
func TestInFlightBound(t *testing.T) {
	inputs := testutil.Links(t, "rank0@a", "rank0@b", "rank0@c", "rank0@d")
	size := reportSize(inputs[0])
	if size <= 0 {
		t.Fatal("no size for", inputs[0])
	}
	for _, tc := range []struct {
		limit   int64
		wantMax int
	}{{size + size/2, 1}, {4 * size, 4}} {
		r, counts := countingRecipe(50*time.Millisecond, tc.wantMax)
		old := InFlightBytes
		InFlightBytes = tc.limit
		o := Defaults()
		o.Input, o.Workers = inputs, 4
		_, err := Run(context.Background(), r, o, nil)
		InFlightBytes = old
		if err != ErrNoData {
			t.Fatalf("limit %d: %v", tc.limit, err)
		}
		if top, maps := counts(); maps != 4 || top != tc.wantMax {
			t.Errorf("limit %d (report %d bytes): %d maps, at most %d at once; want 4, %d", tc.limit, size, maps, top, tc.wantMax)
		}
	}
}

// TestInFlightGrow: maps that start within the budget together and then
// grow their share (Report.Grow) to the whole budget go on one at a time,
// all of them (the growing maps do not wait for each other for ever).
func TestInFlightGrow(t *testing.T) {
	inputs := testutil.Links(t, "rank0@a", "rank0@b", "rank0@c", "rank0@d")
	size := reportSize(inputs[0])
	old := InFlightBytes
	InFlightBytes = 4 * size
	defer func() { InFlightBytes = old }()
	var mu sync.Mutex
	started, cur, top, maps := 0, 0, 0, 0
	r := &Recipe{Name: "test", MapCost: 1, Map: func(_ context.Context, rep *Report, _ *Options, _ any) (*Part, error) {
		mu.Lock()
		started++
		mu.Unlock()
		// wait (up to 5 s) for the four to have started at their estimate
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			mu.Lock()
			n := started
			mu.Unlock()
			if n == 4 {
				break
			}
		}
		rep.Grow(4)
		mu.Lock()
		cur, maps = cur+1, maps+1
		top = max(top, cur)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		cur--
		mu.Unlock()
		return nil, nil
	}, Reduce: func(context.Context, []*Part, *Options, any) (*Output, error) { return nil, nil }}
	o := Defaults()
	o.Input, o.Workers = inputs, 4
	done := make(chan error, 1)
	go func() { _, err := Run(context.Background(), r, o, nil); done <- err }()
	select {
	case err := <-done:
		if err != ErrNoData {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the growing maps wait for each other")
	}
	if started != 4 || maps != 4 || top != 1 {
		t.Errorf("%d maps started together, %d grew, at most %d at once grown; want 4, 4, 1", started, maps, top)
	}
}

// countingRecipe is a recipe whose maps take d (once hold of them have
// been in flight together) and yield no data; counts
// gives the most maps that ran at once and how many ran.
func countingRecipe(d time.Duration, hold int) (*Recipe, func() (top, maps int)) {
	var mu sync.Mutex
	cur, top, maps := 0, 0, 0
	r := &Recipe{Name: "test", Map: func(context.Context, *Report, *Options, any) (*Part, error) {
		mu.Lock()
		cur, maps = cur+1, maps+1
		top = max(top, cur)
		mu.Unlock()
		// wait (up to 5 s) for hold maps to be in flight at once, so that a
		// loaded machine's scheduling cannot make the most seen smaller
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			mu.Lock()
			n := top
			mu.Unlock()
			if n >= hold {
				break
			}
		}
		time.Sleep(d)
		mu.Lock()
		cur--
		mu.Unlock()
		return nil, nil
	}, Reduce: func(context.Context, []*Part, *Options, any) (*Output, error) { return nil, nil }}
	return r, func() (int, int) { mu.Lock(); defer mu.Unlock(); return top, maps }
}

// TestReportSize: a file's size, an export directory's files summed.
func TestReportSize(t *testing.T) {
	dir := t.TempDir()
	for name, n := range map[string]int{"A.parquet": 10, "sub/B.parquet": 32} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := reportSize(dir); got != 42 {
		t.Errorf("directory: %d bytes, want 42", got)
	}
	if got := reportSize(filepath.Join(dir, "A.parquet")); got != 10 {
		t.Errorf("file: %d bytes, want 10", got)
	}
	if got := reportSize(filepath.Join(dir, "missing")); got != 0 {
		t.Errorf("missing: %d bytes, want 0", got)
	}
}

// TestGCLimit: a run sets a soft limit of at least GCFloor and restores
// the process's; a limit the process has already is left alone.
func TestGCLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	debug.SetMemoryLimit(math.MaxInt64)
	g := startGCLimit()
	if got := debug.SetMemoryLimit(-1); g == nil || got < GCFloor || got == math.MaxInt64 {
		t.Fatalf("during a run the limit is %d, want ≥ %d", got, GCFloor)
	}
	g.update()
	g.stop()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after the run the limit is %d, want it restored", got)
	}
	debug.SetMemoryLimit(3 << 30)
	if g := startGCLimit(); g != nil {
		t.Error("a process limit (GOMEMLIMIT) was replaced")
	}
	if got := debug.SetMemoryLimit(-1); got != 3<<30 {
		t.Errorf("process limit became %d", got)
	}
}

// TestInFlightCap: however small the reports, at most MaxMapsInFlight maps
// run at once with the default budget, whatever the workers.
func TestInFlightCap(t *testing.T) {
	var names []string
	for i := 0; i < 3*MaxMapsInFlight; i++ {
		names = append(names, fmt.Sprintf("rank0@r%02d", i))
	}
	inputs := testutil.Links(t, names...)
	r, counts := countingRecipe(20*time.Millisecond, MaxMapsInFlight)
	o := Defaults()
	o.Input, o.Workers = inputs, 2*MaxMapsInFlight
	if _, err := Run(context.Background(), r, o, nil); err != ErrNoData {
		t.Fatal(err)
	}
	if top, _ := counts(); top != MaxMapsInFlight {
		t.Errorf("%d maps at once with %d workers, want %d", top, o.Workers, MaxMapsInFlight)
	}
}

// TestReportSizeRep: a .nsys-rep counts as the SQLite export beside it, or
// as repExportRatio times its size before the first export.
func TestReportSizeRep(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "a.nsys-rep")
	if err := os.WriteFile(rep, make([]byte, 10), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := reportSize(rep); got != 10*repExportRatio {
		t.Errorf("no export: %d bytes, want %d", got, 10*repExportRatio)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.sqlite"), make([]byte, 77), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := reportSize(rep); got != 77 {
		t.Errorf("with export: %d bytes, want 77", got)
	}
}

// TestMapCostNVTXFilter: under an NVTX filter a map is estimated as
// loading the NVTX composite (nvtxFilterCost bytes a byte), also for a
// recipe that streams its table; without one, the recipe's own estimate.
func TestMapCostNVTXFilter(t *testing.T) {
	const size = 1 << 30                          // large enough that the floor does not decide
	r := &Recipe{Name: "streamed", MapCost: 0.25} // a recipe that streams its table
	o := Defaults()
	if got, want := mapCost(r, o, size), int64(r.MapCost*size); got != want || r.MapCost >= 1 {
		t.Errorf("no filter: cost %d, want %d (MapCost %v, a streamed map)", got, want, r.MapCost)
	}
	o.FilterNVTX = &NVTXRange{}
	if got := mapCost(r, o, size); got != nvtxFilterCost*size {
		t.Errorf("--filter-nvtx: cost %d, want %d", got, int64(nvtxFilterCost*size))
	}
	o.FilterNVTX, o.FilterProjectedNVTX = nil, &NVTXRange{}
	if got := mapCost(r, o, size); got != nvtxFilterCost*size {
		t.Errorf("--filter-projected-nvtx: cost %d, want %d", got, int64(nvtxFilterCost*size))
	}
}

// TestSpillByBudget: when the in-flight budget admits fewer maps than
// there are reports, the parts are spilled as their maps finish even with
// more workers than reports (they would otherwise pile up beside the maps
// still running), and each map gets the cores of the maps admitted at
// once, not of the workers.
func TestSpillByBudget(t *testing.T) {
	inputs := testutil.Links(t, "rank0@a", "rank0@b", "rank0@c", "rank0@d")
	size := reportSize(inputs[0])
	old := InFlightBytes
	InFlightBytes = size + size/2 // one map at a time
	defer func() { InFlightBytes = old }()
	var spilled atomic.Int64
	spillHook = func(*Part) { spilled.Add(1) }
	defer func() { spillHook = nil }()
	held := 0
	r := spillRecipe(&held)
	mapOne := r.Map
	var cores atomic.Int64
	r.Map = func(ctx context.Context, rep *Report, o *Options, shared any) (*Part, error) {
		n, _ := model.CoresGiven(ctx)
		cores.Store(int64(n))
		return mapOne(ctx, rep, o, shared)
	}
	o := Defaults()
	o.Input, o.Workers, o.SpillParts, o.SpillDir = inputs, 8, true, t.TempDir()
	res, err := Run(context.Background(), r, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if held != 0 || spilled.Load() != int64(len(inputs)) {
		t.Errorf("%d parts held at the reduce, %d spilled; want 0, %d", held, spilled.Load(), len(inputs))
	}
	if got, want := cores.Load(), int64(runtime.GOMAXPROCS(0)); got != want {
		t.Errorf("a map got %d cores, want %d (one map admitted at a time)", got, want)
	}
	if got := mapsAdmitted(10, []int64{3, 4, 2}); got != 2 {
		t.Errorf("mapsAdmitted(10, largest 4) = %d, want 2", got)
	}
	if got := mapsAdmitted(0, []int64{3, 4, 2}); got != 3 {
		t.Errorf("mapsAdmitted without a budget = %d, want 3", got)
	}
}
