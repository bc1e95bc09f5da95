package advise

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Category names what kind of problem a finding is.
type Category string

// The categories. Every profile's findings use these names; see
// docs/advise.md for what each one's time at stake counts.
const (
	HostStall      Category = "host_stall"      // GPU idle while the host works outside CUDA (data loading, Python)
	LaunchBound    Category = "launch_bound"    // GPU idle in short gaps between kernels: launch overhead
	HostSync       Category = "host_sync"       // GPU idle while the host blocks in a synchronisation call
	SyncMemcpy     Category = "sync_memcpy"     // synchronous cudaMemcpy calls (cuda_memcpy_sync)
	PageableMemcpy Category = "pageable_memcpy" // async copies of pageable memory (cuda_memcpy_async)
	MemsetSync     Category = "memset_sync"     // synchronous memsets (cuda_memset_sync)
	CUDAAPI        Category = "cuda_api"        // GPU idle while the host is in other CUDA calls (malloc, free...)
	GPUBound       Category = "gpu_bound"       // the GPU is busy: the top kernels are the work
	NCCLWait       Category = "nccl_wait"       // reserved: GPU time in NCCL collectives waiting for other ranks
	Straggler      Category = "straggler"       // reserved: one rank slower than the others
	Untraced       Category = "untraced"        // cannot answer: what is missing and the nsys flag that records it
)

// Options configures Run.
type Options struct {
	// Iterations is the regular expression of the NVTX range names that
	// mark iterations ("": "iteration 12", "iter_3", "step 7", "batch #2",
	// "step", as the idle breakdown takes them).
	Iterations string
}

// Finding is one ranked problem.
type Finding struct {
	Rank       int
	Category   Category
	Finding    string  // what, with its scope
	AtStake    int64   // ns the run would save if it were fixed (conservative); -1 when unknown
	PerIter    int64   // median ns per iteration; -1 without iterations
	Share      float64 // AtStake over the analysed span, in percent; -1 when unknown
	Confidence string  // high, medium or low
	Evidence   string  // the rows behind it and the command that shows them
	Fix        string  // what to change, in the user's terms
}

// Advice is one profile's ranked findings. All findings share one scope.
type Advice struct {
	Source     string    // the profile's base name
	Path       string    // the profile's path, as the Evidence commands name it
	Scope      string    // "all 30 iterations" or "whole capture (GPU activity span)"
	Iterations int       // number of iterations, 0 when none were found
	Span       int64     // ns analysed: the iterations' total, else the GPU activity span
	Device     int64     // the GPU analysed (the busiest), -1 when none
	Devices    int       // how many GPUs the profile has
	Findings   []Finding // largest time at stake first
}

// Run analyses one profile: it composes the idle breakdown, the copy and
// synchronisation rules and the kernel summary into findings ranked by time
// at stake.
func Run(ctx context.Context, p *nsysx.Profile, o Options) (*Advice, error) {
	if ctx == nil {
		return nil, fmt.Errorf("advise: nil context")
	}
	if o.Iterations != "" {
		if _, err := regexp.Compile(o.Iterations); err != nil {
			return nil, fmt.Errorf("%w: --iterations %q is not a regular expression: %v", nsysx.ErrBadOption, o.Iterations, err)
		}
	}
	a := &Advice{Source: p.Base(), Path: p.Path, Device: -1}
	idle, err := p.IdleBreakdown(ctx, nsysx.IdleOptions{Iterations: o.Iterations})
	if err != nil {
		return nil, err
	}
	if idle.Skipped != "" || len(idle.Devices) == 0 {
		a.Scope = "whole capture"
		a.Findings = []Finding{untraced(p, idle.Skipped)}
		a.rank()
		return a, nil
	}
	an := newAnalysis(a, idle)
	if err := an.loadRules(ctx, p); err != nil {
		return nil, err
	}
	if err := an.idleFindings(ctx, p); err != nil {
		return nil, err
	}
	an.copyFindings()
	if err := an.gpuFinding(ctx, p); err != nil {
		return nil, err
	}
	a.Findings = an.findings
	a.rank()
	return a, nil
}

// untraced is the finding of a profile without CUDA data.
func untraced(p *nsysx.Profile, why string) Finding {
	if why == "" {
		why = p.Path + " has no GPU operations."
	}
	return Finding{Category: Untraced, AtStake: -1, PerIter: -1, Share: -1, Confidence: "high",
		Finding:  "cannot rank GPU problems: the profile has no CUDA trace (whole capture)",
		Evidence: why + " Command: nsysx stats -r cuda_api_sum,cuda_gpu_kern_sum " + p.Path,
		Fix:      "record CUDA, NVTX and OS runtime calls: nsys profile --trace=cuda,nvtx,osrt python train.py"}
}

// rank sorts the findings by time at stake (unknown last) and numbers them.
func (a *Advice) rank() {
	slices.SortStableFunc(a.Findings, func(x, y Finding) int {
		return cmp.Or(-cmp.Compare(x.AtStake, y.AtStake), strings.Compare(string(x.Category), string(y.Category)))
	})
	for i := range a.Findings {
		a.Findings[i].Rank = i + 1
	}
}

// Top returns the first finding, or nil.
func (a *Advice) Top() *Finding {
	if len(a.Findings) == 0 {
		return nil
	}
	return &a.Findings[0]
}

// Find returns the finding of a category, or nil.
func (a *Advice) Find(c Category) *Finding {
	for i := range a.Findings {
		if a.Findings[i].Category == c {
			return &a.Findings[i]
		}
	}
	return nil
}
