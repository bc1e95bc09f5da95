package nsysx_test

import (
	"context"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

func kernTotal(t *testing.T, p *nsysx.Profile) int64 {
	t.Helper()
	r, err := p.Stats(context.Background(), "cuda_gpu_kern_sum")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for i := 0; i < r.Len(); i++ {
		total += r.Row(i)[1].I
	}
	return total
}

// On bt, self times add up to cuda_gpu_kern_sum's total under every option,
// no function is inclusive of more than the total, and the options do what
// they say to the frames.
func TestKernStackSumBT(t *testing.T) {
	p, err := nsysx.Open(testutil.Profile(t, "bt"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	total := kernTotal(t, p)
	for _, spec := range []string{"cuda_kern_stack_sum", "cuda_kern_stack_sum:noruntime:foldpy",
		"cuda_kern_stack_sum:kernels:base:sort=inclusive", "cuda_kern_stack_sum:depth=3"} {
		r, err := p.Stats(context.Background(), spec)
		if err != nil || r.Skipped != "" {
			t.Fatalf("%s: %v %s", spec, err, r.Skipped)
		}
		var self int64
		for i := 0; i < r.Len(); i++ {
			row := r.Row(i)
			self += row[1].I
			if row[4].I > total || row[4].I < row[1].I {
				t.Errorf("%s: %s inclusive %d, self %d, total %d", spec, row[5].S, row[4].I, row[1].I, total)
			}
		}
		if self != total {
			t.Errorf("%s: self times sum to %d, cuda_gpu_kern_sum to %d", spec, self, total)
		}
	}
	runtime := regexp.MustCompile(`^(libcupti|libcuda\.|libcudart|libToolsInjection)`)
	for _, o := range []nsysx.StackOptions{{NoRuntime: true, FoldPython: true}, {Depth: 5}} {
		ks, err := p.KernelStacks(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ks.Stacks {
			if o.Depth > 0 && len(s.Frames) > o.Depth {
				t.Errorf("depth=%d: %d frames", o.Depth, len(s.Frames))
			}
			for i, f := range s.Frames {
				base := path.Base(f.Module)
				if o.NoRuntime && runtime.MatchString(base) {
					t.Errorf("noruntime kept %s (%s)", f.Function, base)
				}
				if o.FoldPython && i > 0 && strings.HasPrefix(base, "python") && strings.HasPrefix(path.Base(s.Frames[i-1].Module), "python") {
					t.Errorf("foldpy left two Python frames in a row: %s, %s", s.Frames[i-1].Function, f.Function)
				}
			}
		}
	}
}

// The stacks view: one row per stack; the launch stack of the embedding
// gather kernel is there, innermost first, Python frames folded.
func TestKernStackSumStacksView(t *testing.T) {
	p, err := nsysx.Open(testutil.Profile(t, "bt"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, err := p.Stats(context.Background(), "cuda_kern_stack_sum:view=stacks:noruntime:foldpy")
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^[^←]*gather_kernel[^←]* ← .*at::native::gather_cuda_kernel\(.* ← .*at::native::embedding.* ← .*THPVariable_embedding\(.* ← \[python\]`)
	var n, total int64
	found := false
	for i := 0; i < r.Len(); i++ {
		row := r.Row(i)
		n += row[2].I
		total += row[1].I
		found = found || want.MatchString(row[6].S)
	}
	if n != 1664 || total != kernTotal(t, p) || !found {
		t.Errorf("%d kernels (want 1664), %d ns, embedding stack found: %v", n, total, found)
	}
}

func TestKernStackSumSkipped(t *testing.T) {
	p, err := nsysx.Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, err := p.Stats(context.Background(), "cuda_kern_stack_sum")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Skipped, "does not contain CUDA API call stacks") || !strings.Contains(r.Skipped, "--cudabacktrace=all") {
		t.Errorf("SKIPPED %q", r.Skipped)
	}
	if _, err := p.Stats(context.Background(), "cuda_kern_stack_sum:view=stack"); err == nil || !strings.Contains(err.Error(), "did you mean stacks") {
		t.Errorf("view=stack: %v", err)
	}
}
