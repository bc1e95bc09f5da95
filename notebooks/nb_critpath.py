"""Notebook 11 (which work sets the step time: nsysx critical-path)."""
from nbcells import GO_FMT, P, exercises, go, md

W = P + "whatif/"

# STEPS_GO measures, straight from the NVTX table, each "step" range's
# length: the independent check of critical-path's Observed column and of
# the "after" captures' real step time.
STEPS_GO = '''// steps returns the lengths of the NVTX ranges named "step" of p, from
// the raw table, in start order.
func steps(p *nsysx.Profile) []int64 {
	nv, _ := p.Load(ctx, "NVTX_EVENTS", "start", "end", "text", "eventType")
	var out []int64
	for i := 0; i < nv.N; i++ {
		t := nv.Col("eventType").Int(i)
		if (t == 59 || t == 60) && nv.Col("text").Str(i) == "step" {
			out = append(out, nv.Col("end").Int(i)-nv.Col("start").Int(i))
		}
	}
	return out
}

func mean(v []int64) float64 {
	var s int64
	for _, x := range v {
		s += x
	}
	return float64(s) / float64(len(v))
}
'''

CRITPATH = [
    md("# 11 · Which work sets the step time: critical path and what-if\n\n"
       "Advise (notebook 10) says where time goes; it cannot say what a change would *save*, because host and GPU "
       "overlap: halving a kernel that the host waits for saves time, halving one that runs while the host is busy "
       "anyway saves nothing. `%nsys critical-path` answers that. It builds the profile's dependency graph (each "
       "host thread's CUDA calls and the host time between them, launch to GPU operation by correlation id, stream "
       "order, host synchronisations, event waits between streams, CUDA graphs, NCCL kernels), **replays** it with "
       "the measured durations, walks each iteration's **critical path**, and replays it again with the durations "
       "you change (**what-if**).\n\n"
       "The profiles are four short captures of one script (`testdata/workloads/whatif/whatif.py`, an H100): each "
       "step sleeps 4 ms on the host inside an NVTX range `data`, queues four bf16 GEMMs and reads the loss back "
       "with `.item()`. `before` is that; each of the others changed one thing: `half_gemm` halved the GEMMs' rows, "
       "`no_sleep` removed the sleep, `no_item` removed the `.item()`. We predict each from `before` and check the "
       "prediction against the real capture.\n\n"
       "You will learn:\n"
       "1. how to read the replay and its error, and what the critical path is made of;\n"
       "2. how to ask what-if questions, and how far to trust the answers;\n"
       "3. how the reports of several ranks name the rank that holds the others back."),
    go("%open " + W + "before.sqlite.gz\n%open " + W + "half_gemm.sqlite.gz\n%open " + W + "no_sleep.sqlite.gz\n"
       "%open " + W + "no_item.sqlite.gz"),
    md("## 1. The replay and the critical path\n\n"
       "One row per iteration (the NVTX ranges `step`). `Observed` is the iteration's NVTX range, `Replayed` the "
       "replay's, `Error (%)` their difference: the replay is only worth asking what-ifs of when it reproduces what "
       "was measured. The composition columns split the critical path (they add up to `Replayed`): `GPU` (kernels), "
       "`Copies`, `Host` (host time outside CUDA calls, call overhead, launch latency), `Sync Wait`, "
       "`Communication` (NCCL)."),
    go("%nsys critical-path before"),
    go(GO_FMT + STEPS_GO + '''
import "github.com/nsysx/nsysx/nsysx/critpath"

r, _ := critpath.Analyze(ctx, before, critpath.Options{})
var gpu, host, total int64
for _, it := range r.Iterations {
	gpu += it.Composition.GPU
	host += it.Composition.Host
	total += it.Replayed
}
fmt.Printf("%d iterations; replay error: mean %.2f%%, worst %.2f%%.\\n", len(r.Iterations), r.MeanAbsError, r.MaxAbsError)
fmt.Printf("Check from the raw NVTX table: the %d step ranges last %.2f ms on average; Observed averages %.2f ms.\\n",
	len(steps(before)), mean(steps(before))/1e6, func() float64 {
		var o []int64
		for _, it := range r.Iterations {
			o = append(o, it.Observed)
		}
		return mean(o) / 1e6
	}())
fmt.Printf("The critical path is %.0f%% GPU and %.0f%% host; its top item: %s.\\n", pct(gpu, total), pct(host, total), r.Top[0])'''),
    md("The step is host work (the sleep) followed by GPU work (the GEMMs) that the host waits for at `.item()`: "
       "both lie on the critical path, one after the other. That is what makes the answers below different for "
       "each change."),
    md("## 2. What if?\n\n"
       "`--what-if` changes durations and replays again: `kernels:REGEX=FACTOR` (kernels whose name matches), "
       "`memcpy=FACTOR`, `host:REGEX=FACTOR` (host time inside NVTX ranges matching REGEX), `launch=FACTOR`, "
       "`sync=drop` (the host no longer waits where nothing after the wait needs it). `Predicted` is the replay "
       "under the change. The GEMM kernels here are cuBLAS's `nvjet` kernels."),
    go("%nsys critical-path -q --what-if kernels:nvjet=0.5 before"),
    md("Each prediction against the capture that made the change (its step ranges measured from the raw NVTX table):"),
    go(GO_FMT + STEPS_GO + '''
import "github.com/nsysx/nsysx/nsysx/critpath"

for _, c := range []struct {
	spec  string
	after *nsysx.Profile
	name  string
}{{"kernels:nvjet=0.5", half_gemm, "half_gemm"}, {"host:^data$=0", no_sleep, "no_sleep"}, {"sync=drop", no_item, "no_item"}} {
	w, err := critpath.ParseWhatIf(c.spec)
	if err != nil {
		panic(err)
	}
	r, _ := critpath.Analyze(ctx, before, critpath.Options{WhatIf: []critpath.WhatIf{w}})
	var pred []int64
	for _, it := range r.Iterations {
		pred = append(pred, it.Predicted)
	}
	p, o := mean(pred), mean(steps(c.after))
	fmt.Printf("%-18s predicts %.2f ms per step; %-9s measured %.2f ms: error %+.1f%%\\n", c.spec, p/1e6, c.name, o/1e6, 100*(p-o)/o)
}'''),
    md("Halving the GEMMs saves about half of the GPU part, because the host waits for it; removing the sleep "
       "saves the sleep; dropping `.item()` lets the host run ahead, so the step becomes what the host alone "
       "takes. The errors printed above are each prediction against a real capture. The predictions are first-order: a change "
       "that alters other things (bf16 autocast makes every kernel faster, not only the GEMMs, and changes "
       "copies) needs each change spelt out, and what it does not say shows up as error. "
       "`docs/critical-path.md` lists the dependencies the model has and those it lacks."),
    md("## 3. Several ranks: who holds the others back?\n\n"
       "Given the reports of one job's ranks, critical-path aligns their clocks, matches each NCCL collective "
       "across them and, per iteration, names the **straggler**: the rank that waited least in the collectives "
       "while the others waited for it. `Lost` is each rank's waiting in the collectives, `Idle Lost` the part of "
       "it when the rank's GPU had nothing else to do, and `Predicted` the step had the straggler kept the median "
       "rank's pace. The two-rank capture of notebook 03 (`ddp.py`: rank 1 does extra host work every step):"),
    go("%open " + P + "rank0.sqlite.gz\n%open " + P + "rank1.sqlite.gz"),
    go(GO_FMT + '''
import "github.com/nsysx/nsysx/nsysx/critpath"

rr, _ := critpath.Ranks(ctx, []*nsysx.Profile{rank0, rank1}, critpath.RanksOptions{})
count := map[int]int{}
var saved int64
for _, it := range rr.Iterations {
	count[it.Straggler]++
	saved += it.Observed - it.Predicted
}
fmt.Printf("%d iterations, %d collectives matched; rank 1 is the straggler in %d, rank 0 in %d, none in %d.\\n",
	len(rr.Iterations), rr.Collectives, count[1], count[0], count[-1])
fmt.Printf("At the median pace the steps would save %.1f ms in all.\\n", float64(saved)/1e6)
var lost, idle int64
for _, it := range rr.Iterations {
	lost += it.Lost[0]
	idle += it.Idle[0]
}
fmt.Printf("Rank 0 waited %.1f ms in the collectives, of which its GPU was idle for %.1f ms (%.0f%%).\\n", float64(lost)/1e6, float64(idle)/1e6, pct(idle, lost))
rr'''),
    md("Rank 1 is late to almost every step, but the waiting costs little here: DDP overlaps the gradient "
       "all-reduce with the backward pass, so the other rank's GPU mostly has work while it waits (`Lost` is "
       "large, `Idle Lost` small). `%nsys advise rank0 rank1` puts the same straggler in the job's ranked "
       "advice, beside each rank's own findings."),
    exercises([
        ("Predict `before` with the GEMMs twice as fast *and* no sleep (two `--what-if`). Is the saving the sum "
         "of the two savings? Why?",
         "%nsys critical-path -q --what-if kernels:nvjet=0.5 --what-if 'host:^data$=0' before", ""),
        ("Run critical-path on `train` (notebook 01's profile). What share of its critical path is GPU time?",
         "%open " + P + "train.sqlite.gz\n%nsys critical-path -q train", ""),
        ("In Go, list `before`'s top five critical items over all iterations.",
         '''import (
	"fmt"

	"github.com/nsysx/nsysx/nsysx/critpath"
)

r, _ := critpath.Analyze(ctx, before, critpath.Options{})
for _, it := range r.Top {
	fmt.Printf("%-8s %-50.50s %.1f ms\\n", it.Kind, it.Name, float64(it.Time)/1e6)
}'''),
    ], "This is the last notebook of the course. `docs/critical-path.md` gives the model, its dependencies and "
       "its limits; the README's `nsysx critical-path` section the command line."),
]
