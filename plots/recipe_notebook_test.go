package plots

import (
	"encoding/json"
	"os"
	"os/exec"
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
		res, err := recipe.ReadDir(filepath.Join(testutil.Root(), "testdata", "golden", "recipes", rel))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := RecipeExtra(res)(dir); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		path := filepath.Join(dir, res.Recipe.Notebook)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
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
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
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
		pq, _ := filepath.Glob(filepath.Join(testutil.Root(), "testdata", "golden", "recipes", rel, "*.parquet"))
		if len(tables) != len(pq) {
			t.Errorf("%s: table cells %v, %d Parquet files", rel, tables, len(pq))
		}
		svgs, pngs := countFiles(dir, "*.svg"), countFiles(dir, "*.png")
		if want := map[string]int{"cuda_gpu_kern_sum": 2, "nvtx_pace": 2, "nccl_gpu_time_util_map": 1, "cuda_api_sync": 0}[res.Recipe.Name]; charts != want || svgs != want || pngs != 0 {
			t.Errorf("%s: %d chart cells, %d SVGs, %d PNGs, want %d, %d and none", rel, charts, svgs, pngs, want, want)
		}
		validateNotebook(t, path)
	}
}

// validateNotebook validates with nbformat (skipped without it, unless CI).
func validateNotebook(t *testing.T, path string) {
	t.Helper()
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and python3-nbformat is missing (scripts/install-test-deps.sh)")
		}
		t.Logf("nbformat validation skipped: %v", err)
		return
	}
	out, err := exec.Command(py, "-c", "import sys, nbformat; nbformat.validate(nbformat.read(sys.argv[1], as_version=4)); print('valid')", path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "valid" {
		t.Errorf("%s: nbformat: %v\n%s", filepath.Base(path), err, out)
	}
}

// countFiles is how many files of dir match pattern.
func countFiles(dir, pattern string) int {
	m, _ := filepath.Glob(filepath.Join(dir, pattern))
	return len(m)
}
