package plots

import (
	"bufio"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotKind is how a recipe's output is charted (docs/recipes.md §2, "Plot
// kinds").
type PlotKind string

// The plot kinds of nsys's recipe notebooks.
const (
	KindStats   PlotKind = "K1"   // summary statistics per name (nsys_display)
	KindPres    PlotKind = "K2"   // summary statistics per range name (nsys_pres)
	KindTable   PlotKind = "K3"   // a per-rank table: no chart
	KindHeatmap PlotKind = "K4"   // utilisation heatmap
	KindPace    PlotKind = "K5"   // pacing
	KindDiff    PlotKind = "diff" // the statistics diff
)

// recipeKinds maps the recipes to their plot kind.
var recipeKinds = map[string]PlotKind{
	"cuda_api_sum": KindStats, "cuda_gpu_kern_sum": KindStats, "cuda_gpu_mem_size_sum": KindStats,
	"cuda_gpu_mem_time_sum": KindStats, "osrt_sum": KindStats,
	"nvtx_sum": KindPres, "nvtx_gpu_proj_sum": KindPres, "nccl_sum": KindPres, "nccl_gpu_proj_sum": KindPres,
	"mpi_sum":                KindPres,
	"cuda_gpu_time_util_map": KindHeatmap, "nccl_gpu_time_util_map": KindHeatmap, "mpi_gpu_time_util_map": KindHeatmap,
	"nvtx_pace": KindPace, "nvtx_gpu_proj_pace": KindPace, "cuda_gpu_kern_pace": KindPace,
	"nvtx_gpu_proj_trace": KindTable, "gpu_time_util": KindTable, "gpu_gaps": KindTable,
	"cuda_api_sync": KindTable, "cuda_memcpy_async": KindTable, "cuda_memcpy_sync": KindTable,
	"cuda_memset_sync": KindTable, "nccl_gpu_overlap_trace": KindTable,
	"diff": KindDiff, "cuda_gpu_kern_hist": KindTable,
}

// RecipeKind returns the plot kind of a recipe's output: the recipe's own
// (by name), else guessed from the tables it has (all_stats: K1,
// pace_delta_stats: K5, an analysis table with Duration and percentage
// columns: K4), else K3.
func RecipeKind(name string, out *recipe.Output) PlotKind {
	if k, ok := recipeKinds[name]; ok {
		return k
	}
	switch {
	case out == nil:
		return KindTable
	case out.Table("all_stats") != nil:
		return KindStats
	case out.Table("pace_delta_stats") != nil:
		return KindPace
	}
	if a := out.Table("analysis"); a != nil && a.Find("Duration") != nil && len(heatValueCols(a)) > 0 {
		return KindHeatmap
	}
	return KindTable
}

// RecipeCharts draws the charts of a recipe's output, as nsys's notebook
// for the recipe does (docs/recipes.md §2): K1/K2 a box chart of all_stats
// per name and a per-rank chart of rank_stats, K4 the utilisation summary
// and one heatmap per value column, K5 the progress per rank over the
// iterations and the spread of each iteration's delta. K3 recipes (traces
// and rules) have no chart: the result is empty. Each chart's Name is the
// base of its files (WriteRecipeCharts).
func RecipeCharts(name string, out *recipe.Output) ([]*Chart, error) {
	if out == nil {
		return nil, fmt.Errorf("recipe %s: no output", name)
	}
	switch RecipeKind(name, out) {
	case KindStats:
		return statsCharts(name, out, false)
	case KindPres:
		return statsCharts(name, out, true)
	case KindHeatmap:
		return heatmapCharts(name, out)
	case KindPace:
		return paceCharts(name, out)
	case KindDiff:
		return diffCharts(name, out)
	}
	return nil, nil
}

// WriteRecipeCharts writes each chart of RecipeCharts into dir as
// NAME.png, NAME.svg and NAME.vl.json (Vega-Lite); it returns the file
// names written, in order.
func WriteRecipeCharts(dir, name string, out *recipe.Output) ([]string, error) {
	return writeRecipeCharts(dir, name, out, true)
}

// chartExts are the chart formats written into a recipe's output
// directory: SVG and Vega-Lite always, PNG when asked for (drawing and
// compressing the bitmaps is most of a small recipe's run).
func chartExts(withPNG bool) []string {
	if withPNG {
		return []string{".png", ".svg", ".vl.json"}
	}
	return []string{".svg", ".vl.json"}
}

// writeRecipeCharts writes the charts of RecipeCharts in chartExts(withPNG).
func writeRecipeCharts(dir, name string, out *recipe.Output, withPNG bool) ([]string, error) {
	cs, err := RecipeCharts(name, out)
	if err != nil {
		return nil, err
	}
	// Every chart in every format is drawn at once, PNGs with fast
	// compression; the file list keeps chart and format order.
	exts := chartExts(withPNG)
	files := make([]string, len(cs)*len(exts))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, c := range cs {
		for j, ext := range exts {
			k := i*len(exts) + j
			files[k] = c.Name + ext
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[k] = writeChartFile(filepath.Join(dir, files[k]), c, ext)
			}()
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// writeChartFile writes one chart in one format (by extension), straight
// to the file: a chart of many points (a pace chart over many ranks) is
// tens of megabytes of SVG and a hundred of Vega-Lite JSON, which are not
// copied into a buffer first.
func writeChartFile(path string, c *Chart, ext string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	switch ext {
	case ".png":
		err = c.encodePNG(bw, png.BestSpeed)
	case ".svg":
		err = c.SVG(bw)
	default:
		err = c.writeVegaLite(bw)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("chart %s: %w", c.Name, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// seriesPalette tells lines apart (Tableau 10).
var seriesPalette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

func seriesColor(i int) color.RGBA { return seriesPalette[i%len(seriesPalette)] }

// addLineDots adds to p a line through xys in col, with a dot of radius at
// each point when dots (while they stay apart).
func addLineDots(p *plot.Plot, xys plotter.XYs, col color.Color, width, radius vg.Length, dots bool) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color, l.Width = col, width
	p.Add(extremeBoxes{l})
	if dots {
		p.Add(newDots(xys, col, radius))
	}
	return nil
}

// extremeBoxes is a line that gives the plot's layout only the glyph boxes
// of its extreme points. gonum pads the data area from the left-, right-,
// top- and bottom-most glyph boxes (of x ≥ 0, x ≤ 1, y ≤ 1, y ≥ 0 in the
// axes' normalised units), and a line's boxes are all the same square
// around each point, so those four give the same layout as all of them:
// a line of thousands of points otherwise allocates a box per point
// several times over (half of drawing the pace chart's SVG).
type extremeBoxes struct{ *plotter.Line }

func (l extremeBoxes) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	n := l.XYs.Len()
	if n <= 4 {
		return l.Line.GlyphBoxes(p)
	}
	// the box of point i, as Line.GlyphBoxes makes it
	r := 0.5 * l.LineStyle.Width
	box := func(i int) plot.GlyphBox {
		x, y := l.XY(i)
		return plot.GlyphBox{X: p.X.Norm(x), Y: p.Y.Norm(y),
			Rectangle: vg.Rectangle{Min: vg.Point{X: -r, Y: -r}, Max: vg.Point{X: r, Y: r}}}
	}
	// left (least x ≥ 0), right (greatest x ≤ 1), bottom, top; -1: none
	ext := [4]int{-1, -1, -1, -1}
	var val [4]float64
	take := func(k, i int, v float64, less bool) {
		if ext[k] < 0 || (less && v < val[k]) || (!less && v > val[k]) {
			ext[k], val[k] = i, v
		}
	}
	for i := 0; i < n; i++ {
		x, y := l.XY(i)
		nx, ny := p.X.Norm(x), p.Y.Norm(y)
		if nx >= 0 {
			take(0, i, nx, true)
		}
		if nx <= 1 {
			take(1, i, nx, false)
		}
		if ny >= 0 {
			take(2, i, ny, true)
		}
		if ny <= 1 {
			take(3, i, ny, false)
		}
	}
	var out []plot.GlyphBox
	for _, i := range ext {
		if i >= 0 {
			out = append(out, box(i))
		}
	}
	return out
}

// newDots is a dot of radius at each point, in col.
func newDots(xys plotter.XYs, col color.Color, radius vg.Length) *plotter.Scatter {
	s, _ := plotter.NewScatter(xys) // only fails where NewLine did
	s.Color, s.Shape, s.Radius = col, draw.CircleGlyph{}, radius
	return s
}

// cellFloat is row i of a numeric column as float64; NULL (and a missing
// column) is NaN.
func cellFloat(c *recipe.Column, i int) float64 {
	if c == nil || i >= c.Len() || c.IsNull(i) {
		return math.NaN()
	}
	switch c.Type {
	case recipe.Float64:
		return c.FloatVals[i]
	case recipe.Uint64:
		return float64(uint64(c.IntVals[i]))
	case recipe.Int64, recipe.Uint32, recipe.Category:
		return float64(c.IntVals[i])
	}
	return math.NaN()
}

// cellText is row i of a column as text.
func cellText(c *recipe.Column, i int) string {
	if c == nil || i >= c.Len() || c.IsNull(i) {
		return ""
	}
	if c.Type == recipe.String {
		return c.Strs[i]
	}
	v := cellFloat(c, i)
	if math.IsNaN(v) {
		return ""
	}
	return trimFloat(v)
}

// firstCol returns the first of the named columns the frame has.
func firstCol(f *recipe.Frame, names ...string) *recipe.Column {
	for _, n := range names {
		if c := f.Find(n); c != nil {
			return c
		}
	}
	return nil
}

// naturalLess compares strings with digit runs compared as numbers
// ("2/0/10" < "10/0/2").
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// sortNatural sorts labels in natural order.
func sortNatural(labels []string) {
	sort.SliceStable(labels, func(i, j int) bool { return naturalLess(labels[i], labels[j]) })
}
