package recipes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func init() {
	recipe.Register(&recipe.Recipe{
		Name:        recipe.DiffName,
		DisplayName: "Statistics Diff",
		Help:        "how two runs of the same summary recipe differ: DIR1 − DIR2 for every statistic, per rank and over all ranks",
		Options:     []string{"input", "print_compat_recipes", "tolerance", "drop", "csv"},
		Notebook:    "diff.ipynb",
		Whole:       runDiff,
	})
}

// ErrNotRecipeOutput is returned (wrapped) for a diff input that is not the
// output directory of a recipe.
var ErrNotRecipeOutput = errors.New("not a recipe output directory")

// recipeDir is one diff input: its recipe and its three tables.
type recipeDir struct {
	path             string
	recipe           string
	rank, all, files *pyframe.Frame
}

// readRecipeDir reads a recipe output directory: the RecipeName of its
// .nsys-analysis and rank_stats, all_stats and files.parquet.
func readRecipeDir(dir string) (*recipeDir, error) {
	d := &recipeDir{path: dir}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.nsys-analysis"))
	sort.Strings(matches)
	if len(matches) == 0 {
		return nil, fmt.Errorf("%s: %w (no .nsys-analysis file)", dir, ErrNotRecipeOutput)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var meta struct{ RecipeName string }
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, fmt.Errorf("%s: %s is not valid JSON: %v", dir, filepath.Base(matches[0]), err)
	}
	if meta.RecipeName == "" {
		return nil, fmt.Errorf("%s: %w (its .nsys-analysis names no recipe; a diff output cannot be diffed)", dir, ErrNotRecipeOutput)
	}
	d.recipe = meta.RecipeName
	if !slices.Contains(CompatRecipes(), d.recipe) {
		return nil, fmt.Errorf("%s is an output of %s: diff compares the outputs of %s", dir, d.recipe, strings.Join(CompatRecipes(), ", "))
	}
	for _, t := range []struct {
		name string
		dst  **pyframe.Frame
	}{{"rank_stats", &d.rank}, {"all_stats", &d.all}, {"files", &d.files}} {
		p := filepath.Join(dir, t.name+".parquet")
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%s: no %s.parquet, which every output of %s has: the directory is incomplete", dir, t.name, d.recipe)
		}
		if *t.dst, err = pyframe.ReadParquet(p); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// runDiff is the diff recipe (docs/recipes.md §2.26): DIR1 − DIR2 for rank_stats and
// all_stats, and the two directories' files side by side.
func runDiff(ctx context.Context, o *recipe.Options) (*recipe.Output, error) {
	if len(o.Input) != 2 {
		return nil, recipe.Usagef("diff needs --input DIR1 DIR2")
	}
	a, err := readRecipeDir(o.Input[0])
	if err != nil {
		return nil, err
	}
	b, err := readRecipeDir(o.Input[1])
	if err != nil {
		return nil, err
	}
	if a.recipe != b.recipe {
		return nil, fmt.Errorf("%s is the output of %s and %s of %s: diff compares two outputs of the same recipe", a.path, a.recipe, b.path, b.recipe)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rank, err := DiffFrames("rank_stats", a.rank, b.rank, true, o.Tolerance, o.Drop)
	if err != nil {
		return nil, err
	}
	all, err := DiffFrames("all_stats", a.all, b.all, false, o.Tolerance, o.Drop)
	if err != nil {
		return nil, err
	}
	files, err := DiffFiles(a.files, b.files)
	if err != nil {
		return nil, err
	}
	if o.Output == "" { // nsys's default name: <recipe>-diff-N
		o.Output = a.recipe + "-diff-%n"
	}
	return &recipe.Output{
		Tables: []recipe.Table{{Name: "rank_stats", Frame: rank}, {Name: "all_stats", Frame: all}, {Name: "files", Frame: files}},
		Analysis: []pyframe.KV{
			{Key: "DisplayName", Value: DiffDisplayName},
			{Key: "EndTime", Value: recipe.AnalysisTime(time.Now())},
			{Key: "DiffDirs", Value: []any{o.Input[0], o.Input[1]}},
			{Key: "Outputs", Value: []pyframe.KV{{Key: "diff.ipynb", Value: "Notebook"}}},
		},
	}, nil
}
