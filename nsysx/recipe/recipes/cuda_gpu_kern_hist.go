package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "cuda_gpu_kern_hist",
		DisplayName: "CUDA GPU Kernel Duration Histogram",
		Help:        "Every kernel's duration and short name, per rank, for a histogram of kernel durations.",
		Options:     []string{"input", "start", "end", "filter_time", "filter_nvtx"},
		Notebook:    "histogram.ipynb",
		Map:         mapKernHist,
		Reduce:      reduceFrames("analysis", "analysis"),
	})
}

// mapKernHist lists the filtered kernels with a positive duration: Duration
// and Name (the short name), labelled by their row in the kernel table
// (docs/recipes.md §2.12).
func mapKernHist(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	k, keep, err := composite.FilteredKernels(ctx, r, o, nil, composite.KernelShort)
	if err != nil {
		return nil, err
	}
	rows := positive(k.Span(), keep)
	if len(rows) == 0 {
		return noData(o, r)
	}
	f := &pyframe.Frame{Cols: []*pyframe.Column{
		durations(k.Span(), rows, false),
		nameCol("Name", k.ShortName, k.ShortValid, rows),
	}}
	f.Cols[0].Name = "Duration"
	labels := make([]int64, len(rows))
	contiguous := true
	for j, i := range rows {
		labels[j] = int64(i)
		contiguous = contiguous && i == j
	}
	if contiguous {
		f.Index = pyframe.RangeIndex // pandas keeps a RangeIndex when nothing was dropped
		return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": f}}, nil
	}
	f.Cols = append(f.Cols, pyframe.NewInts(pyframe.LevelIndexName, pyframe.Int64, labels, nil))
	f.Index, f.IndexCols = pyframe.LevelIndex, []string{pyframe.LevelIndexName}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": f}}, nil
}
