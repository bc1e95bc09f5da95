"""Notebooks 01 (a DL training script end to end) and 02 (GPU idle time)."""
from nbcells import P, exercises, go, md

BASE_GO = '''import (
	"fmt"
	"sort"
	"strings"
)

func pct(a, b int64) float64 { return 100 * float64(a) / float64(b) }

func ms(ns int64) float64 { return float64(ns) / 1e6 }
'''

SPAN_GO = BASE_GO + '''
// busyUnion is the time covered by at least one of the intervals.
func busyUnion(s, e []int64) int64 {
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s[idx[a]] < s[idx[b]] })
	var busy, cs, ce int64
	cs, ce = -1, -1
	for _, i := range idx {
		if s[i] > ce {
			if ce > cs {
				busy += ce - cs
			}
			cs, ce = s[i], e[i]
		} else if e[i] > ce {
			ce = e[i]
		}
	}
	return busy + ce - cs
}

// column returns an integer column of a loaded table as a slice.
func column(t *nsysx.Table, name string) []int64 {
	c := t.Col(name)
	v := make([]int64, c.Len())
	for i := range v {
		v[i] = c.Int(i)
	}
	return v
}
'''

TRAINING = [
    md("# 01 · Profile a DL training script end to end\n\n"
       "The first workflow of the course: record a PyTorch training loop, read nsys's default tables, the kernels, "
       "the CUDA API, memory and the expert rules, and decide **what to fix first**.\n\n"
       "The script is `../testdata/workloads/train.py`: a 6-layer GPT-style model trained in FP32, with NVTX ranges "
       "`iteration N`, `data`, `forward`, `backward`, `optimizer` and `log`. Every number in this notebook's text is "
       "printed by a cell from the profile."),
    md("## 1. Record a profile with `%nsys profile`\n\n"
       "`%nsys profile [nsys profile flags] -- COMMAND` runs Nsight Systems' own `nsys profile`, streams its output "
       "into the cell, exports the report and opens it as this session's profile. `--capture-range=cudaProfilerApi` "
       "records only between the script's `cudaProfilerStart()` and `cudaProfilerStop()`, so the warm-up iterations "
       "are left out; the default `-t` traces CUDA, NVTX and OS runtime calls. Where `nsys` is not installed the cell says so and how to get it, and the notebook goes on with "
       "the recorded profile of the same command."),
    go("%nsys profile --capture-range=cudaProfilerApi -o my_train -- python3 ../testdata/workloads/train.py"),
    md("## 2. Open the recorded profile\n\n"
       "`train.sqlite.gz` is that command's capture on an NVIDIA H200. What does the capture range hold?"),
    go("%open " + P + "train.sqlite.gz"),
    go(SPAN_GO + '''
k, _ := train.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end")
ks, ke := column(k, "start"), column(k, "end")
first, last := ks[0], ke[0]
for i := range ks {
	if ks[i] < first {
		first = ks[i]
	}
	if ke[i] > last {
		last = ke[i]
	}
}
ranges, _ := train.Stats(ctx, "nvtx_sum")
lo, hi := -1, -1
for i := 0; i < ranges.Len(); i++ {
	var n int
	if _, err := fmt.Sscanf(ranges.Col("Range").Text(i), ":iteration %d", &n); err == nil {
		if lo < 0 || n < lo {
			lo = n
		}
		if n > hi {
			hi = n
		}
	}
}
busy := busyUnion(ks, ke)
fmt.Printf("%d kernels ran from %.1f ms to %.1f ms of the session (%.3f s).\\n", len(ks), ms(first), ms(last), float64(last-first)/1e9)
fmt.Printf("The NVTX iterations captured are %d to %d: iterations 0 to %d, the warm-up, happened before cudaProfilerStart.\\n", lo, hi, lo-1)
fmt.Printf("At least one kernel was running for %.1f%% of that span: the GPU is busy, so speed is decided by the kernels.\\n", pct(busy, last-first))'''),
    md("## 3. The default `stats` set\n\n"
       "`%nsys stats` with no `-r` runs nsys's default set: NVTX ranges, OS runtime calls, CUDA API calls, GPU kernels "
       "and GPU memory operations (reports the capture has no data for are listed as SKIPPED at the end). "
       "`nb.SetMaxRows(8)` keeps each table to its first 8 rows (the text says how many there are)."),
    go("nb.SetMaxRows(8)\n%nsys stats train"),
    md("## 4. Kernels: where the GPU time goes\n\n"
       "The chart shows the largest kernels by total time. Names tell what they are: `sgemm` and `..._ffma_...` are "
       "FP32 matrix products computed on the CUDA cores (fused multiply-add), not on the tensor cores; `fmha_` is "
       "attention; `at::native::...` are PyTorch's element-wise and reduction kernels."),
    go("%plot kernels --top 10 train"),
    go('''kern, _ := train.Stats(ctx, "cuda_gpu_kern_sum")
isFP32GEMM := func(name string) bool {
	return strings.Contains(name, "sgemm") || strings.Contains(name, "f32f32_f32f32")
}
var all, top5, fp32 int64
for i := 0; i < kern.Len(); i++ {
	ns := kern.Col("Total Time").Value(i).I
	all += ns
	if i < 5 {
		top5 += ns
	}
	if isFP32GEMM(kern.Col("Name").Text(i)) {
		fp32 += ns
	}
}
fmt.Printf("%d kernel names, %.1f ms of kernel time; the top 5 take %.1f%% of it.\\n", kern.Len(), ms(all), pct(top5, all))
fmt.Printf("FP32 GEMMs on the CUDA cores take %.1f ms, %.1f%% of all kernel time.\\n", ms(fp32), pct(fp32, all))'''),
    md("## 5. The CUDA API: where the host waits\n\n"
       "`cuda_api_sum` (in the default set above) measures CUDA calls on the CPU. A synchronising call at the top "
       "means the host spends its time waiting for queued GPU work to finish."),
    go('''api, _ := train.Stats(ctx, "cuda_api_sum")
for i := 0; i < api.Len(); i++ {
	if api.Col("Name").Text(i) == "cudaStreamSynchronize" {
		n := api.Col("Num Calls").Value(i).I
		fmt.Printf("cudaStreamSynchronize: %.1f%% of CUDA API time, %d calls (%.0f per captured iteration), %.1f ms in all.\\n",
			api.Col("Time").Value(i).AsFloat(), n, float64(n)/float64(hi-lo+1), ms(api.Col("Total Time").Value(i).I))
	}
}'''),
    md("## 6. Memory operations\n\n"
       "Host-to-device copies from pageable memory are staged by the driver and block the host; the "
       "`cuda_memcpy_async` rule lists `cudaMemcpyAsync` calls that used pageable memory."),
    go("%nsys stats -r cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum train"),
    go('''pageable, _ := train.Analyze(ctx, "cuda_memcpy_async")
var copyNs int64
for i := 0; i < pageable.Len(); i++ {
	copyNs += pageable.Col("Duration").Value(i).I
}
fmt.Printf("%d cudaMemcpyAsync calls copied from pageable memory; their copies took %.3f ms on the GPU, %.2f%% of the kernel time.\\n",
	pageable.Len(), ms(copyNs), pct(copyNs, all))'''),
    md("## 7. The expert rules\n\n"
       "`%nsys analyze` runs every rule of `nsys analyze`. Each table explains what it found and what to try."),
    go("%nsys analyze train"),
    md("## 8. What to fix first\n\n"
       "Rank the candidates by the time at stake: the GPU time a fix could remove at most. The table is built in Go "
       "from the numbers above (`:dur_ns` columns are shown with nsys's time headers)."),
    go('''gaps, _ := train.Analyze(ctx, "gpu_gaps:gap=1")
var idle int64
for i := 0; i < gaps.Len(); i++ {
	idle += gaps.Col("Duration").Value(i).I
}
type cand struct {
	what, evidence, fix string
	ns                  int64
}
cands := []cand{
	{"FP32 GEMMs on CUDA cores", fmt.Sprintf("%.1f%% of kernel time", pct(fp32, all)), "bf16 autocast (or TF32) so GEMMs use tensor cores", fp32},
	{"GPU gaps over 1 ms", fmt.Sprintf("%d gaps", gaps.Len()), "remove the synchronize + sleep in the log step", idle},
	{"pageable H2D copies", fmt.Sprintf("%d copies", pageable.Len()), "pin_memory() and non_blocking=True", copyNs},
}
sort.Slice(cands, func(a, b int) bool { return cands[a].ns > cands[b].ns })
plan := nsysx.NewResult("fix_first", "What to fix first", "Candidate", "Evidence", "At stake:dur_ns", "Share of kernel time", "Fix")
for _, c := range cands {
	plan.Add(nsysx.TextV(c.what), nsysx.TextV(c.evidence), nsysx.IntV(c.ns), nsysx.TextV(fmt.Sprintf("%.2f%%", pct(c.ns, all))), nsysx.TextV(c.fix))
}
fmt.Printf("Fix first: %s (%.1f ms at stake, %.0fx the next candidate). Notebook 06 measures what the fix did.\\n",
	cands[0].what, ms(cands[0].ns), float64(cands[0].ns)/float64(cands[1].ns))
plan'''),
    exercises([
        ("Which of the NVTX ranges `data`, `forward`, `backward`, `optimizer`, `log` takes the most time in total?",
         '''best, bestNs := "", int64(0)
for i := 0; i < ranges.Len(); i++ {
	name := ranges.Col("Range").Text(i)
	for _, r := range []string{":data", ":forward", ":backward", ":optimizer", ":log"} {
		if name == r && ranges.Col("Total Time").Value(i).I > bestNs {
			best, bestNs = name, ranges.Col("Total Time").Value(i).I
		}
	}
}
fmt.Println(best, bestNs, "ns")'''),
        ("How many kernels does one captured iteration launch on average?",
         'fmt.Printf("%.0f kernels per iteration\\n", float64(len(ks))/float64(hi-lo+1))'),
    ], "**Next:** `02_gpu_idle_time.ipynb` looks at the moments the GPU had nothing to do."),
]

IDLE = [
    md("# 02 · Diagnose GPU idle time\n\n"
       "A GPU that waits for the host is wasted. This workflow finds the gaps in `train` (the script of notebook 01), "
       "looks at utilisation over time, splits kernel launches into launch, queue and execution time, lists what "
       "the CPU was doing during the gaps, and matches the usual causes (slow data loading, synchronous memcpy, "
       "over-synchronisation, host compute or stalls) against that evidence."),
    go("%open " + P + "train.sqlite.gz"),
    md("## 1. The gaps\n\n"
       "The `gpu_gaps` rule reports stretches where a GPU ran no kernel and no memory operation for longer than a "
       "threshold, 500 ms by default: longer than a whole iteration here (notebook 04 measures them), so use 1 ms."),
    go(BASE_GO + '''
byDefault, _ := train.Analyze(ctx, "gpu_gaps")
gaps, _ := train.Analyze(ctx, "gpu_gaps:gap=1")
var idle int64
for i := 0; i < gaps.Len(); i++ {
	idle += gaps.Col("Duration").Value(i).I
}
fmt.Printf("At 500 ms nsys reports %d gaps; at 1 ms it reports %d, %.2f ms of idle GPU in all.\\n", byDefault.Len(), gaps.Len(), ms(idle))
gaps'''),
    md("## 2. Utilisation over time\n\n"
       "The chart bins the timeline and colours each bin by the share of it the GPU was running kernels "
       "(nsys's `cuda_gpu_time_util_map`); idle bins are marked."),
    go("%plot gpu-util --bins 60 train"),
    go('''low, _ := train.Analyze(ctx, "gpu_time_util")
fmt.Printf("The gpu_time_util rule finds %d stretches below 50%% utilisation: the gaps are short and rare, not a slow GPU pipeline.\\n", low.Len())'''),
    md("## 3. Launch, queue and execution: `cuda_kern_exec_sum`\n\n"
       "For each kernel launch, nsys splits the time from the API call to the kernel's end into **A** (the launch API "
       "call on the CPU), **Q** (queued: from the end of the call to the kernel's start) and **K** (the kernel "
       "running); **T** is the total. A long Q means the GPU was busy with earlier work (good: the host is ahead); "
       "a Q near zero with gaps means the host launches just in time."),
    go('''exec, _ := train.Stats(ctx, "cuda_kern_exec_sum")
fmt.Println(exec.Len(), "rows (thread, device, kernel); the columns that matter here, for the first rows:")
view := nsysx.NewResult("exec", "Launch, queue and kernel time", "Kernel", "Count", "API avg:dur_ns", "Queue avg:dur_ns", "Kernel avg:dur_ns")
var launches int64
var q, kt, a float64
for i := 0; i < exec.Len(); i++ {
	n := exec.Col("Count").Value(i).I
	launches += n
	a += float64(n) * exec.Col("AAvg").Value(i).AsFloat()
	q += float64(n) * exec.Col("QAvg").Value(i).AsFloat()
	kt += float64(n) * exec.Col("KAvg").Value(i).AsFloat()
	view.Add(exec.Col("Kernel Name").Value(i), nsysx.IntV(n), nsysx.IntV(int64(exec.Col("AAvg").Value(i).AsFloat())),
		nsysx.IntV(int64(exec.Col("QAvg").Value(i).AsFloat())), nsysx.IntV(int64(exec.Col("KAvg").Value(i).AsFloat())))
}
nb.Table(view, 8)'''),
    go('''fmt.Printf("Over %d launches, a launch call took %.1f us, the kernel then waited %.2f ms in the queue and ran %.1f us, on average.\\n",
	launches, a/float64(launches)/1e3, q/float64(launches)/1e6, kt/float64(launches)/1e3)
fmt.Println("A queue time far above the launch time means the host runs ahead of the GPU: launch overhead does not idle it.")'''),
    md("## 4. What the CPU did during the gaps\n\n"
       "Overlap every OS runtime call, CUDA API call and NVTX range of the profile with the gaps found above: what "
       "runs while the GPU waits is the suspect."),
    go('''type span struct{ s, e int64 }
var gs []span
for i := 0; i < gaps.Len(); i++ {
	s := gaps.Col("Start").Value(i).I
	gs = append(gs, span{s, s + gaps.Col("Duration").Value(i).I})
}
inGaps := func(s, e int64) int64 {
	var n int64
	for _, g := range gs {
		lo, hi := s, e
		if g.s > lo {
			lo = g.s
		}
		if g.e < hi {
			hi = g.e
		}
		if hi > lo {
			n += hi - lo
		}
	}
	return n
}
during := map[string]int64{}
add := func(table, kind string) {
	t, err := train.Load(ctx, table, "start", "end", "nameId")
	if err != nil {
		panic(err)
	}
	for i := 0; i < t.N; i++ {
		if n := inGaps(t.Col("start").Int(i), t.Col("end").Int(i)); n > 0 {
			name, _ := train.String(ctx, t.Col("nameId").Int(i))
			during[kind+"\\t"+name] += n
		}
	}
}
add("OSRT_API", "OS runtime")
add("CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA API")
nv, _ := train.Load(ctx, "NVTX_EVENTS", "start", "end", "text", "textId")
for i := 0; i < nv.N; i++ {
	if n := inGaps(nv.Col("start").Int(i), nv.Col("end").Int(i)); n > 0 {
		name := nv.Col("text").Str(i)
		if name == "" {
			name, _ = train.String(ctx, nv.Col("textId").Int(i))
		}
		if strings.HasPrefix(name, "iteration ") {
			name = "iteration N"
		}
		during["NVTX range\\t"+name] += n
	}
}
keys := []string{}
for k := range during {
	keys = append(keys, k)
}
sort.Slice(keys, func(a, b int) bool { return during[keys[a]] > during[keys[b]] })
seen := nsysx.NewResult("in_gaps", "What ran during the GPU gaps", "Source", "Name", "Time in gaps:dur_ns", "Share of gap time")
for _, k := range keys {
	f := strings.Split(k, "\\t")
	seen.Add(nsysx.TextV(f[0]), nsysx.TextV(f[1]), nsysx.IntV(during[k]), nsysx.TextV(fmt.Sprintf("%.1f%%", pct(during[k], idle))))
}
seen'''),
    md("## 5. Causes and fixes, matched to the evidence\n\n"
       "The usual causes of GPU idle time, each with the evidence that would show it and what was found here. "
       "`Matched` is yes when the evidence covers at least 10% of the gap time."),
    go('''sumPrefix := func(prefix string, names ...string) int64 {
	var n int64
	for k, v := range during {
		for _, name := range names {
			if strings.HasPrefix(k, prefix+"\\t"+name) {
				n += v
				break
			}
		}
	}
	return n
}
memsync, _ := train.Analyze(ctx, "cuda_memcpy_sync")
dataNs := sumPrefix("NVTX range", "data")
copyNs := sumPrefix("CUDA API", "cudaMemcpy")
syncNs := sumPrefix("CUDA API", "cudaStreamSynchronize", "cudaDeviceSynchronize")
sleepNs := sumPrefix("OS runtime", "clock_nanosleep", "nanosleep", "usleep")
causes := nsysx.NewResult("causes", "GPU idle: causes and fixes", "Cause", "Evidence looked for", "Found in gaps:dur_ns", "Matched", "Fix")
type cause struct {
	name, evidence, fix string
	ns                  int64
}
list := []cause{
	{"slow data loading", "NVTX data range during gaps", "DataLoader workers, pin_memory, prefetch", dataNs},
	{"synchronous memcpy", fmt.Sprintf("cudaMemcpy* during gaps (cuda_memcpy_sync: %d rows)", memsync.Len()), "pinned memory + non_blocking copies", copyNs},
	{"over-synchronisation", "cudaStreamSynchronize/cudaDeviceSynchronize during gaps", "drop .item()/synchronize from the step", syncNs},
	{"host compute or stall", "sleep calls during gaps", "move host work off the critical path", sleepNs},
}
var matched []string
for _, c := range list {
	m := "no"
	if float64(c.ns) >= 0.1*float64(idle) {
		m = "yes"
		matched = append(matched, fmt.Sprintf("%s (%.0f%% of gap time)", c.name, pct(c.ns, idle)))
	}
	causes.Add(nsysx.TextV(c.name), nsysx.TextV(c.evidence), nsysx.IntV(c.ns), nsysx.TextV(m), nsysx.TextV(c.fix))
}
fmt.Printf("Conclusion for train: %d gaps, %.2f ms; matched causes: %s.\\n", gaps.Len(), ms(idle), strings.Join(matched, ", "))
causes'''),
    md("## 6. All of the idle time: `gpu_idle_breakdown`\n\n"
       "Gaps over 1 ms are the visible part. nsysx's `gpu_idle_breakdown` report (nsys has none) takes every "
       "nanosecond the GPU ran nothing, however short, and splits it by what the thread that launched the GPU's "
       "next operation was doing meanwhile: in a sync call, a synchronous copy, launching, another CUDA call, an "
       "OS runtime call, busy outside any traced call, or before the first / after the last GPU work. The first rows are the "
       "whole capture (`(all)`); then one block per iteration."),
    go("nb.SetMaxRows(6)\n%nsys stats -r gpu_idle_breakdown train"),
    go('''bd, _ := train.Stats(ctx, "gpu_idle_breakdown")
var total int64
shares := []string{}
for i := 0; i < bd.Len(); i++ {
	if bd.Col("Iteration").Text(i) != "(all)" {
		continue
	}
	total = bd.Col("Idle").Value(i).I
	shares = append(shares, fmt.Sprintf("%s %.1f%%", bd.Col("Category").Text(i), bd.Col("Share of Idle").Value(i).AsFloat()))
}
fmt.Printf("The GPU is idle %.1f ms in all; the gaps over 1 ms are %.1f ms of it (%.0f%%). The idle time splits as: %s.\\n",
	ms(total), ms(idle), pct(idle, total), strings.Join(shares, ", "))'''),
    md("The same shares per iteration as a chart (`%plot idle`): the iterations with a sleep stand out."),
    go("%plot idle train"),
    md("`view=evidence` names the calls behind each share (the longest piece and where it starts):"),
    go("nb.SetMaxRows(8)\n%nsys stats -r gpu_idle_breakdown:view=evidence train"),
    md("Several causes can overlap the same gap (a sleep inside the `log` range that also synchronised); the "
       "shares are each of the whole gap time, so they need not add up to 100%."),
    exercises([
        ("The built-in sample (`sync.cu`) stalls the host on purpose. How long is its longest GPU gap at the "
         "default 500 ms threshold?",
         '''s, _ := nsysx.OpenSample()
sg, _ := s.Analyze(ctx, "gpu_gaps")
fmt.Println(sg.Len(), "gaps; the first is", sg.Col("Duration").Value(0).I, "ns")'''),
        ("Which iterations contain the gaps? (Hint: NVTX ranges named `iteration N` that overlap a gap.)",
         '''for i := 0; i < nv.N; i++ {
	name := nv.Col("text").Str(i)
	if name == "" {
		name, _ = train.String(ctx, nv.Col("textId").Int(i))
	}
	if strings.HasPrefix(name, "iteration ") && inGaps(nv.Col("start").Int(i), nv.Col("end").Int(i)) > 0 {
		fmt.Println(name)
	}
}'''),
    ], "**Next:** `03_distributed_training.ipynb` looks at two ranks of a data-parallel job."),
]
