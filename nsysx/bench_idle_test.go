package nsysx

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

func BenchmarkGpuIdleBreakdown(b *testing.B) { benchReport(b, "gpu_idle_breakdown") }
func BenchmarkGpuIdleEvidence(b *testing.B)  { benchReport(b, "gpu_idle_breakdown:view=evidence") }
func BenchmarkGpuIdleLaunch(b *testing.B)    { benchReport(b, "gpu_idle_breakdown:view=launch") }

// BenchmarkKernStackSum runs on bt (the benchmark profile has no stacks):
// 61 k frames, 1 664 kernels.
func BenchmarkKernStackSum(b *testing.B) {
	path := testutil.Profile(b, "bt")
	b.ReportAllocs()
	for b.Loop() {
		p, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r, err := p.Stats(context.Background(), "cuda_kern_stack_sum:noruntime:foldpy")
		if err != nil || r.Skipped != "" {
			b.Fatal(err, r.Skipped)
		}
		p.Close()
	}
}
