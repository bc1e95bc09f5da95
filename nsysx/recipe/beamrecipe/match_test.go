package beamrecipe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/internal/pqcompare"
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
			dir, err := runPool(t, k, recipeArgs(k, links(t, p)), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dir)
		}
		return dirs
	case strings.HasPrefix(r.Name, "gpu_metric_"):
		return links(t, append([]string{"bt"}, shared...)...)
	case strings.HasSuffix(r.Name, "_sync"):
		return links(t, append([]string{"sync"}, shared...)...)
	}
	return links(t, shared...)
}

// runPool runs the recipe in-process (recipe.Run) and writes its output
// directory in workDir.
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
	return res.Write(&recipe.WriteOptions{WorkDir: workDir})
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

// compareDirs compares two output directories: the same file names, each
// Parquet file by pqcompare (layout, schema, pandas metadata, values),
// the .nsys-analysis JSON but for its times (and the Options named in
// drop), every other file byte for byte.
func compareDirs(t *testing.T, want, got string, drop ...string) {
	t.Helper()
	wn, gn := testutil.DirNames(t, want), testutil.DirNames(t, got)
	if !reflect.DeepEqual(wn, gn) {
		t.Fatalf("files differ:\n want %v\n  got %v", wn, gn)
	}
	for _, n := range wn {
		a, b := filepath.Join(want, n), filepath.Join(got, n)
		switch filepath.Ext(n) {
		case ".parquet":
			if err := pqcompare.Files(a, b); err != nil {
				t.Errorf("%s: %v", n, err)
			}
		case ".nsys-analysis":
			if wa, ga := analysisNoTimes(t, a, drop), analysisNoTimes(t, b, drop); wa != ga {
				t.Errorf("%s:\n want %s\n  got %s", n, wa, ga)
			}
		default:
			wb, _ := os.ReadFile(a)
			gb, _ := os.ReadFile(b)
			if !bytes.Equal(wb, gb) {
				t.Errorf("%s differs", n)
			}
		}
	}
}

// analysisNoTimes is an .nsys-analysis file without StartTime, EndTime
// and the options named in drop.
func analysisNoTimes(t *testing.T, path string, drop []string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	delete(m, "StartTime")
	delete(m, "EndTime")
	if opts, ok := m["Options"].(map[string]any); ok {
		for _, k := range drop {
			delete(opts, k)
		}
	}
	s, _ := json.Marshal(m)
	return string(s)
}
