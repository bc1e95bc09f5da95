package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The notebook nsysx recipe writes into its output directory runs on the
// nsysx kernel under nbconvert: every code cell executes without error,
// the table cells show HTML tables and the chart cells PNG and Vega-Lite.
func TestRecipeNotebookExecutes(t *testing.T) {
	_, in := reports(t, "rank0", "rank1")
	out := filepath.Join(t.TempDir(), "kern")
	if _, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", in[0], in[1], "--output", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"stats.ipynb", "cuda_gpu_kern_sum-stats.svg", "cuda_gpu_kern_sum-stats.vl.json",
		"cuda_gpu_kern_sum-ranks.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if png, _ := filepath.Glob(filepath.Join(out, "*.png")); len(png) != 0 {
		t.Errorf("PNGs without --png: %v", png)
	}
	je := setupJupyter(t, []string{"/usr/bin/python3", "/usr/bin/jupyter", "/usr/bin/jupyter-nbconvert"}, []string{"nbconvert", "nbclient"})
	exec := filepath.Join(je.dir, "executed")
	je.run(t, out, 5*time.Minute, "/usr/bin/jupyter", "nbconvert", "--to", "notebook", "--execute",
		"--ExecutePreprocessor.kernel_name=nsysx", "--ExecutePreprocessor.timeout=300", "--output-dir", exec, "stats.ipynb")
	nb := checkExecuted(t, filepath.Join(exec, "stats.ipynb"))
	tables, charts := 0, 0
	for _, c := range nb.Cells {
		src := joinText(c.Source)
		for _, o := range c.Outputs {
			html := joinText(o.Data["text/html"])
			switch {
			case strings.HasPrefix(src, "res.Output.Table(") && strings.Contains(html, "<table"):
				tables++
			case strings.HasPrefix(src, "charts[") && o.Data["image/png"] != nil && o.Data["application/vnd.vegalite.v5+json"] != nil:
				charts++
			}
		}
	}
	if tables != 4 || charts != 2 {
		t.Errorf("%d tables and %d charts shown, want 4 and 2", tables, charts)
	}
}

// --png adds each chart as a PNG beside its SVG and Vega-Lite files, and the
// notebook says so.
func TestRecipePNG(t *testing.T) {
	_, in := reports(t, "rank0", "rank1")
	out := filepath.Join(t.TempDir(), "kern")
	if _, stderr, code := runCLI(t, "recipe", "cuda_gpu_kern_sum", "--input", in[0], in[1], "--output", out, "--png"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, c := range []string{"stats", "ranks"} {
		for _, ext := range []string{".png", ".svg", ".vl.json"} {
			if _, err := os.Stat(filepath.Join(out, "cuda_gpu_kern_sum-"+c+ext)); err != nil {
				t.Error(err)
			}
		}
	}
	nb, err := os.ReadFile(filepath.Join(out, "stats.ipynb"))
	if err != nil || !strings.Contains(string(nb), "as PNG, SVG and Vega-Lite") {
		t.Errorf("notebook: %v", err)
	}
}
