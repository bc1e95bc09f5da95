"""Notebook 10 (what to fix first: nsysx advise)."""
from nbcells import GO_FMT, P, exercises, go, md

# ITERS_GO computes, straight from the kernel and NVTX tables, the kernel
# time that starts inside the "iteration N" ranges and those ranges' total
# length: the independent check of advise's gpu_bound numbers.
ITERS_GO = '''// kernelShare returns the kernel time starting inside the "iteration N"
// NVTX ranges of p, the ranges' total length and their number, from the
// raw tables.
func kernelShare(p *nsysx.Profile) (int64, int64, int64) {
	nv, _ := p.Load(ctx, "NVTX_EVENTS", "start", "end", "text", "eventType")
	var starts, ends []int64
	var total int64
	for i := 0; i < nv.N; i++ {
		t := nv.Col("eventType").Int(i)
		if (t == 59 || t == 60) && strings.HasPrefix(nv.Col("text").Str(i), "iteration ") {
			starts = append(starts, nv.Col("start").Int(i))
			ends = append(ends, nv.Col("end").Int(i))
			total += nv.Col("end").Int(i) - nv.Col("start").Int(i)
		}
	}
	k, _ := p.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end")
	var kern int64
	for i := 0; i < k.N; i++ {
		s := k.Col("start").Int(i)
		for j := range starts {
			if starts[j] <= s && s < ends[j] {
				kern += k.Col("end").Int(i) - s
				break
			}
		}
	}
	return kern, total, int64(len(starts))
}
'''

ADVISE = [
    md("# 10 · What to fix first\n\n"
       "The earlier notebooks each answered one question with one analysis: idle time, kernels, copies, syncs, "
       "iterations. `%nsys advise` combines them into one ranked answer: every problem the profile shows, with the "
       "**time at stake** (how much the run would save if it were fixed, a conservative estimate), the rows behind "
       "it, the command that lists them and the fix in PyTorch terms. It ranks by time, never by how often a "
       "problem occurs.\n\n"
       "We run it on `train` and on `fixed` (the same script with `--pin --amp`, see notebook 06) and ask: does "
       "advise point at what `fixed` changed, and what should be fixed next?\n\n"
       "You will learn:\n"
       "1. how to read advise's table: categories, scope, time at stake, evidence, fix;\n"
       "2. how its numbers relate to the raw tables (we recompute the first finding from them);\n"
       "3. how the ranking moves once the first problem is fixed."),
    go("%open " + P + "train.sqlite.gz\n%open " + P + "fixed.sqlite.gz"),
    md("## 1. `train`: what to fix first\n\n"
       "The table has one row per problem. `Category` is the kind of problem (`gpu_bound`: the GPU is busy and "
       "its kernels are the work; `launch_bound`: short gaps between many small kernels; `host_stall`: the GPU "
       "waits while the host works outside CUDA; `host_sync`: the host waits in synchronisation calls; the copy "
       "categories; `untraced` when the profile cannot tell). `Finding` states the **scope**: here all iterations "
       "(the `iteration N` NVTX ranges), so `Per Iteration` is the median iteration and `At Stake` the median "
       "times the number of iterations. `Share (%)` is the time at stake over the iterations' time. The chart "
       "draws the same ranking."),
    go("%nsys advise train"),
    md("The same findings are a Go value: `advise.Run` returns them, ranked."),
    go(GO_FMT + ITERS_GO + '''
import "github.com/nsysx/nsysx/nsysx/advise"

before, _ := advise.Run(ctx, train, advise.Options{})
top := before.Top()
fmt.Printf("train: %d iterations; first finding %s, %.1f%% of the iterations' time at stake (%.1f ms per iteration), confidence %s.\\n",
	before.Iterations, top.Category, top.Share, ms(top.PerIter), top.Confidence)
kern, span, n := kernelShare(train)
fmt.Printf("Check from the raw tables: kernels starting inside the %d iterations take %.1f%% of their %.1f ms.\\n", n, pct(kern, span), ms(span))
fmt.Printf("Its fix: %s\\n", top.Fix)'''),
    md("`gpu_bound`'s time at stake is all of the kernels' time: only faster kernels can save it, and no more "
       "than that. Its evidence says how much of the kernel time is float32 GEMMs, and so the fix it names first is bf16 autocast: exactly what `fixed` turned on (`--amp`)."),
    md("## 2. `fixed`: did it work, and what is next?"),
    go("%nsys advise fixed"),
    go(GO_FMT + ITERS_GO + '''
import "github.com/nsysx/nsysx/nsysx/advise"

before, _ := advise.Run(ctx, train, advise.Options{})
after, _ := advise.Run(ctx, fixed, advise.Options{})
gb, ga := before.Find(advise.GPUBound), after.Find(advise.GPUBound)
fmt.Printf("gpu_bound per iteration: %.1f ms in train, %.1f ms in fixed (%.1fx less).\\n", ms(gb.PerIter), ms(ga.PerIter), float64(gb.PerIter)/float64(ga.PerIter))
kb, _, _ := kernelShare(train)
ka, _, _ := kernelShare(fixed)
fmt.Printf("Check from the raw tables: kernel time inside the iterations fell %.1fx.\\n", float64(kb)/float64(ka))
fmt.Printf("Did advise name what fixed changed? train's first fix mentions bf16 autocast: %v.\\n", strings.Contains(before.Top().Fix, "bf16 autocast"))
fmt.Println("fixed, by time at stake:")
for _, f := range after.Findings {
	fmt.Printf("  %d. %-16s %5.1f%% of the iterations (%.2f ms per iteration)\\n", f.Rank, f.Category, f.Share, ms(f.PerIter))
}'''),
    md("With the kernels several times faster, the GPU now finishes its work before the host has issued the next: "
       "the idle categories that were negligible in `train` (launch overhead between small kernels, host work "
       "outside CUDA) move up the ranking. Their fixes are the next step: CUDA graphs or `torch.compile` for the "
       "launch overhead, moving host work out of the loop or into DataLoader workers for the stall. The `Evidence` "
       "column names the command that lists the rows behind each finding, for example "
       "`nsysx stats -r gpu_idle_breakdown:view=launch` for `launch_bound`."),
    go('''import "fmt"

for _, f := range after.Findings[:2] {
	fmt.Printf("%s\\n  evidence: %s\\n  fix: %s\\n", f.Category, f.Evidence, f.Fix)
}'''),
    exercises([
        ("Run advise on the CNN profile (`cnn`). What comes first, and what share of the iterations is at stake?",
         "%nsys advise " + P + "cnn.sqlite.gz", ""),
        ("Print `fixed`'s findings as CSV only (no summary line), as a script would read them.",
         '%nsys advise -q -f csv fixed'),
        ("In Go, list the findings of `fixed` with more than 1% of the iterations at stake, and add up their shares. "
         "Why can the idle categories be added, but not `gpu_bound` to them?",
         '''import (
	"fmt"

	"github.com/nsysx/nsysx/nsysx/advise"
)

a, _ := advise.Run(ctx, fixed, advise.Options{})
var idle float64
for _, f := range a.Findings {
	if f.Share > 1 {
		fmt.Printf("%-16s %.1f%%\\n", f.Category, f.Share)
	}
	if f.Category != advise.GPUBound && f.Share > 0 {
		idle += f.Share
	}
}
// each idle instant is in one category only; gpu_bound is busy time
fmt.Printf("idle categories together: %.1f%%\\n", idle)'''),
    ], "**Next:** `11_critical_path.ipynb` asks what a change would save: the critical path and what-if. `docs/advise.md` says how each category's time at stake is estimated."),
]
