"""Notebooks 05 (kernels to source), 06 (before/after), 07 (cuDNN vs cuBLAS), 08 (DataLoader copies)."""
from nbcells import GO_FMT, P, exercises, go, md

AFTER_COPY_GO = '''// afterCopies counts, for each host-to-device copy call of p, the CUDA
// call that came next on the same thread, and the time spent in it.
func afterCopies(p *nsysx.Profile) (map[string]int, map[string]int64) {
	m, _ := p.Load(ctx, "CUPTI_ACTIVITY_KIND_MEMCPY", "correlationId", "copyKind")
	h2d := map[int64]bool{}
	for i := 0; i < m.N; i++ {
		if m.Col("copyKind").Int(i) == 1 {
			h2d[m.Col("correlationId").Int(i)] = true
		}
	}
	r, _ := p.Load(ctx, "CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "nameId", "globalTid", "correlationId")
	idx := make([]int, r.N)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return r.Col("start").Int(idx[a]) < r.Col("start").Int(idx[b]) })
	last := map[int64]bool{} // thread -> its previous call was an H2D copy
	n, ns := map[string]int{}, map[string]int64{}
	for _, i := range idx {
		tid := r.Col("globalTid").Int(i)
		name, _ := p.String(ctx, r.Col("nameId").Int(i))
		name = strings.SplitN(name, "_v", 2)[0]
		if last[tid] {
			n[name]++
			ns[name] += r.Col("end").Int(i) - r.Col("start").Int(i)
		}
		last[tid] = h2d[r.Col("correlationId").Int(i)]
	}
	return n, ns
}
'''

STACKS_GO = '''kt, _ := bt.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "correlationId", "demangledName")
rt, _ := bt.Load(ctx, "CUPTI_ACTIVITY_KIND_RUNTIME", "correlationId", "callchainId")
cc, _ := bt.Load(ctx, "CUDA_CALLCHAINS", "id", "symbol", "stackDepth")
chainOf := map[int64]int64{}
for i := 0; i < rt.N; i++ {
	if !rt.Col("callchainId").IsNull(i) {
		chainOf[rt.Col("correlationId").Int(i)] = rt.Col("callchainId").Int(i)
	}
}
frames := map[int64][]string{}
for i := 0; i < cc.N; i++ {
	id, d := cc.Col("id").Int(i), int(cc.Col("stackDepth").Int(i))
	for len(frames[id]) <= d {
		frames[id] = append(frames[id], "")
	}
	frames[id][d], _ = bt.String(ctx, cc.Col("symbol").Int(i))
}
// stack is the resolved frames of a call chain, innermost first, from the CUDA call.
stack := func(id int64) []string {
	var out []string
	for _, f := range frames[id] {
		if f != "" && !strings.HasPrefix(f, "0x") {
			out = append(out, f)
		}
	}
	return out
}
topName := kern.Col("Name").Text(0)
type path struct {
	frames []string
	n      int
	ns     int64
}
paths := map[string]*path{}
var withStack, without int
for i := 0; i < kt.N; i++ {
	name, _ := bt.String(ctx, kt.Col("demangledName").Int(i))
	if name != topName {
		continue
	}
	id, ok := chainOf[kt.Col("correlationId").Int(i)]
	if !ok {
		without++
		continue
	}
	withStack++
	s := stack(id)
	key := strings.Join(s, "\\n")
	if paths[key] == nil {
		paths[key] = &path{frames: s}
	}
	paths[key].n++
	paths[key].ns += kt.Col("end").Int(i) - kt.Col("start").Int(i)
}
var ps []*path
for _, p := range paths {
	ps = append(ps, p)
}
sort.Slice(ps, func(a, b int) bool { // ties in the order of the frames, so that runs agree
	if ps[a].ns != ps[b].ns {
		return ps[a].ns > ps[b].ns
	}
	return strings.Join(ps[a].frames, "\\n") < strings.Join(ps[b].frames, "\\n")
})
fmt.Printf("%s: %d instances with a call stack, %d without; %d distinct stacks.\\n\\n", topName, withStack, without, len(ps))
for i, p := range ps {
	if i == 2 {
		break
	}
	fmt.Printf("stack %d: %d kernels, %.1f ms\\n", i+1, p.n, ms(p.ns))
	for _, f := range p.frames {
		if len(f) > 110 {
			f = f[:107] + "..."
		}
		fmt.Println("   ", f)
	}
	fmt.Println()
}'''

SOURCE = [
    md("# 05 · Attribute kernels to source\n\n"
       "Which line of the model launched the kernel at the top of the table? Two kinds of evidence answer it: "
       "PyTorch's **autograd NVTX ranges** (`--pytorch=autograd-nvtx` names a range after each operator, "
       "`AddmmBackward0, seq = ..., op_id = ...`) and **CUDA call stacks** (`--cudabacktrace=all` records the "
       "native stack of each CUDA API call). `bt` is `train.py` (4 layers, 8 iterations) recorded with both."),
    go("%open " + P + "bt.sqlite.gz"),
    md("## 1. Kernels per NVTX range: `nvtx_kern_sum`\n\n"
       "One row per (range, kernel) pair: the kernels launched while the range was open on the launching thread."),
    go("nb.SetMaxRows(10)\nnb.SetMaxText(40)\n%nsys stats -r nvtx_kern_sum bt"),
    md("Thousands of rows, one per operator instance. Group them by operator name (the text before the first "
       "comma) to see which operators own the GPU time. A kernel counts once per enclosing range, so the nested "
       "user ranges (`forward`, `attention` ...) are left out here."),
    go(GO_FMT + '''
nks, _ := bt.Stats(ctx, "nvtx_kern_sum")
kern, _ := bt.Stats(ctx, "cuda_gpu_kern_sum")
byOp := map[string]int64{}
kernOp := map[string]map[string]int64{}
for i := 0; i < nks.Len(); i++ {
	rng := strings.TrimPrefix(nks.Col("NVTX Range").Text(i), ":")
	if !strings.Contains(rng, ", seq = ") && !strings.Contains(rng, "op_id") {
		continue
	}
	op := strings.SplitN(rng, ",", 2)[0]
	ns := nks.Col("Total Time").Value(i).I
	byOp[op] += ns
	k := nks.Col("Kernel Name").Text(i)
	if kernOp[k] == nil {
		kernOp[k] = map[string]int64{}
	}
	kernOp[k][op] += ns
}
ops := []string{}
for op := range byOp {
	ops = append(ops, op)
}
sort.Slice(ops, func(a, b int) bool { // ties by name, so that runs agree
	if byOp[ops[a]] != byOp[ops[b]] {
		return byOp[ops[a]] > byOp[ops[b]]
	}
	return ops[a] < ops[b]
})
opTable := nsysx.NewResult("ops", "Kernel time by autograd operator", "Operator", "Kernel time:dur_ns")
for _, op := range ops {
	opTable.Add(nsysx.TextV(op), nsysx.IntV(byOp[op]))
}
top := kern.Col("Name").Text(0)
owners := []string{}
for op, ns := range kernOp[top] {
	owners = append(owners, fmt.Sprintf("%s %.1f ms", op, ms(ns)))
}
sort.Strings(owners)
fmt.Printf("%d operators. The top kernel (%.1f%% of kernel time) runs inside: %s.\\n", len(ops), kern.Col("Time").Value(0).AsFloat(), strings.Join(owners, "; "))
nb.Table(opTable, 12)'''),
    md("## 2. The call stacks of the top kernel\n\n"
       "Each kernel launch is a CUDA API call; with `--cudabacktrace` the call's native stack is in "
       "`CUDA_CALLCHAINS` (frame 0 innermost). Join the kernel to its launch by `correlationId`, group identical "
       "stacks and print the two that launched the most kernel time (unresolved addresses dropped)."),
    go(STACKS_GO),
    md("nsysx's `cuda_kern_stack_sum` report (nsys has none) does this for every kernel: each function's *self* "
       "time (kernel time of the launches where it is the innermost frame) and *inclusive* time (where it is "
       "anywhere on the stack), like pprof's `top`. `:noruntime` drops the CUDA driver and profiler frames; "
       "`:sort=inclusive` ranks the callers."),
    go("nb.SetMaxRows(12)\n%nsys stats -r cuda_kern_stack_sum:noruntime:sort=inclusive bt"),
    go('''ks, _ := bt.Stats(ctx, "cuda_kern_stack_sum:noruntime")
for i := 0; i < ks.Len(); i++ {
	if ks.Col("Function").Text(i) == "[no call stack recorded]" {
		fmt.Printf("Kernels whose launch has no recorded call stack: %.1f%% of kernel time.\\n", ks.Col("Self").Value(i).AsFloat())
	}
}'''),
    md("As a chart: `%plot stacks` draws the same attribution as an icicle (a flame chart upside down): the "
       "outermost callers on top, each box as wide as the kernel time launched under it. `%nsys export -t pprof` "
       "writes it for `go tool pprof` and other pprof viewers."),
    go("%plot stacks bt"),
    md("Read a stack from the top: the CUDA driver call, the library that issued it, the PyTorch operator, and "
       "the autograd engine or the Python interpreter that called the operator. The autograd frames "
       "(`...Backward0::apply`, `Engine::thread_main`) show which backward operator launched the kernel."),
    go('''cm, _ := bt.Load(ctx, "CUDA_CALLCHAINS", "symbol", "module")
pyFiles, interp := 0, 0
for i := 0; i < cm.N; i++ {
	sym, _ := bt.String(ctx, cm.Col("symbol").Int(i))
	mod, _ := bt.String(ctx, cm.Col("module").Int(i))
	if strings.HasSuffix(sym, ".py") || strings.Contains(sym, ".py:") {
		pyFiles++
	}
	if strings.Contains(mod, "/python3") && !strings.Contains(mod, "site-packages") {
		interp++
	}
}
fmt.Printf("Frames naming a Python source file: %d; frames in the Python interpreter itself: %d of %d.\\n", pyFiles, interp, cm.N)
if pyFiles == 0 {
	fmt.Println("The Python part of each stack is the interpreter's own C functions ([python] in the chart), not lines of " +
		"train.py: go from the PyTorch operator to the model's code with the NVTX ranges above.")
}'''),
    exercises([
        ("Which autograd operator launches the most kernels (instances, not time)?",
         '''count := map[string]int64{}
for i := 0; i < nks.Len(); i++ {
	rng := strings.TrimPrefix(nks.Col("NVTX Range").Text(i), ":")
	if strings.Contains(rng, ", seq = ") {
		count[strings.SplitN(rng, ",", 2)[0]] += nks.Col("Kern Inst").Value(i).I
	}
}
best := ""
for op := range count {
	if best == "" || count[op] > count[best] {
		best = op
	}
}
fmt.Println(best, count[best])'''),
        ("How many call chains (the stacks of traced CUDA API calls) does the capture hold?",
         'fmt.Println(len(frames), "call chains")'),
    ], "**Next:** `06_before_after.ipynb` measures what a fix did."),
]

BEFORE_AFTER = [
    md("# 06 · Before and after a fix\n\n"
       "Notebook 01 found that FP32 GEMMs on the CUDA cores dominate `train`. `fixed` is the same script run with "
       "`--pin --amp`: the data tensor in pinned memory, non-blocking copies, and the forward pass under bf16 "
       "autocast. It does **not** take the `.item()` and `synchronize` calls out of the loop. Did the fix help, by "
       "how much, and which part of it? (Section 3 counts what happened to the copies and the syncs.)"),
    go("%open " + P + "train.sqlite.gz\n%open " + P + "fixed.sqlite.gz"),
    md("## 1. `%nsys compare`: every kernel, range and API, with confidence intervals\n\n"
       "For each name, the change from `train` to `fixed` with a 95% bootstrap interval over iterations and a "
       "verdict (`faster`, `slower`, `no change`, or only in one profile); the `[all ...]` rows are the totals. "
       "Names present only before or only after are the kernels the fix swapped."),
    go("%nsys compare -q -f csv -o train_vs_fixed.csv train fixed"),
    md("The line above (the cell's stderr) is the comparability check: less than half of `train`'s kernel time, "
       "and of `fixed`'s, is in kernel names both profiles run, because bf16 autocast replaced the FP32 GEMM and "
       "attention kernels. The per-kernel rows then compare different work; the `[all kernels]` and "
       "`[all GPU work]` totals still measure the fix. Each change is the Hodges–Lehmann estimate of the "
       "per-iteration ratios after/before, iteration *i* of `train` paired with iteration *i* of `fixed` "
       "(`Method`: `paired-iterations`), so that a few slow calls do not decide it.\n\n"
       "The CSV has one row per name and a column per figure; the cell below keeps the ones to read first (the "
       "verdict, the change with its interval, the time per iteration before and after) for the 15 names whose "
       "time per iteration changed most."),
    go('''import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
)

f, _ := os.Open("train_vs_fixed.csv") // written beside the notebook by the cell above
rows, _ := csv.NewReader(f).ReadAll()
f.Close()
os.Remove("train_vs_fixed.csv")
col := map[string]int{}
for i, h := range rows[0] {
	col[h] = i
}
num := func(r []string, name string) float64 {
	v, _ := strconv.ParseFloat(r[col[name]], 64)
	return v
}
body := rows[1:]
sort.SliceStable(body, func(a, b int) bool {
	return math.Abs(num(body[a], "Delta Per Iteration (ns)")) > math.Abs(num(body[b], "Delta Per Iteration (ns)"))
})
view := nsysx.NewResult("compare", "train vs fixed: the largest changes per iteration", "Verdict", "Kind", "Name",
	"Change (%)", "CI Low (%)", "CI High (%)", "Before:dur_ns", "After:dur_ns")
for _, r := range body[:15] {
	view.Add(nsysx.TextV(r[col["Verdict"]]), nsysx.TextV(r[col["Kind"]]), nsysx.TextV(r[col["Name"]]),
		nsysx.TextV(r[col["Change (%)"]]), nsysx.TextV(r[col["CI Low (%)"]]), nsysx.TextV(r[col["CI High (%)"]]),
		nsysx.IntV(int64(num(r, "Before Per Iteration (ns)"))), nsysx.IntV(int64(num(r, "After Per Iteration (ns)"))))
}
methods := map[string]int{}
for _, r := range body {
	if m := r[col["Method"]]; m != "" { // new and vanished names have none
		methods[m]++
	}
}
fmt.Printf("%d names compared, %d columns each; methods: %v.\\n", len(body), len(rows[0]), methods)
view'''),
    go("%plot compare train fixed"),
    md("## 2. By how much"),
    go(GO_FMT + AFTER_COPY_GO + '''
kernMap := func(p *nsysx.Profile) (map[string]int64, int64) {
	r, _ := p.Stats(ctx, "cuda_gpu_kern_sum")
	m, all := map[string]int64{}, int64(0)
	for i := 0; i < r.Len(); i++ {
		m[r.Col("Name").Text(i)] = r.Col("Total Time").Value(i).I
		all += r.Col("Total Time").Value(i).I
	}
	return m, all
}
isFP32GEMM := func(name string) bool {
	return strings.Contains(name, "sgemm") || strings.Contains(name, "f32f32_f32f32")
}
iterMedian := func(p *nsysx.Profile) float64 {
	r, _ := p.Stats(ctx, "nvtx_sum")
	var d []float64
	for i := 0; i < r.Len(); i++ {
		if strings.HasPrefix(r.Col("Range").Text(i), ":iteration ") {
			d = append(d, float64(r.Col("Total Time").Value(i).I))
		}
	}
	sort.Float64s(d)
	return d[len(d)/2]
}
before, allB := kernMap(train)
after, allA := kernMap(fixed)
var fp32B, fp32A, gone, added, nvjet int64
for name, ns := range before {
	if isFP32GEMM(name) {
		fp32B += ns
	}
	if _, ok := after[name]; !ok {
		gone += ns
	}
}
for name, ns := range after {
	if isFP32GEMM(name) {
		fp32A += ns
	}
	if _, ok := before[name]; !ok {
		added += ns
		if strings.HasPrefix(name, "nvjet") {
			nvjet += ns
		}
	}
}
fmt.Printf("Kernel time: %.1f ms before, %.1f ms after: %.1fx less.\\n", ms(allB), ms(allA), float64(allB)/float64(allA))
fmt.Printf("FP32 GEMM kernels: %.1f ms before, %.1f ms after.\\n", ms(fp32B), ms(fp32A))
fmt.Printf("Kernels only in train: %.1f ms; kernels only in fixed: %.1f ms, of which %.1f ms are cuBLAS's nvjet tensor-core GEMMs.\\n", ms(gone), ms(added), ms(nvjet))
mb, ma := iterMedian(train), iterMedian(fixed)
fmt.Printf("Median iteration: %.1f ms before, %.1f ms after: %.1fx faster.\\n", mb/1e6, ma/1e6, mb/ma)'''),
    md("## 3. Which part of the fix did it\n\n"
       "Autocast swapped the kernels. What about pinned memory and the synchronisation? The script's `batch()` "
       "shows what `--pin` changes:"),
    go('''import "os"

src, _ := os.ReadFile("../testdata/workloads/train.py")
for i, line := range strings.Split(string(src), "\\n") {
	if strings.Contains(line, "pin") || strings.Contains(line, "clone") {
		fmt.Printf("%3d %s\\n", i+1, line)
	}
}'''),
    md("`data` is pinned, but each batch is a `clone()` of a slice of it, and a fresh CPU tensor is pageable "
       "unless pinned itself. The copies' source memory kind, from the export:"),
    go('''%%sql train as copiesBefore
SELECT e.label AS src, count(*) AS h2d_copies FROM CUPTI_ACTIVITY_KIND_MEMCPY m
JOIN ENUM_CUDA_MEM_KIND e ON e.id = m.srcKind WHERE m.copyKind = 1 GROUP BY 1'''),
    go('''%%sql fixed as copiesAfter
SELECT e.label AS src, count(*) AS h2d_copies FROM CUPTI_ACTIVITY_KIND_MEMCPY m
JOIN ENUM_CUDA_MEM_KIND e ON e.id = m.srcKind WHERE m.copyKind = 1 GROUP BY 1'''),
    go('''syncCalls := func(p *nsysx.Profile) (int64, int64) {
	r, _ := p.Stats(ctx, "cuda_api_sum")
	for i := 0; i < r.Len(); i++ {
		if r.Col("Name").Text(i) == "cudaStreamSynchronize" {
			return r.Col("Num Calls").Value(i).I, r.Col("Total Time").Value(i).I
		}
	}
	return 0, 0
}
pageable := func(p *nsysx.Profile) int {
	r, _ := p.Analyze(ctx, "cuda_memcpy_async")
	return r.Len()
}
nBefore, tb := syncCalls(train)
nAfter, ta := syncCalls(fixed)
fmt.Printf("cudaStreamSynchronize: %d calls before, %d after (%.1f ms and %.1f ms of waiting).\\n", nBefore, nAfter, ms(tb), ms(ta))
fmt.Printf("Copies from pageable memory (cuda_memcpy_async rule): %d before, %d after.\\n", pageable(train), pageable(fixed))
nB, _ := afterCopies(train)
nA, _ := afterCopies(fixed)
fmt.Printf("Calls right after a host-to-device copy: cudaStreamSynchronize %d times in train, %d in fixed.\\n", nB["cudaStreamSynchronize"], nA["cudaStreamSynchronize"])
nv, _ := fixed.Load(ctx, "NVTX_EVENTS", "start", "end", "text")
rt, _ := fixed.Load(ctx, "CUPTI_ACTIVITY_KIND_RUNTIME", "start", "nameId")
inLog := 0
for i := 0; i < rt.N; i++ {
	name, _ := fixed.String(ctx, rt.Col("nameId").Int(i))
	if !strings.HasPrefix(name, "cudaStreamSynchronize") {
		continue
	}
	for j := 0; j < nv.N; j++ {
		if nv.Col("text").Str(j) == "log" && rt.Col("start").Int(i) >= nv.Col("start").Int(j) && rt.Col("start").Int(i) <= nv.Col("end").Int(j) {
			inLog++
			break
		}
	}
}
fmt.Printf("In fixed, %d of its %d cudaStreamSynchronize calls are inside the log range (the loss.item() of every step).\\n", inLog, nAfter)
fmt.Println("So the fix removed the syncs of the blocking copies (non_blocking=True), kept the per-step .item() sync, and the copies stayed pageable.")
fmt.Printf("Conclusion: under bf16 autocast, kernels found only in train (%.1f ms, %.1f ms of them FP32 GEMMs) gave way to kernels found only in fixed (%.1f ms);\\n",
	ms(gone), ms(fp32B), ms(added))
fmt.Printf("kernel time fell %.1fx and the median iteration %.1fx. fixed still synchronises once per step (%d calls), and its copies are still pageable: the next fixes.\\n",
	float64(allB)/float64(allA), mb/ma, nAfter)'''),
    exercises([
        ("How much did the attention kernels (`fmha` in the name) change?",
         '''fmha := func(p *nsysx.Profile) int64 {
	r, _ := p.Stats(ctx, "cuda_gpu_kern_sum")
	var n int64
	for i := 0; i < r.Len(); i++ {
		if strings.Contains(r.Col("Name").Text(i), "fmha") {
			n += r.Col("Total Time").Value(i).I
		}
	}
	return n
}
fmt.Printf("%.1f ms -> %.1f ms\\n", ms(fmha(train)), ms(fmha(fixed)))'''),
        ("Compare the NVTX ranges instead of the kernels.", "%plot compare --by nvtx train fixed", ""),
    ], "**Next:** `07_cudnn_vs_cublas.ipynb` splits a CNN's time between the libraries."),
]

LIBS_GO = GO_FMT + '''
// library names the CUDA library a kernel comes from, by its name.
func library(name string) string {
	switch {
	case strings.Contains(name, "cudnn"):
		return "cuDNN"
	case strings.Contains(name, "cublas") || strings.Contains(name, "gemm"):
		return "cuBLAS"
	case strings.Contains(name, "at::native") || strings.Contains(name, "at_cuda_detail"):
		return "PyTorch"
	}
	return "other"
}

kt, _ := cnn.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "correlationId", "demangledName")
rt, _ := cnn.Load(ctx, "CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "correlationId", "nameId")
type call struct {
	api string
	ns  int64
}
launch := map[int64]call{}
for i := 0; i < rt.N; i++ {
	name, _ := cnn.String(ctx, rt.Col("nameId").Int(i))
	if strings.Contains(name, "Launch") {
		launch[rt.Col("correlationId").Int(i)] = call{strings.SplitN(name, "_v", 2)[0], rt.Col("end").Int(i) - rt.Col("start").Int(i)}
	}
}
type cell struct{ n, apiNs, kernNs int64 }
cells := map[string]*cell{}
kernByLib := map[string]int64{}
var kernAll int64
for i := 0; i < kt.N; i++ {
	name, _ := cnn.String(ctx, kt.Col("demangledName").Int(i))
	lib, c := library(name), launch[kt.Col("correlationId").Int(i)]
	key := lib + "\\t" + c.api
	if cells[key] == nil {
		cells[key] = &cell{}
	}
	d := kt.Col("end").Int(i) - kt.Col("start").Int(i)
	cells[key].n++
	cells[key].apiNs += c.ns
	cells[key].kernNs += d
	kernByLib[lib] += d
	kernAll += d
}
keys := []string{}
for k := range cells {
	keys = append(keys, k)
}
sort.Slice(keys, func(a, b int) bool { return cells[keys[a]].kernNs > cells[keys[b]].kernNs })
split := nsysx.NewResult("libs", "Launch API time against kernel time, by library", "Library", "Launch API", "Kernels",
	"API time:dur_ns", "Kernel time:dur_ns", "Share of kernel time", "API us per kernel ms")
for _, k := range keys {
	f, c := strings.Split(k, "\\t"), cells[k]
	split.Add(nsysx.TextV(f[0]), nsysx.TextV(f[1]), nsysx.IntV(c.n), nsysx.IntV(c.apiNs), nsysx.IntV(c.kernNs),
		nsysx.TextV(fmt.Sprintf("%.1f%%", pct(c.kernNs, kernAll))), nsysx.FloatV(nsysx.Round1(float64(c.apiNs)/1e3/(float64(c.kernNs)/1e6))))
}
split'''

LIBRARIES = [
    md("# 07 · cuDNN against cuBLAS: API time and kernel time\n\n"
       "`cnn` is `../testdata/workloads/cnn.py`: ResNet-18 in channels_last with fp16 autocast. Its convolutions "
       "go to cuDNN, its matrix products to cuBLAS, the rest to PyTorch's own kernels. How is the GPU time split "
       "between the libraries, and what does launching their kernels cost on the CPU?"),
    go("%open " + P + "cnn.sqlite.gz"),
    md("## 1. The library API reports\n\n"
       "nsysx has nsys's `cudnn_api_sum` and `cublas_api_sum`: the time spent in each cuDNN and cuBLAS API call, "
       "from the `CUDNN_EVENTS` and `CUBLAS_EVENTS` tables that `nsys profile -t cudnn,cublas` records."),
    go("%nsys stats -r cudnn_api_sum,cublas_api_sum cnn"),
    go('''import "fmt"
fmt.Printf("CUDNN_EVENTS recorded: %v; CUBLAS_EVENTS recorded: %v.\\n", cnn.HasTable("CUDNN_EVENTS"), cnn.HasTable("CUBLAS_EVENTS"))'''),
    md("This capture has neither table, so both reports are SKIPPED (a valid profile lacking the data, not an "
       "error). The CUDA layer below the libraries was traced, so the same question can be answered from the "
       "kernels: a kernel's name says which library it belongs to (`...cudnn...` for cuDNN, `gemm`/`cublas` for "
       "cuBLAS, `at::native` for PyTorch), and its `correlationId` leads to the CUDA API call that launched it."),
    md("## 2. Kernel time and launch cost per library\n\n"
       "For each library and launch API: the kernels, the CPU time of their launch calls, the GPU time of the "
       "kernels, and the CPU microseconds spent launching per millisecond of GPU work."),
    go(LIBS_GO),
    go('''libs := []string{}
for l := range kernByLib {
	libs = append(libs, l)
}
sort.Slice(libs, func(a, b int) bool { return kernByLib[libs[a]] > kernByLib[libs[b]] })
for _, l := range libs {
	fmt.Printf("%-8s %5.1f%% of kernel time (%.2f ms)\\n", l, pct(kernByLib[l], kernAll), ms(kernByLib[l]))
}
api, _ := cnn.Stats(ctx, "cuda_api_sum")
var apiAll int64
for i := 0; i < api.Len(); i++ {
	apiAll += api.Col("Total Time").Value(i).I
}
fmt.Printf("All CUDA API calls took %.1f ms of CPU time against %.1f ms of kernel time: launching is %s than the GPU work it queues.\\n",
	ms(apiAll), ms(kernAll), map[bool]string{true: "more expensive", false: "cheaper"}[apiAll > kernAll])'''),
    md("When the CPU time of the launches approaches the GPU time of the kernels, the GPU waits for the host "
       "(small kernels, small batch): CUDA graphs (`torch.compile(mode=\"reduce-overhead\")`) or larger batches help "
       "more than faster kernels."),
    exercises([
        ("Which cuDNN kernel takes the most time?",
         '''k, _ := cnn.Stats(ctx, "cuda_gpu_kern_sum")
for i := 0; i < k.Len(); i++ {
	if library(k.Col("Name").Text(i)) == "cuDNN" {
		fmt.Println(k.Col("Name").Text(i), k.Col("Total Time").Value(i).I, "ns")
		break
	}
}'''),
        ("The `train` profile was recorded with `-t cublas`. Does it have a `CUBLAS_EVENTS` table?",
         '''%open ../testdata/profiles/train.sqlite.gz
fmt.Println(train.HasTable("CUBLAS_EVENTS"))'''),
    ], "**Next:** `08_dataloader_copies.ipynb` checks the copies a DataLoader makes."),
]

COPIES_SQL = '''%%%%sql %s as %s
SELECT e.label AS src, count(*) AS copies, sum(m.bytes) AS bytes,
       sum(m."end" - m.start) AS copy_ns, sum(r."end" - r.start) AS api_ns
FROM CUPTI_ACTIVITY_KIND_MEMCPY m
JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId
JOIN StringIds s ON s.id = r.nameId AND s.value LIKE 'cudaMemcpy%%'
JOIN ENUM_CUDA_MEM_KIND e ON e.id = m.srcKind
WHERE m.copyKind = 1 GROUP BY 1'''

COPIES = [
    md("# 08 · Synchronous copies in the DataLoader?\n\n"
       "A batch copied to the GPU from pageable memory makes `cudaMemcpyAsync` wait until the copy is done: the "
       "host cannot queue the next kernels meanwhile. PyTorch's fix is `DataLoader(pin_memory=True)` and "
       "`.to(device, non_blocking=True)`. Check it on two profiles: `cnn` (a DataLoader with two workers and "
       "`pin_memory=True`) and `train` (batches sliced from a tensor in pageable memory)."),
    go("%open " + P + "cnn.sqlite.gz\n%open " + P + "train.sqlite.gz"),
    md("## 1. The rules\n\n"
       "`cuda_memcpy_sync` lists synchronous copies (`cudaMemcpy`), `cuda_memcpy_async` asynchronous ones that "
       "became synchronous because their host memory was pageable."),
    md("`cnn`:"),
    go("nb.SetMaxRows(5)\n%nsys analyze -r cuda_memcpy_sync,cuda_memcpy_async cnn"),
    md("`train`:"),
    go("%nsys analyze -r cuda_memcpy_sync,cuda_memcpy_async train"),
    md("## 2. Where the batches come from, and what the host does after each copy\n\n"
       "Join each host-to-device copy to the `cudaMemcpy*` call that issued it and to its source memory kind. "
       "Then look at the next CUDA call on the same thread: PyTorch's `.to(device)` without `non_blocking=True` "
       "follows the copy with `cudaStreamSynchronize`, so the host waits for the copy (and everything queued "
       "before it)."),
    go(COPIES_SQL % ("cnn", "cnnCopies")),
    go(COPIES_SQL % ("train", "trainCopies")),
    go(GO_FMT + AFTER_COPY_GO + '''
report := func(name string, r *nsysx.Result, p *nsysx.Profile) {
	var total int64
	for i := 0; i < r.Len(); i++ {
		total += r.Col("copies").Value(i).I
		fmt.Printf("%s: %d host-to-device copies from %s memory\\n", name, r.Col("copies").Value(i).I, r.Col("src").Text(i))
	}
	n, ns := afterCopies(p)
	fmt.Printf("%s: the next call on the thread was cudaStreamSynchronize after %d of %d copies (%.2f ms of waiting)\\n",
		name, n["cudaStreamSynchronize"], total, ms(ns["cudaStreamSynchronize"]))
}
report("cnn", cnnCopies, cnn)
report("train", trainCopies, train)'''),
    md("## 3. Who makes the copies\n\n"
       "In `cnn` the DataLoader's worker processes prepare the batches; the copies to the GPU are made by the "
       "thread that runs the training loop. The threads that issued copy calls, per profile:"),
    go('''%%sql cnn
SELECT r.globalTid % 16777216 AS tid, count(*) AS copy_calls FROM CUPTI_ACTIVITY_KIND_RUNTIME r
JOIN StringIds s ON s.id = r.nameId WHERE s.value LIKE 'cudaMemcpy%' GROUP BY 1'''),
    go('''rules := func(p *nsysx.Profile) (int, int) {
	s, _ := p.Analyze(ctx, "cuda_memcpy_sync")
	a, _ := p.Analyze(ctx, "cuda_memcpy_async")
	return s.Len(), a.Len()
}
for _, p := range []*nsysx.Profile{cnn, train} {
	s, a := rules(p)
	verdict := "no synchronous copies: the batches come from pinned memory"
	if s+a > 0 {
		verdict = "synchronous copies found: pin the host buffers (pin_memory=True) and copy with non_blocking=True"
	}
	fmt.Printf("%s: cuda_memcpy_sync %d rows, cuda_memcpy_async %d rows: %s.\\n", p.Base(), s, a, verdict)
}'''),
    exercises([
        ("How long do `train`'s pageable copies take on the GPU in total, against its kernel time?",
         '''k, _ := train.Stats(ctx, "cuda_gpu_kern_sum")
var kns int64
for i := 0; i < k.Len(); i++ {
	kns += k.Col("Total Time").Value(i).I
}
fmt.Println(trainCopies.Col("copy_ns").Value(0).I, "ns of copies against", kns, "ns of kernels")'''),
        ("Run the same check on `fixed`, recorded with `--pin`.", COPIES_SQL % ("../testdata/profiles/fixed.sqlite.gz", "fixedCopies") + "\n", "sql"),
    ], "**Next:** `09_tables.ipynb` works with results the way data frames work: sort, filter, group, join."),
]
