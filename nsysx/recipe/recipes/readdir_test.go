package recipes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// ReadDir reads nsys's own output directories: the recipe named in the
// .nsys-analysis, every Parquet file as a table, the stems of files.parquet.
func TestReadDir(t *testing.T) {
	root := filepath.Join(testutil.Root(), "testdata", "golden", "recipes")
	// gpu_time_util found nothing on train: nsys lists only fixed
	for rel, stems := range map[string]string{"rank0+rank1/cuda_gpu_kern_sum": "rank0+rank1", "rank0+rank1/nvtx_pace": "rank0+rank1",
		"train+fixed/gpu_time_util": "fixed"} {
		dir := filepath.Join(root, rel)
		res, err := recipe.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if res.Recipe.Name != filepath.Base(rel) {
			t.Errorf("%s: recipe %q", rel, res.Recipe.Name)
		}
		ents, _ := os.ReadDir(dir)
		n := 0
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".parquet") {
				n++
				f := res.Output.Table(strings.TrimSuffix(e.Name(), ".parquet"))
				g, err := pyframe.ReadParquet(filepath.Join(dir, e.Name()))
				if err != nil || f == nil || f.Rows() != g.Rows() || len(f.Cols) != len(g.Cols) {
					t.Errorf("%s/%s: table %v", rel, e.Name(), err)
				}
			}
		}
		if len(res.Output.Tables) != n || strings.Join(res.Files, "+") != stems || len(res.Opts.Input) != 2 {
			t.Errorf("%s: %d tables of %d, files %v, inputs %v", rel, len(res.Output.Tables), n, res.Files, res.Opts.Input)
		}
	}
	if _, err := recipe.ReadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a recipe output") {
		t.Errorf("empty directory: %v", err)
	}
}
