package recipes

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/pqcompare"
)

// mapGoldens are the golden runs of this package's heatmap, overlap, GPU
// metric and rule recipes.
var mapGoldens = []struct {
	recipe string
	set    []string
}{
	{"cuda_gpu_time_util_map", []string{"train", "fixed"}},
	{"cuda_gpu_time_util_map", []string{"rank0", "rank1"}},
	{"nccl_gpu_time_util_map", []string{"rank0", "rank1"}},
	{"nccl_gpu_overlap_trace", []string{"rank0", "rank1"}},
	{"gpu_time_util", []string{"train", "fixed"}},
	{"cuda_api_sync", []string{"train", "fixed"}},
	{"cuda_memcpy_async", []string{"train", "fixed"}},
	{"gpu_metric_util_map", []string{"bt"}},
	{"gpu_metric_util_sum", []string{"bt"}},
}

// TestMapsWriteGoldens writes each golden run's output directory and
// compares every Parquet file nsys wrote with pqcompare (layout, schemas,
// pandas metadata, values) and with the in-memory frame (compareGolden; its
// Category columns are the golden's categorical ones, e.g. the binned
// Duration of gpu_metric_util_map), and the .nsys-analysis keys: DisplayName,
// Outputs, and Options in order with their values (input and output
// excepted, which name the machine's paths).
func TestMapsWriteGoldens(t *testing.T) {
	for _, c := range mapGoldens {
		set := strings.Join(c.set, "+")
		t.Run(c.recipe+"/"+set, func(t *testing.T) {
			res := runOn(t, c.recipe, nil, c.set...)
			res.Opts.Output = filepath.Join(t.TempDir(), c.recipe)
			dir, err := res.Write(nil)
			if err != nil {
				t.Fatal(err)
			}
			gdir := goldenDir(set, c.recipe)
			files, _ := filepath.Glob(filepath.Join(gdir, "*.parquet"))
			for _, g := range files {
				if err := pqcompare.Files(g, filepath.Join(dir, filepath.Base(g))); err != nil {
					t.Errorf("%s: %v", filepath.Base(g), err)
				}
				f := res.Output.Table(strings.TrimSuffix(filepath.Base(g), ".parquet"))
				compareGolden(t, g, f)
				checkCategories(t, g, f)
			}
			compareAnalysis(t, filepath.Join(gdir, c.recipe+".nsys-analysis"), filepath.Join(dir, c.recipe+".nsys-analysis"))
		})
	}
}

func compareAnalysis(t *testing.T, golden, got string) {
	t.Helper()
	wk, wo, wm := analysisOptions(t, golden)
	gk, gvals, gm := analysisOptions(t, got)
	for _, k := range []string{"RecipeName", "DisplayName", "Outputs"} {
		if string(wm[k]) != string(gm[k]) {
			t.Errorf("%s: %s, want %s", k, gm[k], wm[k])
		}
	}
	if fmt.Sprint(wk) != fmt.Sprint(gk) {
		t.Errorf("Options keys %v, want %v", gk, wk)
	}
	for _, k := range wk {
		if k != "input" && k != "output" && string(wo[k]) != string(gvals[k]) {
			t.Errorf("Options %s: %s, want %s", k, gvals[k], wo[k])
		}
	}
}
