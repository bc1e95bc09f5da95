package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/internal/shortname"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// StatBox is one row of a recipe's statistics: a name of all_stats, or a
// name on one rank of rank_stats (values in ns, or bytes).
type StatBox struct {
	Name                           string
	Rank                           int64  // rank_stats: the rank; pace_delta_stats: the iteration; -1 in all_stats
	Device                         string // rank_stats_by_device: the Device ID; "" elsewhere
	Count                          int64
	Mean, Std, Min, Q1, Median, Q3 float64
	Max, Sum                       float64
}

// StatsData is what the charts of the summary recipes (K1, K2) draw.
type StatsData struct {
	Recipe string
	Key    string    // the index: "Name", "Text"
	Bytes  bool      // values are bytes (cuda_gpu_mem_size_sum), not ns
	Boxes  []StatBox // the all_stats rows shown, by Sum descending
	Names  int       // all_stats rows
	// Ranks are the rank_stats rows of the names in Boxes, by name, in
	// Rank order.
	Ranks    map[string][]StatBox
	rankRows int // rank_stats rows, of any name
	// ByDevice are the rank_stats_by_device rows of the names in Boxes
	// (cuda_gpu_kern_sum, the memops sums), by name, in Device ID and Rank
	// order; the interactive per-rank chart picks a device from them.
	ByDevice map[string][]StatBox
	Log      bool // the box chart's value axis is logarithmic
	Diff     bool // the tables are differences (the diff recipe): values may be negative
}

// Names of the boxes and the per-rank panels shown at most.
const (
	maxStatBoxes   = 25
	maxRankPanels  = 6
	logScaleSpread = 1000 // Max/Min beyond which the box axis is logarithmic
)

// statsCharts draws K1 (pres false) or K2: the box chart of all_stats
// (Min, Q1, Median, Q3, Max; K2 adds the mean) and the per-rank chart of
// rank_stats for the names with the largest totals.
func statsCharts(name string, out *recipe.Output, pres bool) ([]*Chart, error) {
	d, err := StatsFromOutput(name, out)
	if err != nil {
		return nil, err
	}
	if len(d.Boxes) == 0 {
		return []*Chart{noData(name+"-stats", statsTitle(d), name, "all_stats has no rows")}, nil
	}
	box, err := statsBoxChart(d, pres)
	if err != nil {
		return nil, err
	}
	cs := []*Chart{box}
	if d.rankRows > 0 {
		rk, err := statsRankChart(d, pres)
		if err != nil {
			return nil, err
		}
		cs = append(cs, rk)
	}
	return cs, nil
}

// StatsFromOutput reads all_stats and rank_stats of a summary recipe's
// output into the data the K1/K2 charts draw.
func StatsFromOutput(name string, out *recipe.Output) (*StatsData, error) {
	names := 0
	if all := out.Table("all_stats"); all != nil {
		names = all.Rows()
	}
	boxes, key, err := readAllStats(name, out, true)
	if err != nil {
		return nil, err
	}
	d := &StatsData{Recipe: name, Bytes: name == "cuda_gpu_mem_size_sum", Key: key, Names: names, Ranks: map[string][]StatBox{}}
	sort.SliceStable(boxes, func(i, j int) bool { return boxes[i].Sum > boxes[j].Sum })
	d.Boxes = boxes[:min(len(boxes), maxStatBoxes)]
	if err := d.readRankStats(name, out); err != nil {
		return nil, err
	}
	for _, rows := range d.Ranks {
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Rank < rows[j].Rank })
	}
	if err := d.readByDevice(out.Table("rank_stats_by_device")); err != nil {
		return nil, fmt.Errorf("recipe %s: rank_stats_by_device: %w", name, err)
	}
	lo, hi := math.Inf(1), 0.0
	for _, b := range d.Boxes {
		if b.Min > 0 {
			lo = math.Min(lo, b.Min)
		}
		hi = math.Max(hi, b.Max)
	}
	d.Log = hi/lo > logScaleSpread
	return d, nil
}

// readAllStats reads the boxes of the output's all_stats and its name
// column's name; with top, only those of the largest Sums (topSums).
func readAllStats(name string, out *recipe.Output, top bool) ([]StatBox, string, error) {
	all := out.Table("all_stats")
	if all == nil {
		return nil, "", fmt.Errorf("recipe %s: no all_stats table", name)
	}
	var rows []int
	if top {
		rows = topSums(all, maxStatBoxes)
	}
	boxes, key, err := readStatBoxes(all, false, rows)
	if err != nil {
		return nil, "", fmt.Errorf("recipe %s: all_stats: %w", name, err)
	}
	return boxes, key, nil
}

// topSums returns the rows of f with the k largest Sums, in row order, when
// f has more than k rows and no NULL Sum: the rows a stable sort by Sum
// descending puts first, so that a million names are not all read into
// boxes; nil (every row) otherwise.
func topSums(f *recipe.Frame, k int) []int {
	sum := firstCol(f, "Sum (approx)", "Sum")
	if f.Rows() <= k || sum == nil {
		return nil
	}
	var top []int // by Sum descending, then row
	for i := range f.Rows() {
		v := cellFloat(sum, i)
		if math.IsNaN(v) {
			return nil // NaN is no order: leave it to the sort
		}
		if len(top) == k && v <= cellFloat(sum, top[k-1]) {
			continue
		}
		at := sort.Search(len(top), func(j int) bool { return cellFloat(sum, top[j]) < v })
		if len(top) < k {
			top = append(top, 0)
		}
		copy(top[at+1:], top[at:])
		top[at] = i
	}
	slices.Sort(top)
	return top
}

// readRankStats reads the output's rank_stats, when it has one, into
// d.Ranks: per name, in table order.
func (d *StatsData) readRankStats(name string, out *recipe.Output) error {
	shown := map[string]bool{}
	for _, b := range d.Boxes {
		shown[b.Name] = true
	}
	// the rows of the names shown (a million names: these few); a spilled
	// run's rank_stats is read through from its parts
	var of *recipe.Frame // the frame of key
	var key *recipe.Column
	rs, n, err := out.Rows("rank_stats", func(f *recipe.Frame, i int) bool {
		if f != of {
			of, key = f, statsKey(f)
		}
		return shown[cellText(key, i)]
	})
	if err != nil {
		return fmt.Errorf("recipe %s: rank_stats: %w", name, err)
	}
	if rs == nil {
		return nil
	}
	d.rankRows = n
	rows, _, err := readStatBoxes(rs, true, nil)
	if err != nil {
		return fmt.Errorf("recipe %s: rank_stats: %w", name, err)
	}
	for _, r := range rows {
		d.Ranks[r.Name] = append(d.Ranks[r.Name], r)
	}
	return nil
}

// readStatBoxes reads a stats frame (all_stats: "(approx)" columns;
// rank_stats: plain ones and Rank): the given rows, or every row when rows
// is nil.
func readStatBoxes(f *recipe.Frame, ranks bool, rows []int) ([]StatBox, string, error) {
	key := statsKey(f)
	if key == nil {
		return nil, "", fmt.Errorf("no name column")
	}
	col := func(n string) *recipe.Column { return firstCol(f, n+" (approx)", n) }
	cnt, rank := f.Find("Count"), f.Find("Rank")
	if cnt == nil || col("Median") == nil || (ranks && rank == nil) {
		return nil, "", fmt.Errorf("missing Count, Median or Rank")
	}
	if rows == nil {
		rows = make([]int, f.Rows())
		for i := range rows {
			rows[i] = i
		}
	}
	out := make([]StatBox, len(rows))
	for x, i := range rows {
		b := &out[x]
		b.Name, b.Rank, b.Count, b.Device = cellText(key, i), -1, int64(cellFloat(cnt, i)), cellText(f.Find("Device ID"), i)
		if ranks {
			b.Rank = int64(cellFloat(rank, i))
		}
		b.Mean, b.Std, b.Min, b.Q1 = cellFloat(col("Mean"), i), cellFloat(col("Std"), i), cellFloat(col("Min"), i), cellFloat(col("Q1"), i)
		b.Median, b.Q3, b.Max, b.Sum = cellFloat(col("Median"), i), cellFloat(col("Q3"), i), cellFloat(col("Max"), i), cellFloat(col("Sum"), i)
	}
	return out, key.Name, nil
}

// statsKey is the frame's name column: its index, or Name/Text/Shortname.
func statsKey(f *recipe.Frame) *recipe.Column {
	if f.Index == recipe.NamedIndex && len(f.IndexCols) > 0 {
		if c := f.Find(f.IndexCols[0]); c != nil && c.Type == recipe.String {
			return c
		}
	}
	return firstCol(f, "Name", "Text", "Shortname")
}

func statsTitle(d *StatsData) string {
	return fmt.Sprintf("%s: statistics per %s over all ranks", d.Recipe, strings.ToLower(d.Key))
}

// valueAxis is how a stats value axis is labelled: its unit and formatter.
func (d *StatsData) valueAxis(max float64) (timeUnit, valueFormat, string) {
	if d.Bytes {
		return pickSizeUnit(max), fmtBytes, "size"
	}
	return pickTimeUnit(max), fmtDur, "time"
}

func (d *StatsData) maxValue() float64 {
	m := 0.0
	for _, b := range d.Boxes {
		m = math.Max(m, b.Max)
	}
	return m
}

// statsBoxChart is K1(a)/K2(a): one box per name.
func statsBoxChart(d *StatsData, pres bool) (*Chart, error) {
	c := newChart(d.Recipe+"-stats", statsTitle(d))
	c.Subtitle = fmt.Sprintf("all_stats: %d of %d %ss, largest total first", len(d.Boxes), d.Names, strings.ToLower(d.Key))
	c.Footnote = "Box: Q1 (approx) to Q3 (approx) with the median (approx); whiskers: Min to Max over all ranks."
	c.legend = []legendItem{{"Q1–Q3", withAlphaRGBA(colKernel, 0.55), false}, {"median", colInk, true}, {"Min–Max", colGrey, true}}
	if pres {
		c.Footnote += " Diamond: the mean."
		c.legend = append(c.legend, legendItem{"mean", colSeries2, false})
	}
	if d.Log {
		c.Footnote += " The value axis is logarithmic."
	}
	p := statBoxPanel(d, pres)
	c.grid = [][]*plot.Plot{{p}}
	return c.done(barsHeight(len(d.Boxes))+0.6, statsText(d), statsBoxVega(c, d, pres), d)
}

func statBoxPanel(d *StatsData, pres bool) *plot.Plot {
	p := newPlot()
	p.Add(xGrid())
	unit, format, what := d.valueAxis(d.maxValue())
	sb := &statBoxes{boxes: d.Boxes, scale: unit.ns, mean: pres}
	p.Add(sb)
	laneAxis(p, statLabels(d.Boxes, 48))
	p.Y.Tick.Label.Font.Size = 9
	xmin, xmax := sb.xRange()
	if d.Log {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{scale: unit.ns, format: format}
		p.X.Min, p.X.Max = math.Max(xmin, xmax*1e-9)/1.3, xmax*1.3
	} else {
		p.X.Tick.Marker = valueTicks{6}
		p.X.Min, p.X.Max = 0, xmax*1.05
	}
	p.X.Label.Text = what + " (" + unit.name + ")"
	if d.Log {
		p.X.Label.Text = what
	}
	return p
}

// statLabels shortens the box names to n runes; names that shorten alike
// keep the text where they differ (shortname.Distinct).
func statLabels(boxes []StatBox, n int) []string {
	full := make([]string, len(boxes))
	for i, b := range boxes {
		full[i] = b.Name
	}
	return shortname.Distinct(full, n)
}

// statBoxes draws precomputed boxes, one per lane (the first at the top).
type statBoxes struct {
	boxes    []StatBox
	scale    float64 // divides the values
	mean     bool
	vertical bool // x = StatBox.Rank (an iteration), values up; else one lane per box
}

func (s *statBoxes) xRange() (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, b := range s.boxes {
		if b.Min > 0 {
			lo = math.Min(lo, b.Min/s.scale)
		}
		hi = math.Max(hi, b.Max/s.scale)
	}
	if math.IsInf(lo, 1) {
		lo = hi / 10
	}
	return lo, math.Max(hi, 1e-9)
}

// Plot implements plot.Plotter.
func (s *statBoxes) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	n := len(s.boxes)
	clampX := func(v float64) vg.Length { return trX(math.Min(math.Max(v, p.X.Min), p.X.Max)) }
	clampY := func(v float64) vg.Length { return trY(math.Min(math.Max(v, p.Y.Min), p.Y.Max)) }
	for i, b := range s.boxes {
		// pt maps (value, offset across the box) to the canvas.
		var pt func(v float64, off vg.Length) vg.Point
		var h vg.Length
		if s.vertical {
			x := trX(float64(b.Rank))
			h = (trX(1) - trX(0)) * 0.3
			pt = func(v float64, off vg.Length) vg.Point { return vg.Point{X: x + off, Y: clampY(v / s.scale)} }
		} else {
			y := trY(laneY(i, n))
			h = (trY(1) - trY(0)) * 0.32
			pt = func(v float64, off vg.Length) vg.Point { return vg.Point{X: clampX(v / s.scale), Y: y + off} }
		}
		h = min(h, 9)
		line := func(sty draw.LineStyle, a, b vg.Point) { c.StrokeLine2(sty, a.X, a.Y, b.X, b.Y) }
		ink := draw.LineStyle{Color: colGrey, Width: 0.8}
		line(ink, pt(b.Min, 0), pt(b.Max, 0))
		line(ink, pt(b.Min, -h/2), pt(b.Min, h/2))
		line(ink, pt(b.Max, -h/2), pt(b.Max, h/2))
		lo, hi := pt(b.Q1, -h), pt(b.Q3, h)
		r := vg.Rectangle{Min: vg.Point{X: min(lo.X, hi.X), Y: min(lo.Y, hi.Y)}, Max: vg.Point{X: max(lo.X, hi.X), Y: max(lo.Y, hi.Y)}}
		c.SetColor(withAlphaRGBA(colKernel, 0.55))
		c.Fill(r.Path())
		c.SetLineWidth(0.6)
		c.SetColor(colKernel)
		c.Stroke(r.Path())
		line(draw.LineStyle{Color: colInk, Width: 1.6}, pt(b.Median, -h), pt(b.Median, h))
		if s.mean && !math.IsNaN(b.Mean) {
			c.DrawGlyph(draw.GlyphStyle{Color: colSeries2, Radius: 3.2, Shape: diamondGlyph{}}, pt(b.Mean, 0))
		}
	}
}

// withAlphaRGBA blends c with white (an opaque tint that PNG and SVG draw alike).
func withAlphaRGBA(c color.RGBA, a float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(math.Round(float64(v)*a + 255*(1-a))) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// logTicks labels powers of ten (in axis units; values divided by scale)
// with the formatter, and marks 2 and 5 times them.
type logTicks struct {
	scale  float64
	format valueFormat
}

// Ticks implements plot.Ticker.
func (l logTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 {
				t.Label = tickUnitLabel(v*l.scale, l.format)
			}
			out = append(out, t)
		}
	}
	return out
}

// tickUnitLabel is a round value with its unit: "10 µs", "1 MB".
func tickUnitLabel(v float64, format valueFormat) string {
	s := format(v)
	num, unit, ok := strings.Cut(s, " ")
	if !ok {
		return s
	}
	if strings.Contains(num, ".") {
		num = strings.TrimRight(strings.TrimRight(num, "0"), ".")
	}
	return num + " " + unit
}

// statsText lists the boxes.
func statsText(d *StatsData) string {
	var b strings.Builder
	_, format, _ := d.valueAxis(d.maxValue())
	fmt.Fprintf(&b, "%-40s %8s %10s %10s %10s %10s %10s %10s\n", d.Key, "Count", "Min", "Q1", "Median", "Q3", "Max", "Mean")
	for _, x := range d.Boxes {
		fmt.Fprintf(&b, "%-40s %8d %10s %10s %10s %10s %10s %10s\n", truncate(x.Name, 40), x.Count, format(x.Min), format(x.Q1),
			format(x.Median), format(x.Q3), format(x.Max), format(x.Mean))
	}
	if d.Names > len(d.Boxes) {
		fmt.Fprintf(&b, "(%d more)\n", d.Names-len(d.Boxes))
	}
	return b.String()
}

func statsBoxVega(c *Chart, d *StatsData, pres bool) map[string]any {
	unit, _, what := d.valueAxis(d.maxValue())
	var rows []map[string]any
	var order []any
	labels := statLabels(d.Boxes, 60)
	for i, b := range d.Boxes {
		lbl := labels[i]
		order = append(order, lbl)
		rows = append(rows, map[string]any{"name": b.Name, "label": lbl, "count": b.Count,
			"min": nullable(b.Min / unit.ns), "q1": nullable(b.Q1 / unit.ns), "median": nullable(b.Median / unit.ns),
			"q3": nullable(b.Q3 / unit.ns), "max": nullable(b.Max / unit.ns), "mean": nullable(b.Mean / unit.ns)})
	}
	title := what + " (" + unit.name + ")"
	scale := map[string]any{"type": "linear", "zero": true}
	if d.Log {
		scale = map[string]any{"type": "log"}
	}
	y := map[string]any{"field": "label", "type": "nominal", "sort": order, "title": nil, "axis": map[string]any{"labelLimit": 420}}
	q := func(f string) map[string]any {
		return map[string]any{"field": f, "type": "quantitative", "title": title, "scale": scale}
	}
	tip := []any{map[string]any{"field": "name", "title": d.Key}, map[string]any{"field": "count"}}
	for _, f := range []string{"min", "q1", "median", "q3", "max", "mean"} {
		tip = append(tip, map[string]any{"field": f, "title": f + " (" + unit.name + ")", "format": ",.3f"})
	}
	layers := []any{
		map[string]any{"mark": map[string]any{"type": "rule", "color": hexColor(colGrey)},
			"encoding": map[string]any{"y": y, "x": q("min"), "x2": map[string]any{"field": "max"}, "tooltip": tip}},
		map[string]any{"mark": map[string]any{"type": "bar", "size": 14, "color": hexColor(withAlphaRGBA(colKernel, 0.55)),
			"stroke": hexColor(colKernel)},
			"encoding": map[string]any{"y": y, "x": q("q1"), "x2": map[string]any{"field": "q3"}, "tooltip": tip}},
		map[string]any{"mark": map[string]any{"type": "tick", "color": hexColor(colInk), "thickness": 2, "size": 14},
			"encoding": map[string]any{"y": y, "x": q("median"), "tooltip": tip}},
	}
	if pres {
		layers = append(layers, map[string]any{"mark": map[string]any{"type": "point", "shape": "diamond", "filled": true,
			"color": hexColor(colSeries2)}, "encoding": map[string]any{"y": y, "x": q("mean"), "tooltip": tip}})
	}
	spec := vegaBase(c.Title, 700, 0)
	spec["height"] = map[string]any{"step": 22}
	spec["data"] = map[string]any{"values": rows}
	spec["layer"] = layers
	return withSubtitle(spec, c.Subtitle)
}

// diamondGlyph marks a mean.
type diamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.SetColor(sty.Color)
	c.Fill(p)
}
