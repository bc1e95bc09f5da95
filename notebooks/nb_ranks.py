"""Notebooks 03 (distributed training) and 04 (iteration time consistency)."""
from nbcells import GO_FMT, P, exercises, go, md

HELPERS = GO_FMT + '''
// rangeAvg is the average duration of an NVTX range in nvtx_sum (":name").
func rangeAvg(p *nsysx.Profile, name string) float64 {
	r, _ := p.Stats(ctx, "nvtx_sum")
	for i := 0; i < r.Len(); i++ {
		if r.Col("Range").Text(i) == ":"+name {
			return r.Col("Avg").Value(i).AsFloat()
		}
	}
	return 0
}
'''

DISTRIBUTED = [
    md("# 03 · Distributed training: two ranks, one straggler\n\n"
       "`rank0` and `rank1` are the two processes of `../testdata/workloads/ddp.py` under `torchrun "
       "--nproc_per_node=2`: a 6-block MLP trained with DistributedDataParallel, gradients all-reduced over NCCL, "
       "one report per rank. nsys's recipes run over all ranks at once; `%nsys recipe NAME --input ...` runs them "
       "in the notebook (the same as `nsys recipe NAME --input rank0.nsys-rep rank1.nsys-rep`)."),
    go("%open " + P + "rank0.sqlite.gz\n%open " + P + "rank1.sqlite.gz"),
    md("## 1. NCCL operations per rank: `nccl_sum`\n\n"
       "Statistics of the NCCL API ranges (`ncclAllReduce` ...) per rank and over all ranks."),
    go("%nsys recipe nccl_sum --input rank0 rank1"),
    md("## 2. Communication and computation over time\n\n"
       "`nccl_gpu_time_util_map` bins each rank's timeline and gives, per bin, the share of time the GPU ran NCCL "
       "kernels, compute kernels and both at once; `cuda_gpu_time_util_map` the share of time any kernel ran. "
       "The charts under each table draw the bins as heatmaps, one row per rank."),
    go("%nsys recipe nccl_gpu_time_util_map --input rank0 rank1 --bins 40"),
    go("%nsys recipe cuda_gpu_time_util_map --input rank0 rank1 --bins 40"),
    md("## 3. Overlap: `nccl_gpu_overlap_trace`\n\n"
       "One row per kernel of each rank: for an NCCL kernel, the share of its time that overlapped compute "
       "kernels on the same GPU (`Compute Overlap`, %); for a compute kernel, the share that overlapped NCCL "
       "kernels (`Communication Overlap`). Communication hidden under compute is free; exposed communication "
       "adds to the step time."),
    go("%nsys recipe nccl_gpu_overlap_trace --input rank0 rank1 -v overlap"),
    go(HELPERS + '''
tr := overlap.Output.Table("rank_trace")
starts, ends := tr.Col("Start").Ints(), tr.Col("End").Ints()
comp, ranks, names := tr.Col("Compute Overlap").Floats(), tr.Col("Rank").Ints(), tr.Col("Name").Strings()
var n [2]int
var ns [2]int64
var hidden [2]float64
for i := range starts {
	if !strings.HasPrefix(names[i], "nccl") {
		continue
	}
	r, d := int(ranks[i]), ends[i]-starts[i]
	n[r]++
	ns[r] += d
	hidden[r] += float64(d) * comp[i] / 100
}
for r := 0; r < 2; r++ {
	fmt.Printf("rank%d: %d NCCL kernels, %.1f ms, %.1f%% of that time overlapped with compute kernels\\n", r, n[r], ms(ns[r]), 100*hidden[r]/float64(ns[r]))
}'''),
    md("## 4. Finding the straggler by comparing ranks\n\n"
       "In data-parallel training every rank waits in the all-reduce for the slowest one. The NCCL kernel of a rank "
       "that arrives early starts and then spins until the other rank joins, so **a large NCCL share of GPU time "
       "marks the rank that waits, and the other rank is the straggler**. Compare each rank's NCCL share with the "
       "time it spends in its own NVTX ranges."),
    go('''ncclShare := func(p *nsysx.Profile) (int64, int64) {
	r, _ := p.Stats(ctx, "cuda_gpu_kern_sum")
	var nccl, all int64
	for i := 0; i < r.Len(); i++ {
		ns := r.Col("Total Time").Value(i).I
		all += ns
		if strings.HasPrefix(r.Col("Name").Text(i), "nccl") {
			nccl += ns
		}
	}
	return nccl, all
}
cmp := nsysx.NewResult("ranks", "Rank against rank", "Rank", "NCCL kernels:dur_ns", "All kernels:dur_ns", "NCCL share",
	"data range avg:dur_ns", "forward avg:dur_ns", "backward avg:dur_ns")
var share [2]float64
var data [2]float64
for i, p := range []*nsysx.Profile{rank0, rank1} {
	nccl, all := ncclShare(p)
	share[i], data[i] = pct(nccl, all), rangeAvg(p, "data")
	cmp.Add(nsysx.TextV(p.Base()), nsysx.IntV(nccl), nsysx.IntV(all), nsysx.TextV(fmt.Sprintf("%.1f%%", share[i])),
		nsysx.IntV(int64(data[i])), nsysx.IntV(int64(rangeAvg(p, "forward"))), nsysx.IntV(int64(rangeAvg(p, "backward"))))
}
fmt.Printf("Per step, rank1's data range is %.1f ms longer than rank0's (%.1f against %.1f ms); its forward is %.1f ms shorter.\\n",
	(data[1]-data[0])/1e6, data[1]/1e6, data[0]/1e6, (rangeAvg(rank0, "forward")-rangeAvg(rank1, "forward"))/1e6)
fmt.Printf("NCCL is %.1f%% of rank0's kernel time and %.1f%% of rank1's.\\n", share[0], share[1])
cmp'''),
    md("Averages hide the order of events. The ranks run on one host, so their timestamps share a clock: "
       "`nvtx_pace --name forward` gives the start of each iteration's `forward` range on each rank "
       "(`pace_start`, one column per rank), and the rank that starts later reaches the all-reduce later."),
    go("%nsys recipe nvtx_pace --name forward --input rank0 rank1 -v pace"),
    go('''st := pace.Output.Table("pace_start")
r0, r1 := st.Col("0").Ints(), st.Col("1").Ints()
later := 0
lags := []float64{}
for i := range r0 {
	if r1[i] > r0[i] {
		later++
	}
	lags = append(lags, float64(r1[i]-r0[i])/1e6)
}
sort.Float64s(lags)
slow, fast := 1, 0
if later*2 < len(r0) {
	slow, fast = 0, 1
}
fmt.Printf("rank1 starts forward after rank0 in %d of %d iterations (median lag %.1f ms): rank%d is the straggler.\\n", later, len(r0), lags[len(lags)/2], slow)
fmt.Printf("The waiting rank's all-reduce kernels spin until the straggler joins: NCCL is %.1f%% of rank%d's kernel time against %.1f%% of rank%d's.\\n",
	share[fast], fast, share[slow], slow)
fmt.Printf("Fix: give rank%d no extra host work (here the data step), or overlap it with the GPU; the other rank then stops waiting.\\n", slow)'''),
    md("Communication against compute over time, one row per rank (overlap shaded):"),
    go("%plot nccl rank0 rank1"),
    md("## When the job has thousands of ranks\n\n"
       "The recipes above map each rank's report in parallel on this machine. For a job whose reports outgrow "
       "one machine, `nsysx-beam` runs the very same recipes as an Apache Beam pipeline and writes the same "
       "output directory (Prism in-process by default). To submit to a Flink job server with the Go SDK "
       "harness (Spark: `apache/beam_spark3_job_server:2.77.0` and `--runner spark`):\n\n"
       "```sh\n"
       "cd beam && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o ../nsysx-beam ./cmd/nsysx-beam && cd ..\n"
       "docker run --net=host apache/beam_flink1.19_job_server:2.77.0 --flink-master=FLINK_HOST:8081\n"
       "./nsysx-beam recipe nccl_gpu_overlap_trace --input gs://bucket/run42/ --output gs://bucket/run42-overlap \\\n"
       "    --runner flink --endpoint localhost:8099 \\\n"
       "    --environment_type DOCKER --environment_config apache/beam_go_sdk:2.77.0 --worker_binary ./nsysx-beam\n"
       "```\n\n"
       "Verified in our tests with Prism (in-process and a stand-alone job server with LOOPBACK); Flink, Spark and "
       "Dataflow clusters were not reachable from our machines (README, \"Recipes on Apache Beam\")."),
    exercises([
        ("How many NCCL kernels ran on each rank, and what was the longest one?",
         '''for _, p := range []*nsysx.Profile{rank0, rank1} {
	r, _ := p.Stats(ctx, "cuda_gpu_kern_sum")
	for i := 0; i < r.Len(); i++ {
		if strings.HasPrefix(r.Col("Name").Text(i), "nccl") {
			fmt.Println(p.Base(), r.Col("Instances").Value(i).I, "instances, max", r.Col("Max").Value(i).I, "ns")
		}
	}
}'''),
        ("Run `cuda_gpu_kern_sum` as a recipe over both ranks and look at its `rank_stats` table: which kernels "
         "differ most between the ranks?", "%nsys recipe cuda_gpu_kern_sum --input rank0 rank1", ""),
    ], "**Next:** `04_iteration_consistency.ipynb` looks for iterations that take longer than the others."),
]

ITER_GO = '''// iteration is one "iteration N" NVTX range.
type iteration struct {
	n          int
	start, end int64
}
nv, _ := train.Load(ctx, "NVTX_EVENTS", "start", "end", "text", "textId")
var iters []iteration
for i := 0; i < nv.N; i++ {
	name := nv.Col("text").Str(i)
	if name == "" {
		name, _ = train.String(ctx, nv.Col("textId").Int(i))
	}
	var n int
	if _, err := fmt.Sscanf(name, "iteration %d", &n); err == nil {
		iters = append(iters, iteration{n, nv.Col("start").Int(i), nv.Col("end").Int(i)})
	}
}
sort.Slice(iters, func(a, b int) bool { return iters[a].n < iters[b].n })
ds := make([]float64, len(iters))
for i, it := range iters {
	ds[i] = float64(it.end - it.start)
}
sorted := append([]float64(nil), ds...)
sort.Float64s(sorted)
median := sorted[len(sorted)/2]
dev := make([]float64, len(ds))
for i, d := range ds {
	dev[i] = d - median
	if dev[i] < 0 {
		dev[i] = -dev[i]
	}
}
sort.Float64s(dev)
mad := dev[len(dev)/2]
outliers := nsysx.NewResult("outliers", "Outlier iterations (over median + 5 MAD)", "Iteration", "Duration:dur_ns", "Over median:dur_ns", "Sleeps inside")
osrt, _ := train.Load(ctx, "OSRT_API", "start", "end", "nameId")
var outNames []string
for i, it := range iters {
	if ds[i] > median+5*mad {
		sleeps := 0
		for j := 0; j < osrt.N; j++ {
			name, _ := train.String(ctx, osrt.Col("nameId").Int(j))
			if strings.Contains(name, "sleep") && osrt.Col("start").Int(j) >= it.start && osrt.Col("end").Int(j) <= it.end {
				sleeps++
			}
		}
		outNames = append(outNames, fmt.Sprintf("iteration %d", it.n))
		outliers.Add(nsysx.TextV(fmt.Sprintf("iteration %d", it.n)), nsysx.IntV(int64(ds[i])), nsysx.IntV(int64(ds[i]-median)), nsysx.IntV(int64(sleeps)))
	}
}
fmt.Printf("%d iterations: median %.2f ms, MAD %.3f ms; outliers: %s.\\n", len(iters), median/1e6, mad/1e6, strings.Join(outNames, ", "))
outliers'''

ITERATIONS = [
    md("# 04 · Iteration time consistency\n\n"
       "A training loop should take the same time every step; iterations that take longer point at work that "
       "happens only sometimes (logging, checkpoints, synchronisation, garbage collection). This workflow uses "
       "`train` (notebook 01's script): NVTX push/pop statistics, the ranges projected onto the GPU, the "
       "`nvtx_pace` recipe, and the outliers found and drawn on a timeline."),
    go("%open " + P + "train.sqlite.gz"),
    md("## 1. NVTX ranges on the CPU: `nvtx_pushpop_sum`\n\n"
       "Push/pop ranges by name: how often and how long. With PyTorch's autograd ranges recorded too, the table "
       "is long; `nb.SetMaxRows(12)` shows its first rows."),
    go("nb.SetMaxRows(12)\n%nsys stats -r nvtx_pushpop_sum train"),
    md("## 2. The same ranges projected onto the GPU: `nvtx_gpu_proj_sum`\n\n"
       "A range's GPU projection runs from the start of the first GPU operation it launched to the end of the "
       "last one. A CPU range much shorter than its projection means the host ran ahead (asynchronous launches); "
       "much longer means the host did work the GPU did not see."),
    go("%nsys stats -r nvtx_gpu_proj_sum train"),
    go(HELPERS + '''
proj, _ := train.Stats(ctx, "nvtx_gpu_proj_sum")
for i := 0; i < proj.Len(); i++ {
	name := proj.Col("Range").Text(i)
	if name == ":forward" || name == ":backward" || name == ":log" {
		fmt.Printf("%-10s CPU %.2f ms on average, projected onto the GPU %.2f ms\\n", name[1:], rangeAvg(train, name[1:])/1e6,
			proj.Col("Proj Avg").Value(i).AsFloat()/1e6)
	}
}'''),
    md("A projection of 0 means that no GPU operation was launched from the range's own thread while it was open. "
       "Which threads launch the kernels? (`globalTid` packs the process and thread ids; the low 24 bits are the "
       "thread id.)"),
    go('''%%sql train
SELECT r.globalTid % 16777216 AS tid, count(*) AS kernels, sum(k."end" - k.start) AS kernel_ns
FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId
GROUP BY 1 ORDER BY 2 DESC'''),
    md("Two threads launch kernels: the Python main thread (forward, optimizer) and PyTorch's autograd engine "
       "thread, which runs the backward pass; notebook 05 shows its call stacks. The `backward` range, pushed on "
       "the main thread, therefore projects no GPU time of its own."),
    md("## 3. The pace of the loop: `%nsys recipe nvtx_pace`\n\n"
       "`nvtx_pace --name forward` takes each `forward` range as one iteration and tables its start, duration and the "
       "time since the previous one (`delta`), with charts of each."),
    go("%nsys recipe nvtx_pace --name forward --input train -v pace"),
    md("## 4. The outliers\n\n"
       "An iteration is an outlier here when its `iteration N` range is longer than the median by more than five "
       "median absolute deviations (a robust rule: a few slow steps do not move it). For each, the cell counts "
       "the OS runtime sleeps inside it."),
    go(ITER_GO),
    go("%plot iterations train"),
    md("## 5. An outlier on the timeline\n\n"
       "`%nsys timeline RANGE` draws one NVTX range's window: the CPU threads' NVTX ranges, CUDA API calls and OS "
       "runtime calls above the GPU's kernels and copies (drag to pan, wheel to zoom). The cell first checks that "
       "the iteration it draws is one of the outliers."),
    go('''drawn := "iteration 10"
found := false
for _, n := range outNames {
	found = found || n == drawn
}
fmt.Printf("%s is an outlier: %v. Look for the cudaDeviceSynchronize and the sleep in its log range, and the idle GPU after them.\\n", drawn, found)'''),
    go('%nsys timeline "iteration 10" train'),
    exercises([
        ("Which iteration is the fastest, and how much faster than the median is it?",
         '''best := 0
for i := range ds {
	if ds[i] < ds[best] {
		best = i
	}
}
fmt.Printf("iteration %d: %.2f ms, %.2f ms under the median\\n", iters[best].n, ds[best]/1e6, (median-ds[best])/1e6)'''),
        ("Draw the iterations chart for the `forward` ranges only.", '%plot iterations --match "^forward$" train', ""),
    ], "**Next:** `05_kernels_to_source.ipynb` attributes kernels to the code that launched them."),
]
