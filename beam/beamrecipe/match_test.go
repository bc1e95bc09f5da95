package beamrecipe

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/plots"
)

// shared are the shared test reports every recipe runs over, with a copy
// of rank0 under another stem (rank2).
var shared = []string{"rank0", "rank1", "train", "fixed", "rank0@rank2"}

// recipeArgs is the command line a recipe runs with in these tests: the
// given inputs, --csv where the recipe takes it (so the CSV writer is
// compared too), --name for the pace recipes and a short --gap.
func recipeArgs(r *recipe.Recipe, inputs []string) []string {
	args := append([]string{"--input"}, inputs...)
	if r.HasOption("csv") {
		args = append(args, "--csv")
	}
	switch r.Name {
	case "nvtx_pace", "nvtx_gpu_proj_pace":
		args = append(args, "--name", "forward")
	case "cuda_gpu_kern_pace":
		args = append(args, "--name", "Kernel2")
	case "gpu_gaps": // the shared reports have no gap of the default 500 ms
		args = append(args, "--gap", "1")
	}
	return append(args, "--output", "out")
}

// inputsFor are the reports a recipe runs over: the shared ones, bt for
// the GPU-metrics recipes (the only report with metrics), sync for the
// synchronization recipes, and two output
// directories of cuda_gpu_kern_sum (rank0, rank1) for diff.
func inputsFor(t *testing.T, r *recipe.Recipe) []string {
	switch {
	case r.Name == recipe.DiffName:
		k, _ := recipe.Lookup("cuda_gpu_kern_sum")
		var dirs []string
		for _, p := range []string{"rank0", "rank1"} {
			dir, err := runPool(t, k, recipeArgs(k, testutil.Links(t, p)), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dir)
		}
		return dirs
	case strings.HasPrefix(r.Name, "gpu_metric_"):
		return testutil.Links(t, append([]string{"bt"}, shared...)...)
	case strings.HasSuffix(r.Name, "_sync"):
		return testutil.Links(t, append([]string{"sync"}, shared...)...)
	}
	return testutil.Links(t, shared...)
}

// runPool runs the recipe in-process (recipe.Run) and writes its output
// directory in workDir, charts and notebook included, as nsysx recipe does.
func runPool(t *testing.T, r *recipe.Recipe, args []string, workDir string) (string, error) {
	t.Helper()
	o, err := recipe.ParseArgs(r, args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := recipe.Run(context.Background(), r, o, nil)
	if err != nil {
		return "", err
	}
	return res.Write(&recipe.WriteOptions{WorkDir: workDir, Extra: plots.RecipeExtra(res)}) // as nsysx recipe writes it
}

// runBeam runs the recipe through Beam (Prism in-process).
func runBeam(t *testing.T, r *recipe.Recipe, args []string, workDir string) *Outcome {
	t.Helper()
	o, err := recipe.ParseArgsWith(r, args, ExpandInputs)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(context.Background(), r, o, workDir)
	if err != nil {
		t.Fatalf("%s through Beam: %v", r.Name, err)
	}
	return out
}

// TestEveryRecipeMatchesPool runs every recipe, diff included, through the
// in-process pool and through Beam and compares the two output
// directories file by file.
func TestEveryRecipeMatchesPool(t *testing.T) {
	for _, r := range recipe.List() {
		t.Run(r.Name, func(t *testing.T) {
			args := recipeArgs(r, inputsFor(t, r))
			pdir, perr := runPool(t, r, args, t.TempDir())
			out := runBeam(t, r, args, t.TempDir())
			switch {
			case errors.Is(perr, recipe.ErrNoData):
				if !out.NoData {
					t.Fatalf("pool: no data; Beam: %+v", out)
				}
				t.Logf("%s: no data in %v", r.Name, args)
				return
			case perr != nil:
				t.Fatalf("pool: %v", perr)
			case out.Err != "" || out.Dir == "":
				t.Fatalf("Beam: %+v", out)
			}
			compareDirs(t, pdir, out.Dir)
		})
	}
}
