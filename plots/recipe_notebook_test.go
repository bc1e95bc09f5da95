package plots

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// RecipeExtra writes the charts and the notebook under the recipe's
// notebook name; the notebook is nbformat 4.5 for the nsysx kernel, has a
// cell per table of the directory and per chart file, and (where
// Debian's python3-nbformat is installed) validates against the nbformat
// schema.
func TestRecipeNotebook(t *testing.T) {
	for _, rel := range []string{"rank0+rank1/cuda_gpu_kern_sum", "rank0+rank1/nvtx_pace", "rank0+rank1/nccl_gpu_time_util_map", "train+fixed/cuda_api_sync"} {
		res, err := recipe.ReadDir(testutil.GoldenRecipe(rel))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := RecipeExtra(res)(dir); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		path := filepath.Join(dir, res.Recipe.Notebook)
		var nb struct {
			Cells []struct {
				ID       string   `json:"id"`
				CellType string   `json:"cell_type"`
				Source   []string `json:"source"`
				Outputs  *[]any   `json:"outputs"`
			}
			Metadata struct {
				Kernelspec struct{ Name string } `json:"kernelspec"`
			}
			NBFormat      int `json:"nbformat"`
			NBFormatMinor int `json:"nbformat_minor"`
		}
		testutil.ReadJSON(t, path, &nb)
		if nb.NBFormat != 4 || nb.NBFormatMinor != 5 || nb.Metadata.Kernelspec.Name != "nsysx" {
			t.Errorf("%s: nbformat %d.%d kernel %q", rel, nb.NBFormat, nb.NBFormatMinor, nb.Metadata.Kernelspec.Name)
		}
		tableRE, chartRE := regexp.MustCompile(`^res\.Output\.Table\("([^"]+)"\)$`), regexp.MustCompile(`^charts\[(\d+)\]$`)
		var tables []string
		charts := 0
		for _, c := range nb.Cells {
			src := strings.Join(c.Source, "")
			if c.CellType == "code" && c.Outputs == nil {
				t.Errorf("%s: code cell %s without outputs", rel, c.ID)
			}
			if m := tableRE.FindStringSubmatch(src); m != nil {
				tables = append(tables, m[1])
			}
			if chartRE.MatchString(src) {
				charts++
			}
		}
		pq, _ := filepath.Glob(testutil.GoldenRecipe(rel, "*.parquet"))
		if len(tables) != len(pq) {
			t.Errorf("%s: table cells %v, %d Parquet files", rel, tables, len(pq))
		}
		svgs, pngs := countFiles(dir, "*.svg"), countFiles(dir, "*.png")
		if want := map[string]int{"cuda_gpu_kern_sum": 2, "nvtx_pace": 2, "nccl_gpu_time_util_map": 1, "cuda_api_sync": 0}[res.Recipe.Name]; charts != want || svgs != want || pngs != 0 {
			t.Errorf("%s: %d chart cells, %d SVGs, %d PNGs, want %d, %d and none", rel, charts, svgs, pngs, want, want)
		}
		testutil.ValidateNotebook(t, path)
	}
}

// countFiles is how many files of dir match pattern.
func countFiles(dir, pattern string) int {
	m, _ := filepath.Glob(filepath.Join(dir, pattern))
	return len(m)
}
