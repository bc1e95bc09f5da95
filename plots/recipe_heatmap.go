package plots

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// HeatRow is one row of a recipe heatmap: a GPU (or process) of a rank.
type HeatRow struct {
	Label  string      // "<Rank>/<Device ID>/<PID>", or "<Rank>/<PID>"
	Starts []int64     // bin starts (the Duration column), ns
	Values [][]float64 // per value column, per bin: %; NaN is NULL
}

// HeatmapData is what the K4 charts draw (cuda_gpu_time_util_map,
// nccl_gpu_time_util_map, mpi_gpu_time_util_map).
type HeatmapData struct {
	Recipe  string
	Columns []string  // the value columns: Kernel; All, NCCL, Compute, Overlap ...
	Rows    []HeatRow // in natural order of the labels
	// LabelName says what the labels are: "Rank/Device/PID", "Rank/PID",
	// "GPU" (gpu_metric_util_map).
	LabelName string
	BinSize   int64 // ns
	// Summary: per value column, the mean over the rows of each bin
	// (NULLs skipped), at the bin starts SummaryAt.
	Summary   [][]float64
	SummaryAt []int64
}

// heatKeyCols are analysis columns that are not values.
var heatKeyCols = map[string]bool{"Duration": true, "PID": true, "Device ID": true, "GPU": true, "Rank": true, recipe.LevelIndexName: true}

// heatLabelCols are the columns that make a heatmap row's label, in
// nsys's order: Rank, Device ID (or GPU), PID.
func heatLabelCols(f *recipe.Frame) []*recipe.Column {
	var out []*recipe.Column
	for _, n := range []string{"Rank", "Device ID", "GPU", "PID"} {
		if c := f.Find(n); c != nil {
			out = append(out, c)
		}
	}
	return out
}

func heatLabelName(keys []*recipe.Column) string {
	names := make([]string, len(keys))
	for i, c := range keys {
		names[i] = strings.TrimSuffix(c.Name, " ID")
	}
	return strings.Join(names, "/")
}

// heatValueCols are the float columns of a heatmap table.
func heatValueCols(f *recipe.Frame) []string {
	var out []string
	for _, c := range f.Cols {
		if !heatKeyCols[c.Name] && c.Type == recipe.Float64 {
			out = append(out, c.Name)
		}
	}
	return out
}

// HeatmapFromOutput reads a heatmap recipe's analysis table.
func HeatmapFromOutput(name string, out *recipe.Output) (*HeatmapData, error) {
	f := out.Table("analysis")
	if f == nil {
		return nil, fmt.Errorf("recipe %s: no analysis table", name)
	}
	dur := f.Find("Duration")
	keys := heatLabelCols(f)
	if dur == nil || len(keys) == 0 {
		return nil, fmt.Errorf("recipe %s: analysis lacks Duration, or Rank, GPU and PID", name)
	}
	d := &HeatmapData{Recipe: name, Columns: heatValueCols(f), LabelName: heatLabelName(keys)}
	vals := make([]*recipe.Column, len(d.Columns))
	for j, n := range d.Columns {
		vals[j] = f.Find(n)
	}
	byLabel := map[string]*HeatRow{}
	var labels []string
	for i := 0; i < f.Rows(); i++ {
		parts := make([]string, len(keys))
		for k, c := range keys {
			parts[k] = cellText(c, i)
		}
		lbl := strings.Join(parts, "/")
		r := byLabel[lbl]
		if r == nil {
			r = &HeatRow{Label: lbl, Values: make([][]float64, len(vals))}
			byLabel[lbl] = r
			labels = append(labels, lbl)
		}
		r.Starts = append(r.Starts, int64(cellFloat(dur, i)))
		for j, c := range vals {
			r.Values[j] = append(r.Values[j], cellFloat(c, i))
		}
	}
	sortNatural(labels)
	for _, l := range labels {
		d.Rows = append(d.Rows, *byLabel[l])
		if s := byLabel[l].Starts; len(s) > 1 && d.BinSize == 0 {
			d.BinSize = s[1] - s[0]
		}
	}
	if d.BinSize <= 0 {
		d.BinSize = 1
	}
	d.summarise()
	return d, nil
}

// summarise is nsys's summary line: per bin start, the mean over rows.
func (d *HeatmapData) summarise() {
	type acc struct{ sum, n []float64 }
	at := map[int64]*acc{}
	for _, r := range d.Rows {
		for k, s := range r.Starts {
			a := at[s]
			if a == nil {
				a = &acc{make([]float64, len(d.Columns)), make([]float64, len(d.Columns))}
				at[s] = a
			}
			for j := range d.Columns {
				if v := r.Values[j][k]; !math.IsNaN(v) {
					a.sum[j] += v
					a.n[j]++
				}
			}
		}
	}
	d.SummaryAt = slices.Sorted(maps.Keys(at))
	d.Summary = make([][]float64, len(d.Columns))
	for j := range d.Columns {
		for _, s := range d.SummaryAt {
			a, v := at[s], math.NaN()
			if a.n[j] > 0 {
				v = a.sum[j] / a.n[j]
			}
			d.Summary[j] = append(d.Summary[j], v)
		}
	}
}

// heatmapCharts draws K4: the summary line chart and one heatmap per
// value column, stacked in one chart.
func heatmapCharts(name string, out *recipe.Output) ([]*Chart, error) {
	d, err := HeatmapFromOutput(name, out)
	if err != nil {
		return nil, err
	}
	bins := len(d.SummaryAt)
	c := newChart(name+"-heatmap", fmt.Sprintf("%s: utilization (bins=%d)", name, bins))
	if len(d.Rows) == 0 || len(d.Columns) == 0 {
		return []*Chart{noData(c.Name, c.Title, name, "analysis has no rows")}, nil
	}
	c.Subtitle = fmt.Sprintf("%s (%s) · %d bins of %s · %s", plural(len(d.Rows), "row"), d.LabelName, bins, fmtDur(float64(d.BinSize)), strings.Join(d.Columns, ", "))
	c.Footnote = "Top: Utilization Summary, the mean over the rows of each bin. Below, one heatmap per column: % of each bin (0–100). Grey: outside the session."
	for j, col := range d.Columns {
		c.legend = append(c.legend, legendItem{col, seriesColor(j), true})
	}
	c.legend = append(c.legend, heatLegend()[:5]...)
	c.legend = append(c.legend, legendItem{"outside session", colOutside, false})
	grid := [][]*plot.Plot{{heatSummaryPanel(d)}}
	for j := range d.Columns {
		grid = append(grid, []*plot.Plot{heatPanel(d, j)})
	}
	c.grid = grid
	c.Height = math.Min(2.6+float64(len(d.Columns)+1)*(0.9+0.28*float64(len(d.Rows))), 30)
	c.textOf = func() string { return heatText(d) }
	c.vega = heatVega(c, d)
	c.data = d
	return []*Chart{c}, nil
}

// secondUnit: the x axes are in seconds, as nsys's "Duration (s)".
var secondUnit = timeUnit{"s", 1e9}

func heatXAxis(p *plot.Plot, d *HeatmapData) {
	lo, hi := float64(d.SummaryAt[0]), float64(d.SummaryAt[len(d.SummaryAt)-1]+d.BinSize)
	p.X.Min, p.X.Max = lo, hi
	p.X.Tick.Marker = timeTicks{secondUnit}
	p.X.Label.Text = "Duration (s)"
}

func heatSummaryPanel(d *HeatmapData) *plot.Plot {
	p := newPlot()
	p.Add(yGrid())
	p.Title.Text = fmt.Sprintf("Utilization Summary (bins=%d)", len(d.SummaryAt))
	for j := range d.Columns {
		for _, xys := range summaryRuns(d, j) {
			_ = addLineDots(p, xys, seriesColor(j), 1.5, 1.6, len(d.SummaryAt) <= 120) // a run too short for a line is left out
		}
	}
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Label.Text = "Value (%)"
	p.Y.Tick.Marker = valueTicks{5}
	heatXAxis(p, d)
	return p
}

// summaryRuns are the runs of bins of column j that have a summary value
// (bins where every row is NULL break the line), at the bins' centres.
func summaryRuns(d *HeatmapData, j int) []plotter.XYs {
	var runs []plotter.XYs
	var cur plotter.XYs
	for k, s := range d.SummaryAt {
		v := d.Summary[j][k]
		if math.IsNaN(v) || k > 0 && s-d.SummaryAt[k-1] > d.BinSize {
			if len(cur) > 0 {
				runs, cur = append(runs, cur), nil
			}
			if math.IsNaN(v) {
				continue
			}
		}
		cur = append(cur, plotter.XY{X: float64(s) + float64(d.BinSize)/2, Y: v})
	}
	if len(cur) > 0 {
		runs = append(runs, cur)
	}
	return runs
}

// heatPanel is the heatmap of value column j: rows top to bottom in
// natural label order, 0–100 % on the viridis scale.
func heatPanel(d *HeatmapData, j int) *plot.Plot {
	p := newPlot()
	p.Title.Text = d.Columns[j]
	n := len(d.Rows)
	r := &rects{seam: true}
	names := make([]string, n)
	for i, row := range d.Rows {
		names[i] = row.Label
		at := func(k int) float64 { return float64(row.Starts[k]) }
		heatLane(r, laneY(i, n), 0.45, row.Values[j], at, float64(d.BinSize), false)
	}
	p.Add(r)
	laneAxis(p, names)
	heatXAxis(p, d)
	return p
}

func heatText(d *HeatmapData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "bin size %d ns; %% of each bin (- NULL)\n", d.BinSize)
	for j, col := range d.Columns {
		fmt.Fprintf(&b, "%s\n  %-16s", col, "summary")
		for _, v := range d.Summary[j] {
			b.WriteString(" " + heatCell(v))
		}
		b.WriteString("\n")
		for _, r := range d.Rows {
			fmt.Fprintf(&b, "  %-16s", r.Label)
			for _, v := range r.Values[j] {
				b.WriteString(" " + heatCell(v))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// heatVega is the summary lines above one heatmap per column (vconcat).
func heatVega(c *Chart, d *HeatmapData) map[string]any {
	var sum, cells []map[string]any
	for j, col := range d.Columns {
		for k, s := range d.SummaryAt {
			sum = append(sum, map[string]any{"column": col, "t": round6(float64(s) / 1e9), "value": nullable(d.Summary[j][k])})
		}
		for _, r := range d.Rows {
			for k, s := range r.Starts {
				cells = append(cells, map[string]any{"column": col, "label": r.Label, "t0": round6(float64(s) / 1e9),
					"t1": round6(float64(s+d.BinSize) / 1e9), "value": nullable(r.Values[j][k])})
			}
		}
	}
	var order, cols, rng []any
	for _, r := range d.Rows {
		order = append(order, r.Label)
	}
	for j, col := range d.Columns {
		cols = append(cols, col)
		rng = append(rng, hexColor(seriesColor(j)))
	}
	x := map[string]any{"field": "t", "type": "quantitative", "title": "Duration (s)"}
	summary := map[string]any{"title": fmt.Sprintf("Utilization Summary (bins=%d)", len(d.SummaryAt)), "width": 700, "height": 180,
		"data": map[string]any{"values": sum}, "mark": map[string]any{"type": "line", "point": true, "tooltip": true},
		"encoding": map[string]any{"x": x, "y": map[string]any{"field": "value", "type": "quantitative", "title": "Value (%)",
			"scale": map[string]any{"domain": []any{0, 100}}},
			"color": map[string]any{"field": "column", "type": "nominal", "title": nil, "sort": cols, "scale": map[string]any{"domain": cols, "range": rng}}}}
	heat := map[string]any{"data": map[string]any{"values": cells},
		"facet": map[string]any{"row": map[string]any{"field": "column", "type": "nominal", "sort": cols, "title": nil}},
		"spec": map[string]any{"width": 700, "height": map[string]any{"step": 22},
			"mark": map[string]any{"type": "rect", "tooltip": true},
			"encoding": map[string]any{
				"x":  map[string]any{"field": "t0", "type": "quantitative", "title": "Duration (s)"},
				"x2": map[string]any{"field": "t1"},
				"y":  map[string]any{"field": "label", "type": "nominal", "sort": order, "title": d.LabelName},
				"color": map[string]any{"field": "value", "type": "quantitative", "title": "%",
					"scale": map[string]any{"scheme": "viridis", "domain": []any{0, 100}}}}}}
	spec := vegaBase(c.Title, 0, 0)
	delete(spec, "width")
	spec["vconcat"] = []any{summary, heat}
	spec["resolve"] = map[string]any{"scale": map[string]any{"color": "independent"}}
	return withSubtitle(spec, c.Subtitle)
}
