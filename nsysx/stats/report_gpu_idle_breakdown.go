package stats

import "sort"

// gpu_idle_breakdown: the report over Profile.IdleBreakdown and
// Profile.LaunchStats (an nsysx report; nsys has none).

func init() {
	register(&Report{Name: "gpu_idle_breakdown", Title: "GPU Idle Time Breakdown",
		Help: "Each GPU's idle time (no kernel, memcpy, memset or CUDA graph execution on any of its streams), over the whole window " +
			"and per NVTX iteration, split by what the thread launching the GPU's next operation was doing: " +
			"in a sync call, in a synchronous copy, launching, in another CUDA call, in an OS runtime call, busy " +
			"outside traced calls, or before the first / after the last GPU work. view=evidence lists the calls behind each share, " +
			"view=launch the kernel launch statistics. An nsysx report (nsys has none).",
		Options: []Option{
			{Name: "view", Default: "shares", Help: "shares (default), evidence, or launch"},
			{Name: "iter", Default: "", Help: "regexp of the NVTX range names taken as iterations (default: iteration, iter, step, batch, with or without a number)"},
			{Name: "range", Default: "", Help: "exact NVTX range name taken as the iteration (wins over iter=)"},
			{Name: "noosrt", Flag: true, Help: "ignore OS runtime calls (their time counts as host busy)"},
			{Name: "base", Flag: true, Help: "view=launch: kernel short names"},
		},
		Run: runIdleBreakdown})
}

var idleViews = []string{"shares", "evidence", "launch"}

func runIdleBreakdown(c *Ctx) (*Result, error) {
	view, err := choice(c, "view", idleViews...)
	if err != nil {
		return nil, err
	}
	if r, skip := c.SkipNoStrings(); skip {
		return r, nil
	}
	if r, err := c.SetupFilter(); r != nil || err != nil {
		return r, err
	}
	if view == "launch" {
		return launchResult(c)
	}
	o := IdleOptions{NoOSRT: c.Flag("noosrt")}
	o.Iterations, _ = c.Opt("iter")
	o.Range, _ = c.Opt("range")
	idle, err := idleBreakdown(c, o)
	if err != nil {
		return nil, err
	}
	if idle.Skipped != "" {
		return c.Skip(idle.Skipped)
	}
	res := sharesResult(c, idle)
	if view == "evidence" {
		res = evidenceResult(c, idle)
	}
	res.Advice = idle.Note
	return res, nil
}

func iterLabel(sp IdleSpan) (Value, Value) {
	if sp.Instance < 0 {
		return TextV("(all)"), Null
	}
	return TextV(sp.Iteration), IntV(int64(sp.Instance))
}

// sharesResult: one row per device, window and category with idle time.
func sharesResult(c *Ctx, idle *Idle) *Result {
	res := NewResult(c.Report.Name, c.Report.Title, "Device", "Iteration", "Instance", "Start:ts_ns", "Span:dur_ns",
		"Idle:dur_ns", "Idle of Span:ratio_%", "Category", "Time:dur_ns", "Share of Idle:ratio_%")
	for _, d := range idle.Devices {
		for _, sp := range d.Spans {
			name, inst := iterLabel(sp)
			span := sp.End - sp.Start
			for cat, t := range sp.ByCat {
				if t == 0 {
					continue
				}
				res.Add(IntV(d.Device), name, inst, IntV(sp.Start), IntV(span), IntV(sp.Idle), Pct(sp.Idle, span),
					TextV(IdleCat(cat).String()), IntV(t), Pct(t, sp.Idle))
			}
		}
	}
	return res
}

// IdleEvidence sums the pieces of one window that share a category, a call
// and a thread.
type IdleEvidence struct {
	Cat          IdleCat
	Detail       string
	Thread       int64
	Pieces       int
	Total        int64
	Longest      int64
	LongestStart int64
}

// Evidence groups the span's pieces by category, call and thread, largest
// total first.
func (sp *IdleSpan) Evidence() []IdleEvidence {
	type key struct {
		cat    IdleCat
		detail string
		tid    int64
	}
	idx := map[key]int{}
	var out []IdleEvidence
	for _, p := range sp.Pieces {
		k := key{p.Cat, p.Detail, p.Thread}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, IdleEvidence{Cat: p.Cat, Detail: p.Detail, Thread: p.Thread})
		}
		e, d := &out[i], p.End-p.Start
		e.Pieces++
		e.Total += d
		if d > e.Longest {
			e.Longest, e.LongestStart = d, p.Start
		}
	}
	sortEvidence(out)
	return out
}

func sortEvidence(ev []IdleEvidence) {
	sort.SliceStable(ev, func(i, j int) bool { return evLess(ev[i], ev[j]) })
}

func evLess(a, b IdleEvidence) bool {
	if a.Total != b.Total {
		return a.Total > b.Total
	}
	if a.Cat != b.Cat {
		return a.Cat < b.Cat
	}
	return a.Detail < b.Detail
}

func evidenceResult(c *Ctx, idle *Idle) *Result {
	res := NewResult(c.Report.Name, c.Report.Title, "Device", "Iteration", "Instance", "Category", "Call", "PID", "TID",
		"Pieces", "Time:dur_ns", "Share of Idle:ratio_%", "Longest:dur_ns", "Longest Start:ts_ns")
	for _, d := range idle.Devices {
		for _, sp := range d.Spans {
			name, inst := iterLabel(sp)
			for _, e := range sp.Evidence() {
				pid, tid := Null, Null
				if e.Thread >= 0 {
					pid, tid = IntV(gPID(e.Thread)), IntV(gTID(e.Thread))
				}
				call := Null
				if e.Detail != "" {
					call = TextV(e.Detail)
				}
				res.Add(IntV(d.Device), name, inst, TextV(e.Cat.String()), call, pid, tid, IntV(int64(e.Pieces)),
					IntV(e.Total), Pct(e.Total, sp.Idle), IntV(e.Longest), IntV(e.LongestStart))
			}
		}
	}
	return res
}

func launchResult(c *Ctx) (*Result, error) {
	if !c.Has(tKernel) && c.Has(tGraphTrace) {
		return c.Skip(c.Path() + ": its kernels were traced as whole CUDA graphs (nsys profile --cuda-graph-trace=graph, the default), " +
			"so there are no kernel launches to time; nsys profile --cuda-graph-trace=node records one row per kernel.")
	}
	if !c.Has(tKernel) {
		return c.Skip(c.Path() + " does not contain CUDA kernel data (record it with nsys profile --trace=cuda).")
	}
	if !c.Has(tRuntime) {
		return c.Skip(c.Path() + " does not contain CUDA API data (record it with nsys profile --trace=cuda).")
	}
	stats, err := launchStats(c)
	if err != nil {
		return nil, err
	}
	res := NewResult(c.Report.Name, c.Report.Title, "Device", "Instances", "Kernel Avg:dur_ns", "Launch Avg:dur_ns",
		"Launch Max:dur_ns", "Delay Avg:dur_ns", "Delay Max:dur_ns", "Queue Avg:dur_ns", "Queue Max:dur_ns",
		"Shorter Than Launch", "Slow Launches", "Long Delays", "Name")
	for _, s := range stats {
		avg := func(t int64) Value {
			if s.Launched == 0 {
				return Null
			}
			return FloatV(Round1(float64(t) / float64(s.Launched)))
		}
		res.Add(IntV(s.Device), IntV(s.Instances), FloatV(Round1(float64(s.KernelTotal)/float64(s.Instances))),
			avg(s.LaunchTotal), IntV(s.LaunchMax), avg(s.DelayTotal), IntV(s.DelayMax), avg(s.QueueTotal),
			IntV(s.QueueMax), IntV(s.Short), IntV(s.SlowLaunch), IntV(s.LongDelay), TextV(s.Name))
	}
	return res, nil
}
