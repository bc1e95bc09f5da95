package plots

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/recipe/recipes"
)

const tKernel = events.TableKernel

// Kinds of GPU operations (opNCCL: a kernel whose short name starts with
// "nccl", as nsys's NCCL recipes tell them; opGraph: an execution of a CUDA
// graph traced whole, nsysx.GraphExec).
const (
	opKernel = iota
	opMemcpy
	opMemset
	opNCCL
	opGraph
	opKinds
)

// opOf is the kind of an events.GPUOp.
var opOf = [...]uint8{events.OpKernel: opKernel, events.OpMemcpy: opMemcpy, events.OpMemset: opMemset}

var opNames = [opKinds]string{"kernel", "memcpy", "memset", "NCCL kernel", "CUDA graph"}

// gpuOp is one GPU operation.
type gpuOp struct {
	s, e        int64
	dev, stream int64
	pid         int64
	kind        uint8
	nccl        bool // a kernel whose short name starts with "nccl"
}

// loadGPUOps reads the kernels and the executions of CUDA graphs traced
// whole, which stand for their kernels (and, when withMem, the memcpy and
// memset operations) of a profile, in table order. Rows with a NULL start
// or end are skipped; a missing globalPid, deviceId or streamId reads as 0.
func loadGPUOps(ctx context.Context, p *nsysx.Profile, withMem bool) ([]gpuOp, error) {
	if err := p.StringsErr(ctx); err != nil {
		return nil, err
	}
	ops, err := events.GPUOps(ctx, p.Profile, withMem)
	if err != nil {
		return nil, err
	}
	nccl := map[int64]bool{} // kernel short names: NCCL's or not
	out := make([]gpuOp, 0, len(ops))
	for _, o := range ops {
		op := gpuOp{s: o.Start, e: o.End, dev: o.Device, stream: o.Stream, pid: o.Process.PID(), kind: opOf[o.Kind]}
		if o.Name >= 0 {
			isNCCL, seen := nccl[o.Name]
			if !seen {
				name, _ := p.String(ctx, o.Name)
				isNCCL = strings.HasPrefix(name, "nccl")
				nccl[o.Name] = isNCCL
			}
			op.nccl = isNCCL
		}
		out = append(out, op)
	}
	graphs, err := p.GraphExecs(ctx, nil)
	if err != nil {
		return nil, err
	}
	for _, g := range graphs {
		op := gpuOp{s: g.Start, e: g.End, dev: max(g.Device, 0), stream: max(g.Stream, 0), kind: opGraph}
		if g.GlobalPid >= 0 {
			op.pid = model.GlobalTid(g.GlobalPid).PID()
		}
		out = append(out, op)
	}
	return out, nil
}

// graphCount is the number of CUDA graph executions among ops.
func graphCount(ops []gpuOp) int {
	n := 0
	for _, op := range ops {
		if op.kind == opGraph {
			n++
		}
	}
	return n
}

// session is a profile's place on a common timeline (docs/recipes.md §1.5).
type session struct {
	utc      int64 // TARGET_INFO_SESSION_START_TIME.utcEpochNs
	duration int64 // ANALYSIS_DETAILS.duration
	ok       bool  // both known
}

// sessionOf reads p's session times: not ok when a table, a column or a
// value is absent; Load's error (naming the table) when a table cannot be
// read.
func sessionOf(ctx context.Context, p *nsysx.Profile) (session, error) {
	s, err := events.SessionOf(ctx, p.Profile)
	return session{utc: s.UTC, duration: s.Duration, ok: s.OK}, err
}

// alignment returns each profile's offset on the common timeline and its
// end there (offset + duration): offsets are the session start times minus
// the earliest. A profile without session times gets offset 0 and ends at
// its last operation.
func alignment(ctx context.Context, ps []*nsysx.Profile, ops [][]gpuOp) (offsets, ends []int64, err error) {
	utc, dur, ok := make([]int64, len(ps)), make([]int64, len(ps)), make([]bool, len(ps))
	for i, p := range ps {
		s, err := sessionOf(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		utc[i], dur[i], ok[i] = s.utc, s.duration, s.ok
	}
	a := recipes.Align(utc, dur, ok, 1, false) // the heatmap recipes' alignment
	offsets, ends = a.Offset, a.Max
	for i := range ps {
		if !ok[i] {
			for _, o := range ops[i] {
				ends[i] = max(ends[i], o.e)
			}
		}
	}
	return offsets, ends, nil
}

// devKey identifies a GPU of a process.
type devKey struct{ pid, dev int64 }

// byDevice groups operations per (pid, device), in sorted key order.
func byDevice(ops []gpuOp) ([]devKey, map[devKey][]gpuOp) {
	m := map[devKey][]gpuOp{}
	for _, o := range ops {
		k := devKey{o.pid, o.dev}
		m[k] = append(m[k], o)
	}
	keys := slices.SortedFunc(maps.Keys(m), func(a, b devKey) int {
		return cmp.Or(cmp.Compare(a.pid, b.pid), cmp.Compare(a.dev, b.dev))
	})
	return keys, m
}

// profileLabels names profiles by their base names, numbered when two
// share one.
func profileLabels(ps []*nsysx.Profile) []string {
	out := make([]string, len(ps))
	seen := map[string]int{}
	for i, p := range ps {
		out[i] = p.Base()
		seen[out[i]]++
	}
	for i := range out {
		if seen[out[i]] > 1 {
			out[i] = fmt.Sprintf("%s (%d)", out[i], i+1)
		}
	}
	return out
}

// loadAll reads the kernels of each profile (start >= 0 and end >= 0, as
// the recipes' default time filter keeps; one device with OneDevice) and
// resolves the window of each.
func loadAll(ctx context.Context, ps []*nsysx.Profile, labels []string, o *Options) ([][]gpuOp, []window, string, error) {
	ops := make([][]gpuOp, len(ps))
	wins := make([]window, len(ps))
	n := 0
	for i, p := range ps {
		w, note, err := resolveWindow(ctx, p, o)
		if err != nil || note != "" {
			return nil, nil, note, err
		}
		wins[i] = w
		all, err := loadGPUOps(ctx, p, false)
		if err != nil {
			return nil, nil, "", err
		}
		for _, op := range all {
			if op.s >= 0 && op.e >= 0 && (!o.OneDevice || op.dev == int64(o.Device)) {
				ops[i] = append(ops[i], op)
			}
		}
		n += len(ops[i])
	}
	if n == 0 {
		what := "no CUDA kernels"
		if o.OneDevice {
			what += fmt.Sprintf(" on GPU %d", o.Device)
		}
		return nil, nil, fmt.Sprintf("%s in %s", what, strings.Join(labels, ", ")), nil
	}
	return ops, wins, "", nil
}

// binning places the profiles' operations on common time bins: aligned on
// the session start times as nsys's heatmap recipes do, or, with a window,
// each profile's window from its start.
type binning struct {
	bins          int
	size, start   int64 // bin size; time of bin 0 (for axis labels)
	offsets, ends []int64
	ops           [][]gpuOp // clipped to the window when there is one
}

func makeBinning(ctx context.Context, ps []*nsysx.Profile, ops [][]gpuOp, wins []window, bins int) (*binning, string, error) {
	bn := &binning{bins: bins, ops: ops}
	var err error
	if bn.offsets, bn.ends, err = alignment(ctx, ps, ops); err != nil {
		return nil, "", err
	}
	if wins[0].set {
		bn.ops = make([][]gpuOp, len(ps))
		for i := range ps {
			lo, hi := max(wins[i].s, 0), wins[i].e
			if hi == math.MaxInt64 {
				hi = bn.ends[i] - bn.offsets[i]
			}
			bn.offsets[i], bn.ends[i] = 0, hi-lo
			bn.ops[i] = shiftOps(ops[i], lo, hi)
			if i == 0 {
				bn.start = lo
			}
		}
	}
	var maxEnd int64
	for _, e := range bn.ends {
		maxEnd = max(maxEnd, e)
	}
	if maxEnd <= 0 {
		return nil, "the window holds no time", nil
	}
	bn.size = (maxEnd + int64(bins) - 1) / int64(bins)
	return bn, "", nil
}

// spans returns the operations of profile i that keep (all when nil) as
// spans on the common timeline.
func (bn *binning) spans(i int, ops []gpuOp, keep func(gpuOp) bool) []span {
	out := make([]span, 0, len(ops))
	for _, op := range ops {
		if keep == nil || keep(op) {
			out = append(out, span{op.s + bn.offsets[i], op.e + bn.offsets[i]})
		}
	}
	return out
}

// shiftOps clips operations to [lo, hi] and moves lo to 0.
func shiftOps(ops []gpuOp, lo, hi int64) []gpuOp {
	var out []gpuOp
	for _, op := range ops {
		s, e := max(op.s, lo), min(op.e, hi)
		if e <= s {
			continue
		}
		op.s, op.e = s-lo, e-lo
		out = append(out, op)
	}
	return out
}
