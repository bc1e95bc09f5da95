package advise

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/plots"
)

// shortGapNs is the longest GPU idle gap counted as launch overhead: a gap
// between two kernels shorter than this is the host issuing work as fast as
// it can (PyTorch's dispatch and cudaLaunchKernel take 5-20 µs an operator);
// a longer one is the host doing something else.
const shortGapNs = 100_000

// analysis is what the findings of one profile are computed from.
type analysis struct {
	a        *Advice
	windows  []nsysx.IdleSpan // the iterations, or the whole window
	lengths  []int64          // each window's analysed length (IdleOutside excluded)
	iters    bool             // windows are iterations
	amounts  map[Category][]int64
	details  map[Category]map[string]int64 // time by host call ("" = host compute)
	gaps     map[Category]int              // idle pieces counted
	threads  map[Category]map[int64]int64
	rules    map[Category]*ruleRows
	findings []Finding
}

// newAnalysis picks the busiest GPU and its windows.
func newAnalysis(a *Advice, idle *nsysx.Idle) *analysis {
	dev := slices.MaxFunc(idle.Devices, func(x, y nsysx.IdleDevice) int {
		return cmp.Compare(busy(x.Spans[0]), busy(y.Spans[0]))
	})
	a.Device, a.Devices = dev.Device, len(idle.Devices)
	an := &analysis{a: a, amounts: map[Category][]int64{}, details: map[Category]map[string]int64{},
		gaps: map[Category]int{}, threads: map[Category]map[int64]int64{}, rules: map[Category]*ruleRows{}}
	if len(dev.Spans) > 1 {
		an.windows, an.iters = dev.Spans[1:], true
		a.Iterations = len(an.windows)
		a.Scope = fmt.Sprintf("all %d iterations", a.Iterations)
	} else {
		an.windows = dev.Spans[:1]
		a.Scope = "whole capture, GPU activity span"
	}
	for _, w := range an.windows {
		l := w.End - w.Start - w.ByCat[nsysx.IdleOutside]
		an.lengths = append(an.lengths, l)
		a.Span += l
	}
	return an
}

// busy is a window's GPU busy time.
func busy(s nsysx.IdleSpan) int64 { return s.End - s.Start - s.Idle }

// callName is the API or OS call of an idle piece's Detail ("in
// cudaMemcpyAsync", "queued after cudaLaunchKernel", "clock_nanosleep").
func callName(detail string) string {
	for _, p := range []string{"in ", "queued after "} {
		if s, ok := strings.CutPrefix(detail, p); ok {
			return s
		}
	}
	return detail
}

// copyCategory is the copy finding a CUDA call belongs to, or "".
func (an *analysis) copyCategory(call string) Category {
	switch {
	case strings.Contains(call, "Memset") && !strings.Contains(call, "Async"):
		return MemsetSync
	case strings.Contains(call, "Memcpy") && !strings.Contains(call, "Async"):
		return SyncMemcpy
	case strings.Contains(call, "Memcpy") && an.rules[PageableMemcpy] != nil && an.rules[PageableMemcpy].count > 0:
		return PageableMemcpy
	}
	return ""
}

// classify names the category of one idle piece inside a gap of length gap.
func (an *analysis) classify(p nsysx.IdlePiece, gap int64) Category {
	switch p.Cat {
	case nsysx.IdleOutside:
		return ""
	case nsysx.IdleSync:
		return HostSync
	case nsysx.IdleCopy, nsysx.IdleLaunch:
		if c := an.copyCategory(callName(p.Detail)); c != "" {
			return c
		}
		if p.Cat == nsysx.IdleCopy {
			return SyncMemcpy
		}
		return LaunchBound
	}
	if gap <= shortGapNs {
		return LaunchBound
	}
	if p.Cat == nsysx.IdleOtherCUDA {
		return CUDAAPI
	}
	return HostStall
}

// addIdle splits every window's idle pieces by category. A gap is a run of
// touching pieces: the whole time the GPU waited between two operations.
func (an *analysis) addIdle() {
	for w, sp := range an.windows {
		ps := sp.Pieces
		for i := 0; i < len(ps); {
			j := i + 1
			for j < len(ps) && ps[j].Start == ps[j-1].End {
				j++
			}
			gap := ps[j-1].End - ps[i].Start
			for _, p := range ps[i:j] {
				c := an.classify(p, gap)
				if c == "" {
					continue
				}
				an.add(c, w, p.End-p.Start)
				if an.details[c] == nil {
					an.details[c], an.threads[c] = map[string]int64{}, map[int64]int64{}
				}
				an.details[c][nsysx.StripAPIVersion(callName(p.Detail))] += p.End - p.Start
				an.threads[c][p.Thread] += p.End - p.Start
				an.gaps[c]++
			}
			i = j
		}
	}
}

// add counts d ns of category c in window w.
func (an *analysis) add(c Category, w int, d int64) {
	if an.amounts[c] == nil {
		an.amounts[c] = make([]int64, len(an.windows))
	}
	an.amounts[c][w] += d
}

// window returns the index of the window holding t, or -1.
func (an *analysis) window(t int64) int {
	i, _ := slices.BinarySearchFunc(an.windows, t, func(s nsysx.IdleSpan, t int64) int {
		if s.End <= t {
			return -1
		}
		if s.Start > t {
			return 1
		}
		return 0
	})
	if i < len(an.windows) && an.windows[i].Start <= t && t < an.windows[i].End {
		return i
	}
	return -1
}

// stake turns per-window amounts into the time at stake: with iterations,
// the median iteration times their number (so that a slow first iteration
// does not decide), never more than the total; when the median is zero
// (a problem of a few iterations only) the total. affected counts the
// windows with any.
func (an *analysis) stake(v []int64) (at, per int64, affected int) {
	var total int64
	for _, x := range v {
		total += x
		if x > 0 {
			affected++
		}
	}
	if !an.iters {
		return total, -1, affected
	}
	per = median(v)
	if per == 0 {
		return total, per, affected
	}
	return min(per*int64(len(v)), total), per, affected
}

func median(v []int64) int64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// finding fills the common fields of a finding from its amounts.
func (an *analysis) finding(c Category, v []int64, what, conf, evidence, fix string) (Finding, bool) {
	at, per, affected := an.stake(v)
	if at <= 0 {
		return Finding{}, false
	}
	f := Finding{Category: c, AtStake: at, PerIter: per, Share: share(at, an.a.Span), Confidence: conf, Fix: fix}
	if an.iters {
		f.Finding = fmt.Sprintf("%s: %s per iteration (%s)", what, dur(per), an.a.Scope)
		if per == 0 {
			f.Finding = fmt.Sprintf("%s: %s in %d of %d iterations (%s)", what, dur(at), affected, len(v), an.a.Scope)
			f.Confidence = "low"
		}
		evidence = fmt.Sprintf("%d of %d iterations (NVTX range %s) affected; ", affected, len(v), an.rangeNames()) + evidence
	} else {
		f.Finding = fmt.Sprintf("%s: %s (%s)", what, dur(at), an.a.Scope)
	}
	if an.a.Devices > 1 {
		f.Finding += fmt.Sprintf(" on GPU %d, the busiest of %d", an.a.Device, an.a.Devices)
	}
	f.Evidence = evidence
	return f, true
}

// rangeNames is the iterations' NVTX range name, or the first and last
// when they differ ("iteration 0" .. "iteration 19").
func (an *analysis) rangeNames() string {
	first, last := an.windows[0].Iteration, an.windows[len(an.windows)-1].Iteration
	if first == last {
		return fmt.Sprintf("%q", first)
	}
	return fmt.Sprintf("%q .. %q", first, last)
}

func share(at, span int64) float64 {
	if span <= 0 {
		return -1
	}
	return float64(at) / float64(span) * 100
}

// topCalls describes where the time of a category went, largest first.
func topCalls(m map[string]int64, n int) string {
	var total int64
	for _, d := range m {
		total += d
	}
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(x, y string) int { return cmp.Or(-cmp.Compare(m[x], m[y]), strings.Compare(x, y)) })
	var parts []string
	for _, k := range keys[:min(n, len(keys))] {
		name := k
		if name == "" {
			name = "host compute outside traced calls"
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", name, float64(m[k])/float64(max(total, 1))*100))
	}
	return strings.Join(parts, ", ")
}

// topThread is the thread holding most of a category's time.
func topThread(m map[int64]int64) int64 {
	best, bt := int64(-1), int64(-1)
	for t, d := range m {
		if d > bt || d == bt && t < best {
			best, bt = t, d
		}
	}
	return best
}

// threadText names a globalTid as nsys prints PID and TID.
func threadText(gtid int64) string {
	if gtid < 0 {
		return "thread unknown"
	}
	return fmt.Sprintf("thread %d of process %d", gtid&0xFFFFFF, (gtid>>24)&0xFFFFFF)
}

// dur prints ns for a person: "19.2 ms", "850 µs".
func dur(ns int64) string {
	switch {
	case ns >= 10e9:
		return fmt.Sprintf("%.1f s", float64(ns)/1e9)
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", float64(ns)/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.1f ms", float64(ns)/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.0f µs", float64(ns)/1e3)
	}
	return fmt.Sprintf("%d ns", ns)
}

// ruleRows is what one rule found inside the windows.
type ruleRows struct {
	rule  string
	count int
	bytes int64
	apis  map[string]int64 // time by API name
	per   []int64          // GPU time per window
}

// loadRule runs a rule over the whole profile (no row limit) and keeps the
// rows that start inside a window.
func (an *analysis) loadRule(ctx context.Context, p *nsysx.Profile, c Category, rule string) error {
	res, err := p.Run(ctx, rule+":rows=-1", nil)
	if err != nil {
		return err
	}
	rr := &ruleRows{rule: rule, apis: map[string]int64{}, per: make([]int64, len(an.windows))}
	an.rules[c] = rr
	if res.Skipped != "" {
		return nil
	}
	durs, starts, apis, bytes := res.Col("Duration"), res.Col("Start"), res.Col("API Name"), res.Col("Bytes")
	for i := range res.Len() {
		d, s := durs.Value(i), starts.Value(i)
		if d.IsNull() || s.IsNull() {
			continue
		}
		w := an.window(s.Int())
		if w < 0 {
			continue
		}
		rr.count++
		rr.per[w] += d.Int()
		rr.apis[nsysx.StripAPIVersion(apis.Value(i).String())] += d.Int()
		if b := bytes.Value(i); !b.IsNull() {
			rr.bytes += b.Int()
		}
	}
	return nil
}

// loadRules runs the copy and synchronisation rules.
func (an *analysis) loadRules(ctx context.Context, p *nsysx.Profile) error {
	for _, r := range []struct {
		c    Category
		rule string
	}{{PageableMemcpy, "cuda_memcpy_async"}, {SyncMemcpy, "cuda_memcpy_sync"}, {MemsetSync, "cuda_memset_sync"}, {HostSync, "cuda_api_sync"}} {
		if err := an.loadRule(ctx, p, r.c, r.rule); err != nil {
			return err
		}
	}
	return nil
}

// envelope is a filter from the first window's start to the last's end.
func (an *analysis) envelope() *nsysx.Filter {
	return &nsysx.Filter{Start: an.windows[0].Start, End: an.windows[len(an.windows)-1].End}
}

// fp32GEMMShare is the share of kernel time in float32 GEMMs above which
// gpu_bound's fix is bf16 autocast or TF32.
const fp32GEMMShare = 0.2

// fp32GEMM matches the names of float32 GEMM kernels on the CUDA cores:
// cuBLAS's and CUTLASS's sgemm, and float32-in, float32-out kernels.
var fp32GEMM = regexp.MustCompile(`(?i)sgemm|f32f32_f32f32|gemm.*_f32_|simt_s\d`)

// kernelNames is the top n kernels of the kernel summary as "name 80%",
// the total kernel time and the time of float32 GEMMs.
func kernelNames(res *nsysx.Result, n int) (string, int64, float64) {
	if res.Skipped != "" {
		return "", 0, 0
	}
	tot, names, pct := res.Col("Total Time"), res.Col("Name"), res.Col("Time")
	var total int64
	var fp32 float64
	var parts []string
	for i := range res.Len() {
		d, name := tot.Value(i).Int(), names.Value(i).String()
		total += d
		if fp32GEMM.MatchString(name) {
			fp32 += float64(d)
		}
		if i < n {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", plots.ShortName(name), pct.Value(i).Float()))
		}
	}
	return strings.Join(parts, ", "), total, fp32
}

// topFrame is the innermost frame above the CUDA runtime of the stack that
// launched the most kernel time, or "" when the profile has no stacks.
func topFrame(ctx context.Context, p *nsysx.Profile, f *nsysx.Filter) (string, error) {
	ks, err := p.KernelStacks(ctx, nsysx.StackOptions{NoRuntime: true, FoldPython: true, Filter: f})
	if err != nil || ks.Skipped != "" || len(ks.Stacks) == 0 || len(ks.Stacks[0].Frames) == 0 {
		return "", err
	}
	s := ks.Stacks[0]
	if s.Frames[0].Function == nsysx.NoStackFrame {
		return "", nil
	}
	return fmt.Sprintf("; top launching frame %s (%.0f%% of kernel time)", s.Frames[0].Function,
		float64(s.KernelTime)/float64(max(ks.KernelTime, 1))*100), nil
}
