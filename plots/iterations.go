package plots

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// DefaultIterationMatch matches the NVTX range names of training loops:
// "iteration 12", "iter_3", "step 7", "batch #2", or just "step".
const DefaultIterationMatch = `(?i)^(iteration|iter|step|batch|train_step|training_step)([ _#:=-]*\d+)?$`

// Instance is one NVTX range instance.
type Instance struct {
	Name     string
	X        float64 // x position: the number in the name, or the instance number
	Start    int64   // ns
	Duration int64   // ns
	Outlier  bool
}

// IterationsData is what the iterations chart draws.
type IterationsData struct {
	Match     string // what was matched (the regexp, or the range name)
	Numbered  bool   // X is the number in each name
	Items     []Instance
	Median    float64 // ns
	Q1, Q3    float64 // ns
	Low, High float64 // outlier fences: Q1 - 1.5 IQR, Q3 + 1.5 IQR
	Hist      []HistBin
}

// Iterations draws the duration of each instance of an NVTX range, in start
// order, as a line with the median and the outliers (outside Tukey's fences,
// 1.5 interquartile ranges beyond the quartiles) marked, next to their
// histogram. The instances are the ranges named Options.Range, or whose
// names match Options.Match (default DefaultIterationMatch). Durations are
// the ranges' own (CPU-side) times from NVTX_EVENTS.
func Iterations(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) {
	if o == nil {
		o = &Options{}
	}
	title := "Iteration durations"
	d, note, err := iterationsData(ctx, p, o)
	if err != nil {
		return nil, err
	}
	if note != "" {
		return noData("iterations", title, p.Base(), note), nil
	}
	if o.Range != "" {
		title = fmt.Sprintf("Duration of each %q range", rangeLabel(o.Range))
	}
	c := newChart("iterations", title)
	nOut := 0
	for _, it := range d.Items {
		if it.Outlier {
			nOut++
		}
	}
	c.Subtitle = fmt.Sprintf("%s · %d instances of %s · median %s, %s", p.Base(), len(d.Items), d.Match, fmtDur(d.Median), plural(nOut, "outlier"))
	c.Footnote = "Duration: the NVTX range's own start to end (CPU side). Outliers: beyond 1.5 interquartile ranges from the quartiles (dashed lines)."
	c.legend = []legendItem{{"duration", colKernel, true}, {"median", colMedian, true}, {"outlier", colOutlier, false}}
	line, hist, err := iterationPanels(d)
	if err != nil {
		return nil, err
	}
	c.grid = [][]*plot.Plot{{line, hist}}
	c.colWeights = []float64{0.72, 0.28}
	return c.done(5.2, iterationsText(d), iterationsVega(c, d), d)
}

// nvtxRanges reads, in one pass that keeps nothing else (Profile.Scan),
// the push/pop and start/end ranges that have an end and whose name passes
// keep, and counts the instances of every name.
func nvtxRanges(ctx context.Context, p *nsysx.Profile, keep func(string) bool) ([]Instance, map[string]int, error) {
	count := map[string]int{}
	if !p.HasTable(events.TableNVTXEvents) {
		return nil, count, nil
	}
	if err := p.StringsErr(ctx); err != nil {
		return nil, nil, err
	}
	cols := []string{"start", "end", "eventType", "text", "textId"}
	kept := map[string]bool{}
	var out []Instance
	err := p.Scan(ctx, events.TableNVTXEvents, nil, cols, func(r nsysx.ScanRow) error {
		switch r.Int(2) {
		case 59, 60, 70, 71:
		default:
			return nil
		}
		if r.IsNull(0) || r.IsNull(1) {
			return nil
		}
		var name string
		if !r.IsNull(3) {
			name = string(r.Bytes(3))
		} else if !r.IsNull(4) {
			name, _ = p.String(ctx, r.Int(4))
		}
		count[name]++
		k, ok := kept[name]
		if !ok {
			k = keep(name)
			kept[name] = k
		}
		if k {
			out = append(out, Instance{Name: name, Start: r.Int(0), Duration: r.Int(1) - r.Int(0)})
		}
		return nil
	})
	return out, count, err
}

func iterationsData(ctx context.Context, p *nsysx.Profile, o *Options) (*IterationsData, string, error) {
	d := &IterationsData{}
	keep, err := iterationMatch(d, o)
	if err != nil {
		return nil, "", err
	}
	items, count, err := nvtxRanges(ctx, p, keep)
	if err != nil {
		return nil, "", err
	}
	if len(count) == 0 {
		return nil, "no NVTX ranges in " + p.Path, nil
	}
	d.Items = items
	if len(d.Items) == 0 {
		what := fmt.Sprintf("no NVTX range named %q", o.Range)
		switch {
		case o.Range != "":
		case o.Match != "":
			what = "no NVTX range name matches " + o.Match
		default:
			what = "no NVTX range is named like an iteration (iteration N, iter N, step N, batch N)"
		}
		return nil, fmt.Sprintf("%s in %s; give --range NAME or --match REGEX (most frequent ranges: %s)",
			what, p.Path, frequentNames(count, 5)), nil
	}
	iterationStats(d, o)
	return d, "", nil
}

// iterationMatch is the test of the ranges to show, --range or --match
// (default DefaultIterationMatch); it sets d.Match to their description.
func iterationMatch(d *IterationsData, o *Options) (func(string) bool, error) {
	d.Match = fmt.Sprintf("%q", o.Range)
	if o.Range != "" {
		return func(name string) bool { return name == o.Range }, nil
	}
	pat := o.Match
	if pat == "" {
		pat = DefaultIterationMatch
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil, usagef("--match: %v", err)
	}
	d.Match = "ranges matching " + pat
	if o.Match == "" {
		d.Match = "iteration ranges"
	}
	return re.MatchString, nil
}

// iterationStats orders the instances by start and sets their numbers,
// quartiles, outliers and histogram.
func iterationStats(d *IterationsData, o *Options) {
	sort.SliceStable(d.Items, func(i, j int) bool { return d.Items[i].Start < d.Items[j].Start })
	d.Numbered = numberItems(d.Items)
	durs := make([]float64, len(d.Items))
	for i, it := range d.Items {
		durs[i] = float64(it.Duration)
	}
	slices.Sort(durs)
	d.Median, d.Q1, d.Q3 = quantile(durs, 0.5), quantile(durs, 0.25), quantile(durs, 0.75)
	iqr := d.Q3 - d.Q1
	d.Low, d.High = d.Q1-1.5*iqr, d.Q3+1.5*iqr
	for i := range d.Items {
		v := float64(d.Items[i].Duration)
		d.Items[i].Outlier = len(d.Items) >= 4 && (v < d.Low || v > d.High)
	}
	bins := o.bins(int(math.Min(40, math.Max(5, math.Ceil(math.Sqrt(float64(len(durs))))*2))))
	lo, hi := durs[0], durs[len(durs)-1]
	w := (hi - lo) / float64(bins)
	if w <= 0 {
		lo, w, bins = lo-0.5, 1, 1
	}
	d.Hist = histogram(durs, lo, w, bins)
}

// numberItems sets X to the number ending each name when those numbers are
// distinct, else to the instance number; it reports which.
func numberItems(items []Instance) bool {
	re := regexp.MustCompile(`(\d+)\D*$`)
	seen := map[int64]bool{}
	nums := make([]int64, len(items))
	ok := true
	for i, it := range items {
		m := re.FindStringSubmatch(it.Name)
		if m == nil {
			ok = false
			break
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil || seen[n] {
			ok = false
			break
		}
		seen[n], nums[i] = true, n
	}
	for i := range items {
		items[i].X = float64(i + 1)
		if ok {
			items[i].X = float64(nums[i])
		}
	}
	return ok
}

// frequentNames lists the n names with the most instances.
func frequentNames(count map[string]int, n int) string {
	names := make([]string, 0, len(count))
	for k := range count {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if count[names[i]] != count[names[j]] {
			return count[names[i]] > count[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for _, k := range names[:min(n, len(names))] {
		parts = append(parts, fmt.Sprintf("%q (%d)", truncate(k, 40), count[k]))
	}
	return strings.Join(parts, ", ")
}

func iterationPanels(d *IterationsData) (*plot.Plot, *plot.Plot, error) {
	minD, maxD := math.Inf(1), 0.0
	for _, it := range d.Items {
		minD, maxD = math.Min(minD, float64(it.Duration)), math.Max(maxD, float64(it.Duration))
	}
	unit := pickTimeUnit(maxD)
	line, err := iterationLine(d, unit)
	if err != nil {
		return nil, nil, err
	}
	// The y range fits the data (not from 0): the variation is the point.
	pad := math.Max((maxD-minD)*0.12, maxD*0.005)
	line.Y.Min, line.Y.Max = math.Max(0, minD-pad)/unit.ns, (maxD+pad)/unit.ns
	line.Y.Label.Text = "duration (" + unit.name + ")"
	line.Y.Tick.Marker = valueTicks{6}
	line.X.Label.Text = "instance (in start order)"
	if d.Numbered {
		line.X.Label.Text = "number in the range name"
	}
	line.X.Tick.Marker = intTicks{}
	hist := newPlot()
	hist.Add(&histBars{bins: d.Hist, scale: unit.ns, horizontal: true, fill: colKernel})
	hline2, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: d.Median / unit.ns}, {X: float64(maxCount(d.Hist)), Y: d.Median / unit.ns}})
	hline2.Color, hline2.Width = colMedian, 1.2
	hist.Add(hline2)
	hist.Y.Min, hist.Y.Max = line.Y.Min, line.Y.Max
	hist.X.Min = 0
	hist.X.Label.Text = "instances"
	hist.X.Tick.Marker = intTicks{}
	hist.Y.Label.Text = "duration (" + unit.name + ")"
	hist.Y.Tick.Marker = valueTicks{6}
	return line, hist, nil
}

// iterationLine is the left panel: the durations in order, the median, the
// outlier bounds (dashed) and the outliers.
func iterationLine(d *IterationsData, unit timeUnit) (*plot.Plot, error) {
	line := newPlot()
	line.Add(yGrid())
	xys := make(plotter.XYs, len(d.Items))
	var outl plotter.XYs
	var outLabels []string
	for i, it := range d.Items {
		xys[i] = plotter.XY{X: it.X, Y: float64(it.Duration) / unit.ns}
		if it.Outlier {
			outl = append(outl, xys[i])
			outLabels = append(outLabels, fmtDur(float64(it.Duration)))
		}
	}
	dots := len(d.Items) <= 120 // dots only where they stay apart
	width := vg.Length(1.5)
	if !dots {
		width = 0.8
	}
	if err := addLineDots(line, xys, colKernel, width, 2.2, dots); err != nil {
		return nil, err
	}
	lo, hi := xys[0].X, xys[len(xys)-1].X
	hline := func(y float64, c color.Color, dash bool) {
		h, _ := plotter.NewLine(plotter.XYs{{X: lo, Y: y / unit.ns}, {X: hi, Y: y / unit.ns}})
		h.Color, h.Width = c, 1.2
		if dash {
			h.Dashes = []vg.Length{4, 3}
			h.Color, h.Width = colGrey, 0.7
		}
		line.Add(h)
	}
	hline(d.Median, colMedian, false)
	if len(d.Items) >= 4 {
		hline(math.Max(d.Low, 0), colGrey, true)
		hline(d.High, colGrey, true)
	}
	addOutliers(line, outl, outLabels, len(d.Items))
	return line, nil
}

// addOutliers marks the outliers, labelled while there are few.
func addOutliers(line *plot.Plot, outl plotter.XYs, labels []string, n int) {
	if len(outl) == 0 {
		return
	}
	radius := vg.Length(3.5)
	if n > 120 {
		radius = 2
	}
	line.Add(newDots(outl, colOutlier, radius))
	if len(outl) <= 10 { // labels only while they cannot pile up
		lab, _ := plotter.NewLabels(plotter.XYLabels{XYs: outl, Labels: labels})
		for i := range lab.TextStyle {
			lab.TextStyle[i] = textStyle(sansFont, 8, colOutlier)
		}
		lab.Offset = vg.Point{X: 5, Y: 2}
		line.Add(lab)
	}
}

// plural formats "1 outlier", "2 outliers".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func maxCount(h []HistBin) int {
	m := 0
	for _, b := range h {
		m = max(m, b.Count)
	}
	return m
}

// intTicks labels whole numbers only.
type intTicks struct{}

// Ticks implements plot.Ticker.
func (intTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range niceTicks(min, max, 10, 1) {
		if t.Value != math.Trunc(t.Value) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// yGrid draws horizontal grid lines only.
func yGrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal.Color = colGrid
	return g
}

func iterationsText(d *IterationsData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "median %s, quartiles %s and %s\n", fmtDur(d.Median), fmtDur(d.Q1), fmtDur(d.Q3))
	for _, it := range d.Items {
		mark := ""
		if it.Outlier {
			mark = "  outlier"
		}
		fmt.Fprintf(&b, "%-24s start %14d ns  %12s%s\n", rangeLabel(it.Name), it.Start, fmtDur(float64(it.Duration)), mark)
	}
	return b.String()
}

func iterationsVega(c *Chart, d *IterationsData) map[string]any {
	var maxD float64
	for _, it := range d.Items {
		maxD = math.Max(maxD, float64(it.Duration))
	}
	unit := pickTimeUnit(maxD)
	var rows []map[string]any
	for _, it := range d.Items {
		rows = append(rows, map[string]any{"name": it.Name, "x": it.X, "dur": round6(float64(it.Duration) / unit.ns),
			"start_s": round6(float64(it.Start) / 1e9), "outlier": it.Outlier})
	}
	y := "duration (" + unit.name + ")"
	xTitle := "instance (in start order)"
	if d.Numbered {
		xTitle = "number in the range name"
	}
	yEnc := map[string]any{"field": "dur", "type": "quantitative", "title": y}
	lineLayer := map[string]any{
		"mark": map[string]any{"type": "line", "point": true, "color": hexColor(colKernel)},
		"encoding": map[string]any{"x": map[string]any{"field": "x", "type": "quantitative", "title": xTitle}, "y": yEnc,
			"tooltip": []any{map[string]any{"field": "name"}, map[string]any{"field": "dur", "title": y, "format": ",.3f"},
				map[string]any{"field": "start_s", "title": "start (s)"}}},
	}
	outLayer := map[string]any{
		"transform": []any{map[string]any{"filter": "datum.outlier"}},
		"mark":      map[string]any{"type": "point", "filled": true, "size": 90, "color": hexColor(colOutlier)},
		"encoding":  map[string]any{"x": map[string]any{"field": "x", "type": "quantitative"}, "y": yEnc},
	}
	median := map[string]any{
		"data":     map[string]any{"values": []any{map[string]any{"median": round6(d.Median / unit.ns)}}},
		"mark":     map[string]any{"type": "rule", "color": hexColor(colMedian), "strokeWidth": 1.5},
		"encoding": map[string]any{"y": map[string]any{"field": "median", "type": "quantitative"}},
	}
	layers := []any{lineLayer, median}
	for _, it := range d.Items {
		if it.Outlier { // a layer without data would warn
			layers = append(layers, outLayer)
			break
		}
	}
	left := map[string]any{"width": 560, "height": 300, "layer": layers}
	right := map[string]any{"width": 200, "height": 300,
		"mark": map[string]any{"type": "bar", "color": hexColor(colKernel)},
		"encoding": map[string]any{
			"y": map[string]any{"field": "dur", "type": "quantitative", "bin": map[string]any{"maxbins": len(d.Hist)}, "title": y},
			"x": map[string]any{"aggregate": "count", "type": "quantitative", "title": "instances"},
		}}
	spec := vegaBase(c.Title, 0, 0)
	delete(spec, "width")
	spec["data"] = map[string]any{"values": rows}
	spec["hconcat"] = []any{left, right}
	return withSubtitle(spec, c.Subtitle)
}
