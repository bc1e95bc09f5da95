package nsysx_test

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// The idle breakdown is checked against an independent computation: the
// window is sampled every microsecond; a sample is idle when no kernel,
// memcpy or memset of the device covers it, and is labelled by painting
// each launching thread's calls onto its own sample grid. Times from the
// grid differ from exact ones by rounding at interval edges only.

const gridNs = 1000

type gridCall struct {
	s, e int64
	tid  int64
	name string
}

type gridModel struct {
	lo, hi   int64
	ops      [][2]int64
	launched []gridCall // the launch calls of launched ops, by op start
	opStart  []int64    // start of the op each launched entry belongs to
	paint    map[int64][]uint8
	busy     []bool
}

func gridCatOf(name string) uint8 {
	base := nsysx.StripAPIVersion(name)
	switch {
	case strings.HasSuffix(base, "Synchronize"):
		return 0
	case strings.HasPrefix(base, "cudaMemcpy") && !strings.HasSuffix(base, "Async"),
		strings.HasPrefix(base, "cudaMemset") && !strings.HasSuffix(base, "Async"):
		return 1
	case strings.Contains(base, "Launch"), strings.HasSuffix(base, "Async"):
		return 2
	}
	return 3
}

func loadGrid(t *testing.T, p *nsysx.Profile, osrt bool) *gridModel {
	t.Helper()
	g := &gridModel{paint: map[int64][]uint8{}}
	rt, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "globalTid", "correlationId", "nameId")
	if err != nil {
		t.Fatal(err)
	}
	byCorr := map[[2]int64]gridCall{}
	var calls []gridCall
	cats := []uint8{}
	for i := 0; i < rt.N; i++ {
		name, _ := p.String(context.Background(), rt.Col("nameId").Int(i))
		c := gridCall{rt.Col("start").Int(i), rt.Col("end").Int(i), rt.Col("globalTid").Int(i), name}
		calls, cats = append(calls, c), append(cats, gridCatOf(name))
		byCorr[[2]int64{c.tid >> 24, rt.Col("correlationId").Int(i)}] = c
	}
	type launched struct {
		start int64
		call  gridCall
	}
	var ls []launched
	for _, table := range []string{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"} {
		if !p.HasTable(table) {
			continue
		}
		k, err := p.Load(context.Background(), table, "start", "end", "globalPid", "correlationId")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < k.N; i++ {
			s, e := k.Col("start").Int(i), k.Col("end").Int(i)
			g.ops = append(g.ops, [2]int64{s, e})
			g.hi = max(g.hi, e)
			if c, ok := byCorr[[2]int64{k.Col("globalPid").Int(i) >> 24, k.Col("correlationId").Int(i)}]; ok {
				ls = append(ls, launched{s, c})
			}
		}
	}
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].start < ls[j].start })
	for _, l := range ls {
		g.opStart, g.launched = append(g.opStart, l.start), append(g.launched, l.call)
	}
	det, err := p.Load(context.Background(), "ANALYSIS_DETAILS", "duration")
	if err != nil {
		t.Fatal(err)
	}
	g.hi = max(g.hi, det.Col("duration").Int(0))
	if osrt {
		o, err := p.Load(context.Background(), "OSRT_API", "start", "end", "globalTid")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < o.N; i++ {
			calls = append(calls, gridCall{o.Col("start").Int(i), o.Col("end").Int(i), o.Col("globalTid").Int(i), ""})
			cats = append(cats, 4)
		}
	}
	g.paintThreads(calls, cats)
	return g
}

// paintThreads gives each launching thread a grid: the lowest category
// painted, 5 (busy) where no call ran, also before the thread's first and
// after its last call, except before the GPU's first operation and after
// its last: 6 (outside) there.
func (g *gridModel) paintThreads(calls []gridCall, cats []uint8) {
	n := int((g.hi - g.lo + gridNs - 1) / gridNs)
	workFirst, workLast := int64(math.MaxInt64), int64(math.MinInt64)
	for _, op := range g.ops {
		workFirst, workLast = min(workFirst, op[0]), max(workLast, op[1])
	}
	first, last := map[int64]int64{}, map[int64]int64{}
	for _, c := range calls {
		if f, ok := first[c.tid]; !ok || c.s < f {
			first[c.tid] = c.s
		}
		last[c.tid] = max(last[c.tid], c.e)
	}
	for _, l := range g.launched {
		if g.paint[l.tid] != nil {
			continue
		}
		grid := make([]uint8, n)
		for k := range grid {
			x := g.sample(k)
			grid[k] = 5
			if (x < first[l.tid] || x >= last[l.tid]) && (x < workFirst || x >= workLast) {
				grid[k] = 6
			}
		}
		g.paint[l.tid] = grid
	}
	for i, c := range calls {
		grid := g.paint[c.tid]
		if grid == nil {
			continue
		}
		for k := g.index(c.s); k < n && g.sample(k) < c.e; k++ {
			if g.sample(k) >= c.s && cats[i] < grid[k] {
				grid[k] = cats[i]
			}
		}
	}
}

func (g *gridModel) sample(k int) int64 { return g.lo + int64(k)*gridNs + gridNs/2 }

func (g *gridModel) index(t int64) int { return max(0, int((t-g.lo-gridNs/2)/gridNs)) }

// breakdown returns nanoseconds per category over [s, e).
func (g *gridModel) breakdown(s, e int64) [7]float64 {
	n := int((g.hi - g.lo + gridNs - 1) / gridNs)
	if g.busy == nil {
		g.busy = make([]bool, n)
		for _, op := range g.ops {
			for k := g.index(op[0]); k < n && g.sample(k) < op[1]; k++ {
				if g.sample(k) >= op[0] {
					g.busy[k] = true
				}
			}
		}
	}
	busy := g.busy
	var out [7]float64
	for k := g.index(s); k < n && g.sample(k) < e; k++ {
		x := g.sample(k)
		if busy[k] || x < s {
			continue
		}
		out[g.label(k, x)] += gridNs
	}
	return out
}

func (g *gridModel) label(k int, x int64) uint8 {
	j := sort.Search(len(g.opStart), func(i int) bool { return g.opStart[i] > x })
	if j == len(g.opStart) {
		return g.paint[g.launched[j-1].tid][k]
	}
	c := g.launched[j]
	if x >= c.s {
		if gridCatOf(c.name) == 1 {
			return 1
		}
		return 2
	}
	return g.paint[c.tid][k]
}

func TestIdleBreakdownIndependent(t *testing.T) {
	for _, name := range []string{"sync", "train", "fixed"} {
		t.Run(name, func(t *testing.T) {
			checkGrid(t, nsysxtest.Open(t, testutil.Profile(t, name)))
		})
	}
}

// checkGrid checks p's breakdown (one GPU, iterations found) against the
// grid, window by window, and returns it with the grid.
func checkGrid(t *testing.T, p *nsysx.Profile) (*nsysx.Idle, *gridModel) {
	t.Helper()
	idle, err := p.IdleBreakdown(context.Background(), nsysx.IdleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if idle.Skipped != "" || len(idle.Devices) != 1 {
		t.Fatalf("skipped %q, %d devices, want 1", idle.Skipped, len(idle.Devices))
	}
	g := loadGrid(t, p, true)
	spans := idle.Devices[0].Spans
	if len(spans) < 2 {
		t.Fatalf("%d spans: no iterations found", len(spans))
	}
	for _, sp := range spans {
		checkSpan(t, g, sp)
	}
	return idle, g
}

func checkSpan(t *testing.T, g *gridModel, sp nsysx.IdleSpan) {
	t.Helper()
	want := g.breakdown(sp.Start, sp.End)
	exactIdle := (sp.End - sp.Start) - unionIn(g.ops, sp.Start, sp.End)
	if sp.Idle != exactIdle {
		t.Errorf("%s/%d: idle %d ns, want %d (span minus the union of operations)", sp.Iteration, sp.Instance, sp.Idle, exactIdle)
	}
	var sum int64
	var shares float64
	for c, v := range sp.ByCat {
		sum += v
		shares += 100 * float64(v) / float64(sp.Idle)
		// A few microseconds per interval edge at most: 0.2 % of the span.
		if tol := 0.002*float64(sp.End-sp.Start) + 20*gridNs; math.Abs(float64(v)-want[c]) > tol {
			t.Errorf("%s/%d %s: %d ns, grid says %.0f", sp.Iteration, sp.Instance, nsysx.IdleCat(c), v, want[c])
		}
	}
	if sum != sp.Idle || math.Abs(shares-100) > 0.1 {
		t.Errorf("%s/%d: categories sum to %d ns (%.3f %%), idle %d", sp.Iteration, sp.Instance, sum, shares, sp.Idle)
	}
}

// unionIn is the length of the union of intervals inside [s, e).
func unionIn(ops [][2]int64, s, e int64) int64 {
	var iv [][2]int64
	for _, o := range ops {
		if a, b := max(o[0], s), min(o[1], e); a < b {
			iv = append(iv, [2]int64{a, b})
		}
	}
	sort.Slice(iv, func(i, j int) bool { return iv[i][0] < iv[j][0] })
	var total, end int64 = 0, math.MinInt64
	for _, x := range iv {
		if x[0] > end {
			total += x[1] - x[0]
			end = x[1]
		} else if x[1] > end {
			total += x[1] - end
			end = x[1]
		}
	}
	return total
}

// On sync, the 700 ms NVTX range host_stall is a usleep on the main thread:
// an OS runtime call; with noosrt, host busy outside traced calls.
func TestIdleBreakdownSyncStall(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "sync"))
	for _, noOSRT := range []bool{false, true} {
		idle, err := p.IdleBreakdown(context.Background(), nsysx.IdleOptions{Range: "host_stall", NoOSRT: noOSRT})
		if err != nil {
			t.Fatal(err)
		}
		spans := idle.Devices[0].Spans
		if len(spans) != 2 {
			t.Fatalf("%d spans, want the window and one host_stall", len(spans))
		}
		st := spans[1]
		if d := st.End - st.Start; d < 700_000_000 || st.Idle < d*999/1000 {
			t.Fatalf("host_stall: %d ns long, %d idle", d, st.Idle)
		}
		want, call := nsysx.IdleOSRT, "usleep"
		if noOSRT {
			want, call = nsysx.IdleHostBusy, ""
		}
		if got := st.ByCat[want]; got < st.Idle*999/1000 {
			t.Errorf("noosrt=%v: %s %d ns of %d idle", noOSRT, want, got, st.Idle)
		}
		ev := st.Evidence()
		if ev[0].Cat != want || ev[0].Detail != call || ev[0].Longest < 690_000_000 {
			t.Errorf("noosrt=%v: top evidence %+v", noOSRT, ev[0])
		}
		checkSpan(t, loadGrid(t, p, !noOSRT), st)
	}
}

// The report's rows: per device and window, the times sum to the idle time
// and the shares to 100 (each rounded to 0.1).
func TestIdleBreakdownReport(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "sync"))
	r, err := p.Stats(context.Background(), "gpu_idle_breakdown")
	if err != nil {
		t.Fatal(err)
	}
	type grp struct {
		idle, sum int64
		share     float64
		n         int
	}
	groups := map[string]*grp{}
	for i := 0; i < r.Len(); i++ {
		row := r.Row(i)
		k := row[1].String() + "/" + row[3].String()
		g := groups[k]
		if g == nil {
			g = &grp{idle: row[5].I}
			groups[k] = g
		}
		g.sum += row[8].I
		g.share += row[9].AsFloat()
		g.n++
	}
	if len(groups) != 7 {
		t.Errorf("%d groups, want the window and 6 steps", len(groups))
	}
	for k, g := range groups {
		if g.sum != g.idle || math.Abs(g.share-100) > 0.05*float64(g.n)+1e-9 {
			t.Errorf("%s: times sum to %d of %d, shares to %.1f", k, g.sum, g.idle, g.share)
		}
	}
	for _, spec := range []string{"gpu_idle_breakdown:view=evidence", "gpu_idle_breakdown:view=launch"} {
		if r, err := p.Stats(context.Background(), spec); err != nil || r.Len() == 0 {
			t.Errorf("%s: %v, %d rows", spec, err, r.Len())
		}
	}
	if _, err := p.Stats(context.Background(), "gpu_idle_breakdown:view=evidnce"); err == nil || !strings.Contains(err.Error(), "did you mean evidence") {
		t.Errorf("view=evidnce: %v", err)
	}
}

// A window filter gives the same breakdown as the same window cut out of
// the whole profile's, also when the GPU work is graph executions (the
// graph-trace rows are cut as kernels are).
func TestIdleBreakdownFiltered(t *testing.T) {
	for _, path := range []string{testutil.Profile(t, "train"), sqlitecopy.GraphTraced(t, "train", t.TempDir(), "train_graphs.sqlite")} {
		p := nsysxtest.Open(t, path)
		whole, err := p.IdleBreakdown(context.Background(), nsysx.IdleOptions{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := nsysx.ParseNVTXFilter("iteration 7")
		if err != nil {
			t.Fatal(err)
		}
		cut, err := p.IdleBreakdown(context.Background(), nsysx.IdleOptions{Filter: f})
		if err != nil {
			t.Fatal(err)
		}
		var want *nsysx.IdleSpan
		for i, sp := range whole.Devices[0].Spans {
			if sp.Iteration == "iteration 7" {
				want = &whole.Devices[0].Spans[i]
			}
		}
		got := cut.Devices[0].Spans[0]
		if want == nil || got.Start != want.Start || got.End != want.End || got.ByCat != want.ByCat {
			t.Errorf("%s: filtered %+v\nwant %+v", path, got.ByCat, want)
		}
	}
}

// Launch statistics against the raw tables: per kernel, its launch call by
// correlation id; totals over all kernel names.
func TestLaunchStatsIndependent(t *testing.T) {
	for _, name := range []string{"train", "bt"} {
		p, err := nsysx.Open(testutil.Profile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		rt, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "correlationId")
		if err != nil {
			t.Fatal(err)
		}
		call := map[int64][2]int64{}
		for i := 0; i < rt.N; i++ {
			c := rt.Col("correlationId").Int(i)
			s, e := rt.Col("start").Int(i), rt.Col("end").Int(i)
			if old, ok := call[c]; !ok || s < old[0] {
				call[c] = [2]int64{s, e}
			}
		}
		k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "correlationId")
		if err != nil {
			t.Fatal(err)
		}
		var want [5]int64 // kernels, launched, short, slow, long delay
		var queue int64
		for i := 0; i < k.N; i++ {
			want[0]++
			c, ok := call[k.Col("correlationId").Int(i)]
			if !ok {
				continue
			}
			s, e := k.Col("start").Int(i), k.Col("end").Int(i)
			want[1]++
			queue += s - c[1]
			for j, cond := range []bool{e-s < c[1]-c[0], c[1]-c[0] > 50_000, s-c[0] > 100_000} {
				if cond {
					want[2+j]++
				}
			}
		}
		stats, err := p.LaunchStats(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got [5]int64
		var gotQueue int64
		for _, s := range stats {
			for j, v := range []int64{s.Instances, s.Launched, s.Short, s.SlowLaunch, s.LongDelay} {
				got[j] += v
			}
			gotQueue += s.QueueTotal
		}
		if got != want || gotQueue != queue {
			t.Errorf("%s: kernels/launched/short/slow/long %v queue %d, want %v %d", name, got, gotQueue, want, queue)
		}
		p.Close()
	}
}

func TestIdleBreakdownRangeNotFound(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "sync"))
	r, err := p.Stats(context.Background(), "gpu_idle_breakdown:range=no_such_range")
	if err != nil || !strings.Contains(r.Skipped, `no NVTX range named "no_such_range"`) {
		t.Errorf("%v, SKIPPED %q", err, r.Skipped)
	}
	if _, err := p.Stats(context.Background(), "gpu_idle_breakdown:iter=("); err == nil || !strings.Contains(err.Error(), "not a regular expression") {
		t.Errorf("iter=(: %v", err)
	}
}
