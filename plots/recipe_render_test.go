package plots

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// keptDir is a temporary directory for chart files, or with
// NSYSX_RECIPE_PNG=DIR set DIR/sub, kept there for a look.
func keptDir(t *testing.T, sub string) string {
	t.Helper()
	keep := os.Getenv("NSYSX_RECIPE_PNG")
	if keep == "" {
		return t.TempDir()
	}
	dir := filepath.Join(keep, sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// vegaLiteFiles writes the charts of a recipe's output into a temporary
// directory and returns the paths of their Vega-Lite files.
func vegaLiteFiles(t *testing.T, name string, out *recipe.Output) []string {
	t.Helper()
	dir := t.TempDir()
	written, err := WriteRecipeCharts(dir, name, out)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range written {
		if strings.HasSuffix(f, ".vl.json") {
			files = append(files, filepath.Join(dir, f))
		}
	}
	return files
}

// Every recipe chart renders (PNG of the announced size, SVG, Vega-Lite)
// and WriteRecipeCharts writes the three files of each. With
// NSYSX_RECIPE_PNG=DIR the PNGs are kept there for a look.
func TestRecipeChartsRender(t *testing.T) {
	for _, rel := range recipeGoldens {
		dir := keptDir(t, strings.ReplaceAll(rel, "/", "_"))
		files, err := WriteRecipeCharts(dir, filepath.Base(rel), goldenOutput(t, rel))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(files) == 0 || len(files)%3 != 0 {
			t.Errorf("%s: files %v", rel, files)
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil || len(b) < 1000 || len(b) > maxOutput {
				t.Errorf("%s/%s: %d bytes, %v", rel, f, len(b), err)
			}
			if strings.HasSuffix(f, ".png") {
				if _, err := png.Decode(bytes.NewReader(b)); err != nil {
					t.Errorf("%s/%s: %v", rel, f, err)
				}
			}
		}
	}
}

// Every recipe chart's Vega-Lite compiles and renders (tools/vega-check).
func TestRecipeVegaLiteCompiles(t *testing.T) {
	run := vegaTool(t)
	var files []string
	for _, rel := range recipeGoldens {
		files = append(files, vegaLiteFiles(t, filepath.Base(rel), goldenOutput(t, rel))...)
	}
	files = append(files, vegaLiteFiles(t, recipe.DiffName, diffOutput(t))...)
	vegaCheck(t, run, files)
}

// TestExtremeBoxesSameLayout: a plot whose lines give the layout only
// their extreme glyph boxes (extremeBoxes) draws byte for byte what gonum
// draws from every point's box, with points inside and outside the axes'
// ranges and lines of several widths.
func TestExtremeBoxesSameLayout(t *testing.T) {
	draw := func(wrap bool) []byte {
		p := newPlot()
		for k, width := range []vg.Length{0.5, 1.3, 6} {
			var xys plotter.XYs
			for i := 0; i < 500; i++ {
				xys = append(xys, plotter.XY{X: float64(i) + float64(k)*0.3, Y: math.Sin(float64(i)/17+float64(k)) * float64(10+k)})
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				t.Fatal(err)
			}
			l.Width = width
			if wrap {
				p.Add(extremeBoxes{l})
			} else {
				p.Add(l)
			}
		}
		p.X.Min, p.X.Max = 20, 480 // some points left and right of the axis
		p.Y.Min, p.Y.Max = -9, 11  // and below and above it
		w, err := p.WriterTo(4*vg.Inch, 3*vg.Inch, "svg")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := w.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	all, ext := draw(false), draw(true)
	if !bytes.Equal(all, ext) {
		t.Fatalf("extremeBoxes changed the drawing (%d bytes against %d)", len(ext), len(all))
	}
}
