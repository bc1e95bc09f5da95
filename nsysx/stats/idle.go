package stats

// GPU idle-time breakdown (an nsysx analysis; nsys has none): each GPU's idle
// time, measured on the union of all its streams (kernels, memcpys and
// memsets of every process), is split by what the host was doing. The host
// thread that matters for an idle instant is the one that launched the GPU's
// next operation (the GPU waits for it); at the end of the window, the one
// that launched the last operation. See README.md, "Why the GPU is idle".

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// IdleCat is what the host was doing while a GPU was idle.
type IdleCat uint8

// The idle categories. The time from the start of the call that launches
// the next operation to that operation's start is IdleLaunch (IdleCopy for a
// synchronous copy), whatever the thread does meanwhile (a sync call after
// an asynchronous launch); before it, the thread's calls count in this order
// (a thread inside a synchronisation call and an OS runtime call at once
// counts as syncing).
const (
	IdleSync      IdleCat = iota // in a CUDA synchronisation call
	IdleCopy                     // in a synchronous memcpy/memset call
	IdleLaunch                   // launching the next operation, or it is queued
	IdleOtherCUDA                // in another CUDA API call (malloc, free, ...)
	IdleOSRT                     // in an OS runtime call (I/O, locks, sleep)
	IdleHostBusy                 // in no traced call: host compute, Python
	IdleOutside                  // before the device's first or after its last GPU work, the thread untraced
	NumIdleCats
)

var idleCatNames = [NumIdleCats]string{"sync call", "synchronous copy", "launching", "other CUDA call",
	"OS runtime call", "host busy outside traced calls", "before first / after last GPU work"}

// String is the category's label as the report prints it.
func (c IdleCat) String() string {
	if c < NumIdleCats {
		return idleCatNames[c]
	}
	return fmt.Sprintf("IdleCat(%d)", c)
}

// iterationMatch matches the NVTX range names of training loops: "iteration
// 12", "iter_3", "step 7", "batch #2", or just "step".
const iterationMatch = `(?i)^(iteration|iter|step|batch|train_step|training_step)([ _#:=-]*\d+)?$`

// IdleOptions configures Profile.IdleBreakdown.
type IdleOptions struct {
	Iterations string  // regexp of the iteration NVTX range names ("": "iteration 12", "iter_3", "step 7", "batch #2", "step"...)
	Range      string  // exact iteration range name; wins over Iterations
	NoOSRT     bool    // ignore OS runtime calls (their time becomes host busy)
	Filter     *Filter // optional time or NVTX window
}

// IdlePiece is one stretch of a GPU's idle time with one explanation.
type IdlePiece struct {
	Start, End int64
	Cat        IdleCat
	Detail     string // the API or OS call ("cudaStreamSynchronize", "in cudaLaunchKernel", "usleep")
	Thread     int64  // globalTid of the responsible host thread, -1 when unknown
}

// IdleSpan is one GPU's idle time over a window (the whole profile or one
// iteration), split by category.
type IdleSpan struct {
	Iteration string // NVTX range name, "" for the whole window
	Instance  int    // 0-based index among the matched ranges in the window, -1 for the whole window
	Start     int64
	End       int64
	Idle      int64              // ns without any GPU operation running
	ByCat     [NumIdleCats]int64 // Idle split by category (sums to Idle)
	Pieces    []IdlePiece        // the idle pieces clipped to the window
}

// IdleDevice is one GPU's breakdown: the whole window first, then each
// iteration in start order.
type IdleDevice struct {
	Device int64
	Spans  []IdleSpan
}

// Idle is the result of Profile.IdleBreakdown.
type Idle struct {
	Devices []IdleDevice
	Skipped string // why there is nothing to break down ("" when there is)
	Note    string // what the reader should know about what counted as GPU work (CUDA graphs traced whole), "" when nothing
}

// IdleBreakdown splits each GPU's idle time by what the host was doing.
func IdleBreakdown(ctx context.Context, p *model.Profile, o IdleOptions) (*Idle, error) {
	return report.RunTyped(ctx, p, "gpu_idle_breakdown", map[string]string{}, o.Filter,
		func(msg string) *Idle { return &Idle{Skipped: msg} },
		func(c *Ctx) (*Idle, error) { return idleBreakdown(c, o) })
}

func idleBreakdown(c *Ctx, o IdleOptions) (*Idle, error) {
	if !c.Has(tKernel) && !c.Has(tMemcpy) && !c.Has(tMemset) && !c.Has(tGraphTrace) {
		return &Idle{Skipped: c.Path() + " does not contain CUDA kernel or memory operation data (record them with nsys profile --trace=cuda)."}, nil
	}
	if !c.Has(events.TableRuntime) {
		return &Idle{Skipped: c.Path() + " does not contain CUDA API data (record it with nsys profile --trace=cuda)."}, nil
	}
	match, err := iterationMatcher(o)
	if err != nil {
		return nil, err
	}
	ops, err := idleOps(c)
	if err != nil {
		return nil, err
	}
	h, err := loadHost(c, !o.NoOSRT)
	if err != nil {
		return nil, err
	}
	lo, hi, err := idleWindow(c, ops)
	if err != nil {
		return nil, err
	}
	iters, err := iterationRanges(c, match, o.Range, lo, hi)
	if err != nil {
		return nil, err
	}
	if o.Range != "" && len(iters) == 0 {
		return &Idle{Skipped: fmt.Sprintf("%s has no NVTX range named %q in the window.", c.Path(), o.Range)}, nil
	}
	out := &Idle{}
	if ops.graphs > 0 {
		out.Note = GraphTraceNote(ops.graphs)
	}
	for _, d := range ops.devices() {
		pieces := h.devicePieces(ops.byDev[d], lo, hi)
		dev := IdleDevice{Device: d, Spans: []IdleSpan{clipSpan(pieces, "", -1, lo, hi)}}
		for i, w := range h.gpuWindows(iters, ops.byDev[d], hi) {
			dev.Spans = append(dev.Spans, clipSpan(pieces, iters[i].name, i, w[0], w[1]))
		}
		out.Devices = append(out.Devices, dev)
	}
	return out, nil
}

func iterationMatcher(o IdleOptions) (*regexp.Regexp, error) {
	if o.Range != "" {
		return nil, nil
	}
	expr := o.Iterations
	if expr == "" {
		expr = iterationMatch
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("%w for gpu_idle_breakdown: iter=%q is not a regular expression: %w", ErrBadOption, expr, err)
	}
	return re, nil
}

// idleWindow is the profiled window ([0, duration] of ANALYSIS_DETAILS, or
// the events' extent when absent) cut to the active filter.
func idleWindow(c *Ctx, ops *idleOpSet) (lo, hi int64, err error) {
	lo, hi = 0, ops.maxEnd
	if c.P.HasColumn(events.TableAnalysisDetails, "duration") {
		t, err := c.LoadRaw(events.TableAnalysisDetails, "duration")
		if err != nil {
			return 0, 0, err
		}
		if d := t.Col("duration"); t.N > 0 && !d.IsNull(0) {
			hi = max(hi, d.Int(0))
		}
	}
	lo = min(lo, ops.minStart)
	if c.Filter != nil {
		s, e := c.Filter.Window(c.Context, c.P)
		lo, hi = max(lo, s), min(hi, e)
	}
	return lo, max(lo, hi), nil
}

type iterRange struct {
	name       string
	start, end int64
}

// iterationRanges lists the NVTX ranges taken as iterations, in start order,
// cut to [lo, hi). It scans NVTX_EVENTS (nothing kept): only the matching
// ranges' names become strings.
func iterationRanges(c *Ctx, match *regexp.Regexp, exact string, lo, hi int64) ([]iterRange, error) {
	if !c.Has(events.TableNVTXEvents) {
		return nil, nil
	}
	cols := []string{"start", "end", "eventType", "text"}
	if c.P.HasColumn(events.TableNVTXEvents, "textId") {
		cols = append(cols, "textId")
	}
	var out []iterRange
	err := report.Scan(c.Context, c.P, events.TableNVTXEvents, nil, cols, func(r ScanRow) error {
		if k := r.Int(2); k != 59 && k != 60 || r.IsNull(0) || r.IsNull(1) {
			return nil
		}
		var name string
		text := r.Bytes(3)
		if r.IsNull(3) && len(cols) > 4 && !r.IsNull(4) {
			name, _ = c.String(r.Int(4))
			text = nil
		}
		switch {
		case text != nil && exact != "" && string(text) != exact,
			text != nil && exact == "" && !match.Match(text),
			text == nil && exact != "" && name != exact,
			text == nil && exact == "" && !match.MatchString(name):
			return nil
		}
		if text != nil {
			name = string(text)
		}
		if s, e := max(r.Int(0), lo), min(r.Int(1), hi); s < e {
			out = append(out, iterRange{name, s, e})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out, nil
}

// gpuWindows is each iteration's window on one device: the iteration's NVTX
// range, extended to the end of the GPU work launched inside it, and
// started no earlier than the previous window's end. A loop that waits for
// the GPU every step keeps its ranges; one whose host runs ahead (nothing
// synchronises until the end, CUDA graphs replayed back to back) gets the
// windows in which the GPU did each step's work, laid end to end, instead
// of host ranges that hold little of it (docs/stats.md, "Iterations of the
// idle breakdown"). Windows stop at hi, the end of the analysed window.
func (h *hostIndex) gpuWindows(iters []iterRange, ops []idleOp, hi int64) [][2]int64 {
	end := make([]int64, len(iters))
	for i, it := range iters {
		end[i] = it.end
	}
	for _, op := range ops {
		call, ok := h.launch[op.key]
		if !ok {
			continue
		}
		// the last iteration started at or before the launch call
		i := sort.Search(len(iters), func(i int) bool { return iters[i].start > call.s }) - 1
		if i >= 0 && call.s < iters[i].end {
			end[i] = max(end[i], min(op.e, hi))
		}
	}
	out := make([][2]int64, len(iters))
	prev := int64(math.MinInt64)
	for i, it := range iters {
		s := max(it.start, prev)
		e := max(end[i], s)
		out[i] = [2]int64{s, e}
		prev = e
	}
	return out
}

// clipSpan sums the pieces inside [s, e); pieces are disjoint and sorted.
func clipSpan(pieces []IdlePiece, name string, inst int, s, e int64) IdleSpan {
	sp := IdleSpan{Iteration: name, Instance: inst, Start: s, End: e}
	i := sort.Search(len(pieces), func(i int) bool { return pieces[i].End > s })
	j := i + sort.Search(len(pieces)-i, func(k int) bool { return pieces[i+k].Start >= e })
	if j > i {
		sp.Pieces = make([]IdlePiece, 0, j-i)
	}
	for ; i < len(pieces) && pieces[i].Start < e; i++ {
		p := pieces[i]
		p.Start, p.End = max(p.Start, s), min(p.End, e)
		if p.Start >= p.End {
			continue
		}
		sp.Pieces = append(sp.Pieces, p)
		sp.ByCat[p.Cat] += p.End - p.Start
		sp.Idle += p.End - p.Start
	}
	return sp
}
