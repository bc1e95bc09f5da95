package plots

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// benignVega are warnings of a headless vega view, not of the spec: zoom
// bindings listen on the browser window.
var benignVega = []string{"Can not resolve event source: window"}

// vegaTool finds node and tools/vega-check; it skips the test without
// them (fails under CI).
func vegaTool(t *testing.T) (node, tool string) {
	t.Helper()
	tool = filepath.Join(testutil.Root(), "tools", "vega-check")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(filepath.Join(tool, "node_modules", "vega-lite")); err != nil || serr != nil {
		msg := "node or tools/vega-check/node_modules missing: run `npm ci --prefix tools/vega-check`"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, tool
}

// Every Vega-Lite spec compiles with the npm vega-lite package and renders
// to SVG with vega (tools/vega-check under Node.js), without warnings.
func TestVegaLiteCompiles(t *testing.T) {
	node, tool := vegaTool(t)
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
	vegaCheck(t, node, tool, files)
}

// vegaCheck compiles and renders the spec files with tools/vega-check.
func vegaCheck(t *testing.T, node, tool string, files []string) {
	t.Helper()
	cmd := exec.Command(node, append([]string{filepath.Join(tool, "check.mjs")}, files...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("vega-check: %v\n%s", err, stderr.String())
	}
	var res []struct {
		File     string
		Schema   string
		Warnings []string
		SVGBytes int `json:"svgBytes"`
		Paths    int
		SVGStart string `json:"svgStart"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("vega-check output: %v\n%.500s", err, out)
	}
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
