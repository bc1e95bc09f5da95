package plots

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// benignVega are warnings of a headless vega view, not of the spec: zoom
// bindings listen on the browser window.
var benignVega = []string{"Can not resolve event source: window"}

// vegaTool finds node and tools/vega-check; it skips the test without
// them (fails under CI). The runner compiles and renders spec files.
func vegaTool(t *testing.T) func(files []string, out any) {
	t.Helper()
	return testutil.NodeCheck(t, "vega-check", "vega-lite")
}

// Every Vega-Lite spec compiles with the npm vega-lite package and renders
// to SVG with vega (tools/vega-check under Node.js), without warnings.
func TestVegaLiteCompiles(t *testing.T) {
	run := vegaTool(t)
	dir := t.TempDir()
	var files []string
	for i, rc := range renderCases() {
		c := rc.draw(t)
		js, err := c.VegaLite()
		if err != nil {
			t.Fatalf("%s: %v", rc.name(), err)
		}
		f := filepath.Join(dir, fmt.Sprintf("%03d-%s.json", i, strings.NewReplacer("/", "_", " ", "_", "+", "_").Replace(rc.name())))
		if err := os.WriteFile(f, js, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	vegaCheck(t, run, files)
}

// vegaCheck compiles and renders the spec files with tools/vega-check.
func vegaCheck(t *testing.T, run func(files []string, out any), files []string) {
	t.Helper()
	var res []struct {
		File     string
		Schema   string
		Warnings []string
		SVGBytes int `json:"svgBytes"`
		Paths    int
		SVGStart string `json:"svgStart"`
	}
	run(files, &res)
	if len(res) != len(files) {
		t.Fatalf("vega-check checked %d of %d specs", len(res), len(files))
	}
	for _, r := range res {
		name := filepath.Base(r.File)
		if r.Schema != vegaSchema || r.SVGStart != "<svg " || r.SVGBytes < 1000 || r.Paths < 1 {
			t.Errorf("%s: schema %q, svg %q %d bytes, %d paths", name, r.Schema, r.SVGStart, r.SVGBytes, r.Paths)
		}
		for _, w := range r.Warnings {
			benign := false
			for _, b := range benignVega {
				benign = benign || strings.Contains(w, b)
			}
			if !benign {
				t.Errorf("%s: %s", name, w)
			}
		}
	}
}
