package critpath

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Options tune Analyze. The zero value replays every iteration found with
// events.DefaultIterations.
type Options struct {
	// Iterations is the regular expression of the NVTX ranges that mark
	// iterations (default events.DefaultIterations); without two such
	// ranges the whole capture is one iteration.
	Iterations string
	// WhatIf are the changes whose effect Predicted gives.
	WhatIf []WhatIf
	// Top is how many critical items each iteration keeps (default 5).
	Top int
}

// Composition is what the critical path of an iteration is made of (ns):
// GPU compute (kernels, CUDA graphs and the gaps between queued ops),
// copies (memory copies and memsets), host (host time outside CUDA calls,
// API calls, launch latency), sync wait (host synchronisations and event
// waits) and communication (NCCL kernels). The parts add up to Replayed.
type Composition struct {
	GPU, Copies, Host, SyncWait, Communication int64
}

// Item is one thing on the critical path: a kernel by name, an API call
// by name, host time by the NVTX range it falls in, ...; Time is its time
// on the path (ns).
type Item struct {
	Kind string // "kernel", "graph", "copy", "memset", "nccl", "api", "sync", "host", "launch", "gpu gap"
	Name string
	Time int64
}

// String is "kind name".
func (it Item) String() string { return it.Kind + " " + it.Name }

// Iteration is one iteration's observed time (its NVTX range), the
// replay's, and the prediction under the what-ifs (ns); Error is
// (Replayed-Observed)/Observed in percent.
type Iteration struct {
	Index                         int
	Start, End                    int64
	Observed, Replayed, Predicted int64
	Error                         float64
	Composition                   Composition
	Top                           []Item
}

// Span is the time from the first iteration's start to the end of all the
// work launched in the iterations, GPU work included (ns).
type Span struct{ Observed, Replayed, Predicted int64 }

// Result is the analysis of one profile.
type Result struct {
	Path       string
	Whole      bool // no iterations: the whole capture is one
	Iterations []Iteration
	// MeanAbsError and MaxAbsError summarise the iterations' |Error|.
	MeanAbsError, MaxAbsError float64
	Span                      Span
	Top                       []Item // over all iterations
	WhatIf                    []string
	// The profile's typical latencies (ns), which the replay uses.
	LaunchLatency, StreamGap, SyncLatency int64
}

// Analyze builds p's dependency graph, replays it and walks each
// iteration's critical path; with what-ifs, replays it again with the
// changed durations for Predicted.
func Analyze(ctx context.Context, p *nsysx.Profile, o Options) (*Result, error) {
	if o.Iterations == "" {
		o.Iterations = events.DefaultIterations
	}
	re, err := regexp.Compile(o.Iterations)
	if err != nil {
		return nil, fmt.Errorf("--iterations %q: %v", o.Iterations, err)
	}
	if o.Top <= 0 {
		o.Top = 5
	}
	g, err := build(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	its := g.ranges.Iterations(re)
	res := &Result{Path: p.Path, LaunchLatency: g.launchLat, StreamGap: g.streamGap, SyncLatency: g.syncLat}
	if len(its) == 0 {
		its, res.Whole = g.whole(), true
	}
	if len(its) == 0 {
		return nil, fmt.Errorf("%s: no CUDA API calls or iterations to replay", p.Path)
	}
	a := &analysis{ctx: ctx, g: g, its: its, res: res, top: o.Top, laneOf: map[model.GlobalTid]int32{}}
	for li, l := range g.lanes {
		if l.host {
			a.laneOf[l.thread] = int32(li)
		}
	}
	base := a.plan(nil)
	g.replay(base)
	a.measure(base, func(it *Iteration, v int64) { it.Replayed = v }, &res.Span.Replayed)
	a.paths()
	for _, w := range o.WhatIf {
		res.WhatIf = append(res.WhatIf, w.Spec)
	}
	if len(o.WhatIf) > 0 {
		pl := a.plan(o.WhatIf)
		g.replay(pl)
		a.measure(pl, func(it *Iteration, v int64) { it.Predicted = v }, &res.Span.Predicted)
	} else {
		for i := range res.Iterations {
			res.Iterations[i].Predicted = res.Iterations[i].Replayed
		}
		res.Span.Predicted = res.Span.Replayed
	}
	return res, nil
}

// analysis is one Analyze's state.
type analysis struct {
	ctx    context.Context
	g      *graph
	its    []events.Iteration
	res    *Result
	top    int
	laneOf map[model.GlobalTid]int32
}

// whole is the capture as one iteration on the thread with the most calls.
func (g *graph) whole() []events.Iteration {
	best := -1
	for li, l := range g.lanes {
		if l.host && (best < 0 || len(l.nodes) > len(g.lanes[best].nodes)) {
			best = li
		}
	}
	if best < 0 {
		return nil
	}
	l := g.lanes[best]
	return []events.Iteration{{Start: g.nodes[l.nodes[0]].start, End: g.nodes[l.nodes[len(l.nodes)-1]].end, Thread: l.thread}}
}

// at is the replayed time of the host thread's observed time t: inside a
// call, as far into the call; after one, its replayed end plus the host
// time since.
func (a *analysis) at(pl plan, th model.GlobalTid, t int64) int64 {
	li, ok := a.laneOf[th]
	if !ok {
		return t
	}
	ns := a.g.lanes[li].nodes
	k := sort.Search(len(ns), func(i int) bool { return a.g.nodes[ns[i]].start > t }) - 1
	if k < 0 {
		return t
	}
	n := &a.g.nodes[ns[k]]
	if t < n.end {
		return n.rs + t - n.start
	}
	return n.re + pl.hostGap(li, n.end, t)
}

// measure reads the iterations' replayed times (and the span) after a
// replay with pl, creating the iterations on the first call.
func (a *analysis) measure(pl plan, set func(*Iteration, int64), span *int64) {
	first := len(a.res.Iterations) == 0
	var sum float64
	for k, w := range a.its {
		if first {
			a.res.Iterations = append(a.res.Iterations, Iteration{Index: k, Start: w.Start, End: w.End, Observed: w.End - w.Start})
		}
		it := &a.res.Iterations[k]
		set(it, a.at(pl, w.Thread, w.End)-a.at(pl, w.Thread, w.Start))
		if first && it.Observed > 0 {
			it.Error = 100 * float64(it.Replayed-it.Observed) / float64(it.Observed)
			sum += math.Abs(it.Error)
			a.res.MaxAbsError = max(a.res.MaxAbsError, math.Abs(it.Error))
		}
	}
	if first {
		a.res.MeanAbsError = sum / float64(len(a.its))
		a.res.Span.Observed = a.span(pl, false)
	}
	*span = a.span(pl, true)
}

// span is from the first iteration's start to the end of the last
// iteration or of the GPU work launched in the iterations, whichever is
// later: observed or replayed.
func (a *analysis) span(pl plan, replayed bool) int64 {
	lo, hi := a.its[0].Start, a.its[len(a.its)-1].End
	first, last := a.its[0], a.its[len(a.its)-1]
	s, e := lo, hi
	if replayed {
		s, e = a.at(pl, first.Thread, first.Start), a.at(pl, last.Thread, last.End)
	}
	for i := range a.g.nodes {
		n := &a.g.nodes[i]
		if !n.gpu() || n.launch < 0 {
			continue
		}
		if c := &a.g.nodes[n.launch]; c.start >= lo && c.start < hi {
			if replayed {
				e = max(e, n.re)
			} else {
				e = max(e, n.end)
			}
		}
	}
	return e - s
}
