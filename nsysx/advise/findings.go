package advise

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// The fixes, in a PyTorch user's terms.
const (
	fixHostStall = "overlap batch preparation with the GPU: DataLoader(num_workers=4 or more, pin_memory=True, " +
		"persistent_workers=True, prefetch_factor=2); move preprocessing to the GPU or out of the loop; " +
		"find the slow host code with the NVTX ranges or CPU sampling (nsys profile --sample=process-tree)"
	fixLaunch = "launch fewer, larger kernels: capture the step in a CUDA graph (torch.cuda.graphs, " +
		"torch.compile(mode='reduce-overhead')), fuse element-wise operations with torch.compile, " +
		"or give each kernel more work (a larger batch)"
	fixSync = "let the host run ahead: avoid .item(), .cpu(), .numpy(), print(loss) and torch.cuda.synchronize() " +
		"in the loop; keep running totals on the GPU and read them every N steps"
	fixPageable = "pin the host memory (DataLoader(pin_memory=True) or tensor.pin_memory()) and copy with " +
		".to(device, non_blocking=True) so the copy overlaps GPU work"
	fixSyncCopy = "copy asynchronously: pinned memory and .to(device, non_blocking=True) (cudaMemcpyAsync on a stream); " +
		"avoid .cpu()/.numpy()/.tolist() on GPU tensors inside the loop"
	fixMemset = "clear device memory asynchronously (cudaMemsetAsync; in PyTorch create zeros on the device, " +
		"torch.zeros(..., device='cuda'), instead of zeroing on the host and copying)"
	fixCUDAAPI = "keep CUDA calls such as cudaMalloc and cudaFree out of the loop: preallocate and reuse tensors " +
		"(PyTorch's caching allocator does this unless it is emptied; avoid torch.cuda.empty_cache() in the loop)"
	fixGPU32 = "the GPU is the bottleneck and float32 GEMMs are much of its work: bf16 autocast (torch.autocast('cuda', " +
		"dtype=torch.bfloat16)) or TF32 (torch.backends.cuda.matmul.allow_tf32 = True) runs them on the tensor cores; " +
		"then torch.compile to fuse element-wise kernels"
	fixGPU = "the GPU is the bottleneck, so only faster kernels help: fuse element-wise kernels with torch.compile, " +
		"use fused optimizers (torch.optim.AdamW(fused=True)) and flash attention (F.scaled_dot_product_attention), " +
		"then study the top kernel in Nsight Compute (ncu)"
)

// idleFindings turns the idle breakdown into the host_stall, launch_bound,
// host_sync and cuda_api findings.
func (an *analysis) idleFindings(ctx context.Context, p *nsysx.Profile) error {
	an.addIdle()
	cmd := "nsysx stats -r gpu_idle_breakdown:view=evidence " + an.a.Path
	if v := an.amounts[HostStall]; v != nil {
		ev := fmt.Sprintf("%d idle pieces in gaps over %s, %s; %s. Command: %s", an.gaps[HostStall], dur(shortGapNs),
			topCalls(an.details[HostStall], 3), threadText(topThread(an.threads[HostStall])), cmd)
		an.push(an.finding(HostStall, v, "GPU idle while the host works outside CUDA (data loading, preprocessing, Python)",
			"high", ev, fixHostStall))
	}
	if v := an.amounts[LaunchBound]; v != nil {
		ev := fmt.Sprintf("%d idle pieces in gaps of at most %s between kernels, %s", an.gaps[LaunchBound], dur(shortGapNs),
			topCalls(an.details[LaunchBound], 3))
		ls, err := p.LaunchStats(ctx, an.envelope())
		if err != nil {
			return err
		}
		var n, short int64
		for _, s := range ls {
			if s.Device == an.a.Device {
				n, short = n+s.Instances, short+s.Short
			}
		}
		if n > 0 {
			per := ""
			if an.iters {
				per = fmt.Sprintf(" (%d per iteration)", n/int64(len(an.windows)))
			}
			ev += fmt.Sprintf("; %d kernels%s, %d of them shorter than their launch call", n, per, short)
		}
		ev += ". Command: nsysx stats -r gpu_idle_breakdown:view=launch " + an.a.Path
		an.push(an.finding(LaunchBound, v, "GPU idle between many short kernels: launch overhead", "medium", ev, fixLaunch))
	}
	if v := an.amounts[HostSync]; v != nil {
		ev := topCalls(an.details[HostSync], 3)
		if rr := an.rules[HostSync]; rr != nil && rr.count > 0 {
			ev = fmt.Sprintf("%d synchronisation calls in the windows; GPU idle in %s", rr.count, ev)
		}
		ev += fmt.Sprintf("; %s. Command: nsysx analyze -r cuda_api_sync %s", threadText(topThread(an.threads[HostSync])), an.a.Path)
		an.push(an.finding(HostSync, v, "GPU idle while the host waits in synchronisation calls (.item(), .cpu(), synchronize)",
			"high", ev, fixSync))
	}
	if v := an.amounts[CUDAAPI]; v != nil {
		ev := fmt.Sprintf("GPU idle in %s. Command: %s", topCalls(an.details[CUDAAPI], 3), cmd)
		an.push(an.finding(CUDAAPI, v, "GPU idle while the host is in other CUDA calls (allocation, setup)", "medium", ev, fixCUDAAPI))
	}
	return nil
}

func (an *analysis) push(f Finding, ok bool) {
	if ok {
		an.findings = append(an.findings, f)
	}
}

// copyFindings adds the copy rules' findings: the copies' GPU time (the
// host waits for all of it) plus the GPU idle time inside their calls.
func (an *analysis) copyFindings() {
	for _, c := range []struct {
		c          Category
		what, fix  string
		confidence string
	}{
		{PageableMemcpy, "copies from or to pageable host memory, which block the host", fixPageable, "high"},
		{SyncMemcpy, "synchronous copies that block the host", fixSyncCopy, "high"},
		{MemsetSync, "synchronous memsets that block the host", fixMemset, "high"},
	} {
		rr := an.rules[c.c]
		v := make([]int64, len(an.windows))
		if rr != nil {
			copy(v, rr.per)
		}
		for w, d := range an.amounts[c.c] {
			v[w] += d
		}
		var parts []string
		if rr != nil && rr.count > 0 {
			parts = append(parts, fmt.Sprintf("%d calls (%s), %s in all", rr.count, topCalls(rr.apis, 2), bytesText(rr.bytes)))
		}
		if d := an.details[c.c]; d != nil {
			parts = append(parts, "GPU idle inside "+topCalls(d, 2))
		}
		rule := map[Category]string{PageableMemcpy: "cuda_memcpy_async", SyncMemcpy: "cuda_memcpy_sync", MemsetSync: "cuda_memset_sync"}[c.c]
		ev := strings.Join(parts, "; ") + ". Command: nsysx analyze -r " + rule + " " + an.a.Path
		an.push(an.finding(c.c, v, c.what, c.confidence, ev, c.fix))
	}
}

// graphWork is the time of the executions of CUDA graphs traced whole
// under f (a graph-level trace has no kernel rows for them) and the top n
// graphs as "CUDA graph 7 80%" of that time.
func graphWork(ctx context.Context, p *nsysx.Profile, f *nsysx.Filter, n int) (int64, string, error) {
	execs, err := p.GraphExecs(ctx, f)
	if err != nil || len(execs) == 0 {
		return 0, "", err
	}
	by := map[string]int64{}
	var total int64
	for _, g := range execs {
		by[g.Name()] += g.End - g.Start
		total += g.End - g.Start
	}
	names := slices.SortedFunc(maps.Keys(by), func(a, b string) int { return cmp.Or(cmp.Compare(by[b], by[a]), cmp.Compare(a, b)) })
	var parts []string
	for _, name := range names[:min(n, len(names))] {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", name, float64(by[name])/float64(max(total, 1))*100))
	}
	return total, strings.Join(parts, ", "), nil
}

func bytesText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// gpuFinding adds gpu_bound: the kernels' time inside the windows, at most
// the GPU's busy time. It is what faster kernels could save at most: the
// bound we rank it by, stated in docs/advise.md.
func (an *analysis) gpuFinding(ctx context.Context, p *nsysx.Profile) error {
	f := an.envelope()
	res, err := p.Run(ctx, "cuda_gpu_kern_sum", f)
	if err != nil {
		return err
	}
	names, kernels, fp32 := kernelNames(res, 3)
	graphs, graphNames, err := graphWork(ctx, p, f, 3)
	if err != nil {
		return err
	}
	if graphs > 0 { // CUDA graphs traced whole: their executions are the kernels' time
		kernels += graphs
		names = strings.Trim(names+", "+graphNames, ", ")
	}
	if kernels == 0 {
		return nil
	}
	var busyTotal int64
	v := make([]int64, len(an.windows))
	for w, sp := range an.windows {
		v[w] = an.lengths[w] - (sp.Idle - sp.ByCat[nsysx.IdleOutside])
		busyTotal += v[w]
	}
	if kernels < busyTotal { // copies count as busy: keep the kernels' part
		for w := range v {
			v[w] = int64(float64(v[w]) * float64(kernels) / float64(busyTotal))
		}
	}
	frame, err := topFrame(ctx, p, f)
	if err != nil {
		return err
	}
	fix := fixGPU
	if fp32 >= fp32GEMMShare*float64(kernels) {
		fix = fixGPU32
	}
	ev := fmt.Sprintf("GPU busy %.0f%% of the span; top kernels by time: %s; float32 GEMMs %.0f%% of kernel time%s. Command: nsysx stats -r cuda_gpu_kern_sum %s",
		share(busyTotal, an.a.Span), names, fp32/float64(kernels)*100, frame, an.a.Path)
	if graphs > 0 {
		ev += fmt.Sprintf("; CUDA graphs traced whole hold %.0f%% of it: nsys profile --cuda-graph-trace=node names their kernels", float64(graphs)/float64(kernels)*100)
	}
	an.push(an.finding(GPUBound, v, "the GPU is busy: its kernels are the work (at stake: all of their time, the most faster kernels can save)",
		"medium", ev, fix))
	return nil
}
