package plots

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// paceMetrics are the pace tables charted, in nsys's notebook order, and
// "variance of delta" (delta minus the iteration's median delta).
var paceMetrics = []string{"start", "delta", "delta_accum", "duration_accum", "duration"}

// deltaVariance names the derived series.
const deltaVariance = "variance of delta"

// PaceData is what the K5 charts draw (nvtx_pace, nvtx_gpu_proj_pace,
// cuda_gpu_kern_pace).
type PaceData struct {
	Recipe string
	Name   string   // the range or kernel the iterations are instances of
	Ranks  []string // the pace tables' columns: "0".."R-1"
	// Series: per metric (paceMetrics and deltaVariance), per rank, per
	// iteration (row 0 is iteration 0): ns; NaN where a rank has fewer
	// iterations.
	Series map[string][][]float64
	Iters  int
	// Delta are the rows of pace_delta_stats from iteration 1 (Rank holds
	// the iteration).
	Delta []StatBox
}

// PaceFromOutput reads a pace recipe's tables.
func PaceFromOutput(name string, out *recipe.Output) (*PaceData, error) {
	d := &PaceData{Recipe: name, Series: map[string][][]float64{}}
	if st := out.Table("stats"); st != nil {
		if k := statsKey(st); k != nil && st.Rows() > 0 {
			d.Name = cellText(k, 0)
		}
	}
	for _, m := range paceMetrics {
		f := out.Table("pace_" + m)
		if f == nil {
			return nil, fmt.Errorf("recipe %s: no pace_%s table", name, m)
		}
		if d.Ranks == nil {
			d.Ranks, d.Iters = f.Names(), f.Rows()
		}
		for _, r := range d.Ranks {
			c := f.Find(r)
			vals := make([]float64, d.Iters)
			for i := range vals {
				vals[i] = cellFloat(c, i)
			}
			d.Series[m] = append(d.Series[m], vals)
		}
	}
	d.Series[deltaVariance] = varianceOfDelta(d.Series["delta"], d.Iters)
	if ds := out.Table("pace_delta_stats"); ds != nil {
		rows, err := readDeltaStats(ds)
		if err != nil {
			return nil, fmt.Errorf("recipe %s: pace_delta_stats: %w", name, err)
		}
		d.Delta = rows
	}
	return d, nil
}

// varianceOfDelta is delta minus each iteration's median over the ranks.
func varianceOfDelta(delta [][]float64, iters int) [][]float64 {
	out := make([][]float64, len(delta))
	for r := range delta {
		out[r] = make([]float64, iters)
	}
	for i := 0; i < iters; i++ {
		var vs []float64
		for r := range delta {
			if v := delta[r][i]; !math.IsNaN(v) {
				vs = append(vs, v)
			}
		}
		med := median(vs)
		for r := range delta {
			out[r][i] = delta[r][i] - med
		}
	}
	return out
}

// readDeltaStats reads pace_delta_stats (one row per iteration, no index)
// from iteration 1 on.
func readDeltaStats(f *recipe.Frame) ([]StatBox, error) {
	med := firstCol(f, "Median", "Median (approx)")
	if med == nil {
		return nil, fmt.Errorf("no Median column")
	}
	col := func(n string) *recipe.Column { return firstCol(f, n, n+" (approx)") }
	var out []StatBox
	for i := 1; i < f.Rows(); i++ {
		out = append(out, StatBox{Name: fmt.Sprint(i), Rank: int64(i), Count: int64(cellFloat(f.Find("Count"), i)),
			Mean: cellFloat(col("Mean"), i), Std: cellFloat(col("Std"), i), Min: cellFloat(col("Min"), i),
			Q1: cellFloat(col("Q1"), i), Median: cellFloat(med, i), Q3: cellFloat(col("Q3"), i),
			Max: cellFloat(col("Max"), i), Sum: cellFloat(col("Sum"), i)})
	}
	return out, nil
}

// paceCharts draws K5: the progress of each rank over the iterations
// (one panel per pace table and the variance of delta), and the box of
// each iteration's delta over the ranks.
func paceCharts(name string, out *recipe.Output) ([]*Chart, error) {
	d, err := PaceFromOutput(name, out)
	if err != nil {
		return nil, err
	}
	if d.Iters < 2 {
		return []*Chart{noData(name+"-progress", name+": progress per rank", name, "fewer than two iterations")}, nil
	}
	what := d.Name
	if what == "" {
		what = "the range"
	}
	c := newChart(name+"-progress", fmt.Sprintf("%s: progress - iterations defined by %s", name, truncate(what, 60)))
	c.Subtitle = fmt.Sprintf("%d ranks · iterations 1–%d (iteration 0 left out)", len(d.Ranks), d.Iters-1)
	c.Footnote = "One line per rank. variance of delta: delta minus the iteration's median delta over the ranks."
	for i, r := range d.Ranks {
		if i < 12 {
			c.legend = append(c.legend, legendItem{"rank " + r, seriesColor(i), true})
		}
	}
	metrics := append(append([]string{}, paceMetrics...), deltaVariance)
	var row []*plot.Plot
	for _, m := range metrics {
		p, err := pacePanel(d, m)
		if err != nil {
			return nil, err
		}
		if row = append(row, p); len(row) == 2 {
			c.grid, row = append(c.grid, row), nil
		}
	}
	c.Height = 1.8 + 2.5*float64(len(c.grid))
	c.textOf = func() string { return paceText(d) }
	c.vega = paceVega(c, d, metrics)
	c.data = d
	cs := []*Chart{c}
	if len(d.Delta) > 0 {
		cs = append(cs, paceDeltaChart(d))
	}
	return cs, nil
}

func pacePanel(d *PaceData, metric string) (*plot.Plot, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, vs := range d.Series[metric] {
		for _, v := range vs[1:] {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	unit := pickTimeUnit(math.Max(math.Abs(lo), math.Abs(hi)))
	p := newPlot()
	p.Add(yGrid())
	p.Title.Text = metric
	p.Title.TextStyle.Font.Size = 10
	for r, vs := range d.Series[metric] {
		var xys plotter.XYs
		for i := 1; i < len(vs); i++ {
			if !math.IsNaN(vs[i]) {
				xys = append(xys, plotter.XY{X: float64(i), Y: vs[i] / unit.ns})
			}
		}
		if len(xys) == 0 {
			continue
		}
		if err := addLineDots(p, xys, seriesColor(r), 1.3, 1.8, len(xys) <= 100); err != nil {
			return nil, err
		}
	}
	pad := math.Max((hi-lo)*0.06, math.Abs(hi)*0.002+1)
	p.Y.Min, p.Y.Max = (lo-pad)/unit.ns, (hi+pad)/unit.ns
	p.Y.Label.Text = "Time (" + unit.name + ")"
	p.Y.Tick.Marker = valueTicks{5}
	p.X.Min, p.X.Max = 0.7, float64(d.Iters-1)+0.3
	p.X.Label.Text = "Iteration"
	p.X.Tick.Marker = intTicks{}
	return p, nil
}

// paceDeltaChart is the box of pace_delta_stats per iteration.
func paceDeltaChart(d *PaceData) *Chart {
	c := newChart(d.Recipe+"-delta", fmt.Sprintf("%s: delta per iteration over the ranks", d.Recipe))
	c.Subtitle = fmt.Sprintf("pace_delta_stats, iterations 1–%d", len(d.Delta))
	c.Footnote = "delta: the time from the end of the previous iteration to the start of this one. Box: Q1–Q3 with the median; whiskers: Min–Max; diamond: the mean."
	c.legend = []legendItem{{"Q1–Q3", withAlphaRGBA(colKernel, 0.55), false}, {"median", colInk, true}, {"Min–Max", colGrey, true}, {"mean", colSeries2, false}}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range d.Delta {
		lo, hi = math.Min(lo, b.Min), math.Max(hi, b.Max)
	}
	unit := pickTimeUnit(math.Max(math.Abs(lo), math.Abs(hi)))
	p := newPlot()
	p.Add(yGrid())
	p.Add(&statBoxes{boxes: d.Delta, scale: unit.ns, mean: true, vertical: true})
	pad := math.Max((hi-lo)*0.08, math.Abs(hi)*0.002+1)
	p.Y.Min, p.Y.Max = (lo-pad)/unit.ns, (hi+pad)/unit.ns
	p.Y.Label.Text = "Time (" + unit.name + ")"
	p.Y.Tick.Marker = valueTicks{6}
	p.X.Min, p.X.Max = 0.4, float64(len(d.Delta))+0.6
	p.X.Label.Text = "Iteration"
	p.X.Tick.Marker = intTicks{}
	c.grid = [][]*plot.Plot{{p}}
	c.Height = 5
	var b strings.Builder
	for _, x := range d.Delta {
		fmt.Fprintf(&b, "iteration %d: min %s q1 %s median %s q3 %s max %s mean %s\n", x.Rank, fmtDur(x.Min), fmtDur(x.Q1),
			fmtDur(x.Median), fmtDur(x.Q3), fmtDur(x.Max), fmtDur(x.Mean))
	}
	c.text = b.String()
	c.vega = paceDeltaVega(c, d, unit)
	c.data = d
	return c
}

func paceText(d *PaceData) string {
	var b strings.Builder
	for _, m := range append(append([]string{}, paceMetrics...), deltaVariance) {
		b.WriteString(m + "\n")
		for r, vs := range d.Series[m] {
			fmt.Fprintf(&b, "  rank %s:", d.Ranks[r])
			for _, v := range vs[1:] {
				if math.IsNaN(v) {
					b.WriteString(" -")
				} else {
					b.WriteString(" " + fmtDur(v))
				}
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// paceVegaRow is a data row of the progress chart's Vega-Lite spec: a
// struct, as the chart has one per rank, metric and iteration and
// encoding/json writes structs several times faster than maps (the fields
// in the order a map's sorted keys had).
type paceVegaRow struct {
	Iteration int    `json:"iteration"`
	Metric    string `json:"metric"`
	Ms        any    `json:"ms"`
	Rank      string `json:"rank"`
}

// paceRows are the progress chart's data rows (paceVegaRow), one per
// rank, metric and iteration, made when the spec is encoded rather than
// held with the chart: over eight ranks of 30 000 kernels they are over a
// million rows, and the chart's files are written from chunks of them
// (writeVegaLite).
type paceRows struct {
	d       *PaceData
	metrics []string
}

// chunks yields the rows in order, up to n at a time (the slice is reused).
func (p paceRows) chunks(n int, yield func(any) error) error {
	buf := make([]paceVegaRow, 0, n)
	for _, m := range p.metrics {
		for r, vs := range p.d.Series[m] {
			for i := 1; i < len(vs); i++ {
				buf = append(buf, paceVegaRow{Iteration: i, Metric: m, Ms: nullable(vs[i] / 1e6), Rank: p.d.Ranks[r]})
				if len(buf) == n {
					if err := yield(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
			}
		}
	}
	if len(buf) > 0 {
		return yield(buf)
	}
	return nil
}

// MarshalJSON is the rows as one JSON array.
func (p paceRows) MarshalJSON() ([]byte, error) {
	rows := []paceVegaRow{}
	p.chunks(vegaChunk, func(c any) error { rows = append(rows, c.([]paceVegaRow)...); return nil })
	return json.Marshal(rows)
}

// paceVega picks the metric with a drop-down; one line per rank.
func paceVega(c *Chart, d *PaceData, metrics []string) map[string]any {
	rows := paceRows{d, metrics}
	var opts []any
	for _, m := range metrics {
		opts = append(opts, m)
	}
	spec := vegaBase(c.Title, 680, 320)
	spec["data"] = map[string]any{"values": rows}
	spec["params"] = []any{map[string]any{"name": "metric", "value": "delta",
		"bind": map[string]any{"input": "select", "options": opts, "name": "pace "}}}
	spec["transform"] = []any{map[string]any{"filter": "datum.metric === metric"}}
	spec["mark"] = map[string]any{"type": "line", "point": true, "tooltip": true}
	spec["encoding"] = map[string]any{
		"x":     map[string]any{"field": "iteration", "type": "quantitative", "title": "Iteration", "axis": map[string]any{"tickMinStep": 1, "format": "d"}},
		"y":     map[string]any{"field": "ms", "type": "quantitative", "title": "Time (ms)", "scale": map[string]any{"zero": false}},
		"color": map[string]any{"field": "rank", "type": "nominal", "title": "Rank"},
	}
	return withSubtitle(spec, c.Subtitle)
}

func paceDeltaVega(c *Chart, d *PaceData, unit timeUnit) map[string]any {
	var rows []map[string]any
	for _, b := range d.Delta {
		rows = append(rows, map[string]any{"iteration": b.Rank, "min": nullable(b.Min / unit.ns), "q1": nullable(b.Q1 / unit.ns),
			"median": nullable(b.Median / unit.ns), "q3": nullable(b.Q3 / unit.ns), "max": nullable(b.Max / unit.ns), "mean": nullable(b.Mean / unit.ns)})
	}
	title := "Time (" + unit.name + ")"
	x := map[string]any{"field": "iteration", "type": "ordinal", "title": "Iteration"}
	q := func(f string) map[string]any {
		return map[string]any{"field": f, "type": "quantitative", "title": title, "scale": map[string]any{"zero": false}}
	}
	spec := vegaBase(c.Title, 680, 320)
	spec["data"] = map[string]any{"values": rows}
	spec["layer"] = []any{
		map[string]any{"mark": map[string]any{"type": "rule", "color": hexColor(colGrey)}, "encoding": map[string]any{"x": x, "y": q("min"), "y2": map[string]any{"field": "max"}}},
		map[string]any{"mark": map[string]any{"type": "bar", "size": 12, "color": hexColor(withAlphaRGBA(colKernel, 0.55)), "stroke": hexColor(colKernel)},
			"encoding": map[string]any{"x": x, "y": q("q1"), "y2": map[string]any{"field": "q3"}, "tooltip": []any{
				map[string]any{"field": "iteration"}, map[string]any{"field": "median", "title": "median (" + unit.name + ")", "format": ",.3f"},
				map[string]any{"field": "mean", "title": "mean (" + unit.name + ")", "format": ",.3f"}}}},
		map[string]any{"mark": map[string]any{"type": "tick", "color": hexColor(colInk), "thickness": 2, "size": 12}, "encoding": map[string]any{"x": x, "y": q("median")}},
		map[string]any{"mark": map[string]any{"type": "point", "shape": "diamond", "filled": true, "color": hexColor(colSeries2)}, "encoding": map[string]any{"x": x, "y": q("mean")}},
	}
	return withSubtitle(spec, c.Subtitle)
}
