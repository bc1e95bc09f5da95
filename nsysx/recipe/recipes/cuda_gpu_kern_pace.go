package recipes

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        "cuda_gpu_kern_pace",
		DisplayName: "CUDA GPU Kernel Pacing",
		Help:        "The pacing of one CUDA kernel (--name, its short name) over its launches: start, duration and gap to the previous one, per rank.",
		Options:     paceOptions,
		Notebook:    paceNotebook,
		Prepare:     requireName,
		Map:         mapKernPace,
		Reduce:      reducePace,
	})
}

// mapKernPace takes the filtered kernels whose short name is --name, in
// table order (docs/recipes.md §2.11); the stats index is "Shortname".
func mapKernPace(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
	k, keep, err := composite.FilteredKernels(ctx, r, o, nil, composite.KernelShort)
	if err != nil {
		return nil, err
	}
	var start, end []int64
	for _, i := range keep {
		if k.ShortValid.Valid(i) && k.ShortName[i] == o.Name {
			start, end = append(start, k.Start[i]), append(end, k.End[i])
		}
	}
	if len(start) == 0 {
		return noData(o, r)
	}
	return pacePart(o.Name, pyframe.TitleCase("shortName"), start, end, false), nil
}
