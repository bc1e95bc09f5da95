package recipes

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// benchRun runs recipe over profiles once per iteration (opening,
// mapping and reducing; no writing).
func benchRun(b *testing.B, recipeName string, profiles ...string) {
	r, err := recipe.Lookup(recipeName)
	if err != nil {
		b.Fatal(err)
	}
	var paths []string
	for _, p := range profiles {
		paths = append(paths, testutil.Profile(b, p))
	}
	b.ReportAllocs()
	for b.Loop() {
		o := recipe.Defaults()
		o.Input, o.Strict = paths, true
		if _, err := recipe.Run(context.Background(), r, o, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCudaGPUTimeUtilMap: cuda_gpu_time_util_map on train+fixed
// (two reports 21.5 s apart on the aligned timeline).
func BenchmarkCudaGPUTimeUtilMap(b *testing.B) {
	benchRun(b, "cuda_gpu_time_util_map", "train", "fixed")
}

// BenchmarkNCCLGPUOverlapTrace: nccl_gpu_overlap_trace on rank0+rank1
// (7240 kernels, every one's overlap sums).
func BenchmarkNCCLGPUOverlapTrace(b *testing.B) {
	benchRun(b, "nccl_gpu_overlap_trace", "rank0", "rank1")
}

// BenchmarkKernPaceMap: cuda_gpu_kern_pace's map over train (its most
// frequent kernel), streamed (mapKernPace) and through the kernel
// composite (mapKernPaceComposite, every kernel loaded with its name).
func BenchmarkKernPaceMap(b *testing.B) {
	path := testutil.Profile(b, "train")
	for _, bc := range []struct {
		name string
		m    func(context.Context, *recipe.Report, *recipe.Options) (*recipe.Part, error)
	}{
		{"stream", func(ctx context.Context, r *recipe.Report, o *recipe.Options) (*recipe.Part, error) {
			return mapKernPace(ctx, r, o, nil)
		}},
		{"composite", mapKernPaceComposite},
	} {
		b.Run(bc.name, func(b *testing.B) {
			o := recipe.Defaults()
			o.Name = "Kernel2"
			b.ReportAllocs()
			for b.Loop() {
				p := openProfile(b, "train")
				if _, err := bc.m(context.Background(), &recipe.Report{Path: path, Stem: "train", Profile: p}, o); err != nil {
					b.Fatal(err)
				}
				p.Close()
			}
		})
	}
}
