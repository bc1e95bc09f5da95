package plots

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// readByDevice fills ByDevice from rank_stats_by_device (nil: none).
func (d *StatsData) readByDevice(f *recipe.Frame) error {
	if f == nil {
		return nil
	}
	rows, _, err := readStatBoxes(f, true, nil)
	if err != nil {
		return err
	}
	d.ByDevice = map[string][]StatBox{}
	for _, r := range rows {
		d.ByDevice[r.Name] = append(d.ByDevice[r.Name], r)
	}
	for _, rows := range d.ByDevice {
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].Device != rows[j].Device {
				return naturalLess(rows[i].Device, rows[j].Device)
			}
			return rows[i].Rank < rows[j].Rank
		})
	}
	return nil
}

// rankStats are the per-rank series: K1 all five, K2 the middle three.
func rankStats(pres bool) []string {
	if pres {
		return []string{"Q1", "Median", "Q3"}
	}
	return []string{"Min", "Q1", "Median", "Q3", "Max"}
}

func statValue(b StatBox, name string) float64 {
	switch name {
	case "Min":
		return b.Min
	case "Q1":
		return b.Q1
	case "Median":
		return b.Median
	case "Q3":
		return b.Q3
	case "Max":
		return b.Max
	}
	return b.Mean
}

// statsRankChart is K1(c)/K2(c): per name, its statistics on each rank.
func statsRankChart(d *StatsData, pres bool) (*Chart, error) {
	stats := rankStats(pres)
	var names []string
	for _, b := range d.Boxes {
		if len(d.Ranks[b.Name]) > 0 && len(names) < maxRankPanels {
			names = append(names, b.Name)
		}
	}
	c := newChart(d.Recipe+"-ranks", fmt.Sprintf("%s: statistics per rank", d.Recipe))
	c.Subtitle = fmt.Sprintf("rank_stats of the %d %ss with the largest totals", len(names), strings.ToLower(d.Key))
	c.Footnote = "Each panel: one " + strings.ToLower(d.Key) + "; x: Rank; lines: " + strings.Join(stats, ", ") + " on that rank."
	for i, s := range stats {
		c.legend = append(c.legend, legendItem{s, seriesColor(i), true})
	}
	cols := min(len(names), 3)
	var row []*plot.Plot
	var shown []StatBox
	for _, b := range d.Boxes {
		if len(shown) < len(names) && b.Name == names[len(shown)] {
			shown = append(shown, b)
		}
	}
	titles := statLabels(shown, 40)
	for k, n := range names {
		p, err := rankPanel(d, n, titles[k], stats)
		if err != nil {
			return nil, err
		}
		if row = append(row, p); len(row) == cols {
			c.grid, row = append(c.grid, row), nil
		}
	}
	if len(row) > 0 {
		for len(row) < cols {
			row = append(row, nil)
		}
		c.grid = append(c.grid, row)
	}
	return c.done(1.6+2.6*float64(len(c.grid)), rankText(d, names, stats), rankVega(c, d, stats), d)
}

func rankPanel(d *StatsData, name, title string, stats []string) (*plot.Plot, error) {
	rows := d.Ranks[name]
	lo, hi := 0.0, 0.0
	for _, r := range rows {
		for _, s := range stats {
			if v := statValue(r, s); !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	unit, _, what := d.valueAxis(math.Max(hi, -lo))
	p := newPlot()
	p.Add(yGrid())
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 9.5
	for k, s := range stats {
		var xys plotter.XYs
		for _, r := range rows {
			if v := statValue(r, s); !math.IsNaN(v) { // diff: a name missing from DIR2
				xys = append(xys, plotter.XY{X: float64(r.Rank), Y: v / unit.ns})
			}
		}
		if len(xys) == 0 {
			continue
		}
		if err := addLineDots(p, xys, seriesColor(k), 1.4, 2, true); err != nil {
			return nil, err
		}
	}
	p.Y.Min, p.Y.Max = lo/unit.ns*1.08, math.Max(hi/unit.ns*1.08, 1e-9)
	if d.Diff {
		what = "diff " + what
	}
	p.Y.Label.Text = what + " (" + unit.name + ")"
	p.Y.Tick.Marker = valueTicks{5}
	lo, top := float64(rows[0].Rank), float64(rows[len(rows)-1].Rank)
	p.X.Min, p.X.Max = lo-0.3, top+0.3
	p.X.Label.Text = "Rank"
	p.X.Tick.Marker = intTicks{}
	return p, nil
}

func rankText(d *StatsData, names, stats []string) string {
	var b strings.Builder
	_, format, _ := d.valueAxis(d.maxValue())
	for _, n := range names {
		b.WriteString(n + "\n")
		for _, r := range d.Ranks[n] {
			fmt.Fprintf(&b, "  rank %d:", r.Rank)
			for _, s := range stats {
				fmt.Fprintf(&b, " %s %s", s, format(statValue(r, s)))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// rankVega picks the name with a drop-down (nsys's per-name selector).
func rankVega(c *Chart, d *StatsData, stats []string) map[string]any {
	unit, _, what := d.valueAxis(d.maxValue())
	var rows []map[string]any
	var options []any
	devices := map[string]bool{}
	add := func(r StatBox, dev string) {
		for _, s := range stats {
			rows = append(rows, map[string]any{"name": r.Name, "device": dev, "rank": r.Rank, "stat": s, "value": nullable(statValue(r, s) / unit.ns)})
		}
	}
	for _, b := range d.Boxes {
		if len(d.Ranks[b.Name]) == 0 {
			continue
		}
		options = append(options, b.Name)
		for _, r := range d.Ranks[b.Name] {
			add(r, "all")
		}
		for _, r := range d.ByDevice[b.Name] {
			add(r, r.Device)
			devices[r.Device] = true
		}
	}
	var sorted []any
	for _, s := range stats {
		sorted = append(sorted, s)
	}
	var rng []any
	for i := range stats {
		rng = append(rng, hexColor(seriesColor(i)))
	}
	spec := vegaBase(c.Title, 640, 300)
	spec["data"] = map[string]any{"values": rows}
	params := []any{map[string]any{"name": "pick", "value": options[0],
		"bind": map[string]any{"input": "select", "options": options, "name": d.Key + " "}}}
	if len(devices) > 0 { // nsys's device selector: one Device ID or all
		devs := []string{}
		for dv := range devices {
			devs = append(devs, dv)
		}
		sortNatural(devs)
		opts := []any{"all"}
		for _, dv := range devs {
			opts = append(opts, dv)
		}
		params = append(params, map[string]any{"name": "device", "value": "all",
			"bind": map[string]any{"input": "select", "options": opts, "name": "Device ID "}})
	} else {
		params = append(params, map[string]any{"name": "device", "value": "all"})
	}
	spec["params"] = params
	spec["transform"] = []any{map[string]any{"filter": "datum.name === pick && datum.device === device"}}
	spec["mark"] = map[string]any{"type": "line", "point": true, "tooltip": true}
	spec["encoding"] = map[string]any{
		"x":     map[string]any{"field": "rank", "type": "quantitative", "title": "Rank", "axis": map[string]any{"tickMinStep": 1, "format": "d"}},
		"y":     map[string]any{"field": "value", "type": "quantitative", "title": what + " (" + unit.name + ")"},
		"color": map[string]any{"field": "stat", "type": "nominal", "title": nil, "sort": sorted, "scale": map[string]any{"domain": sorted, "range": rng}},
	}
	return withSubtitle(spec, c.Subtitle)
}

// diffCharts draws the diff recipe's charts (docs/recipes.md §2.26): the
// all_stats differences per name (nsys's K1(b) line chart, drawn as one
// lane per name with a marker per statistic), and per name the
// differences on each rank (no box: differences are no distribution).
func diffCharts(name string, out *recipe.Output) ([]*Chart, error) {
	boxes, key, err := readAllStats(name, out, false)
	if err != nil {
		return nil, err
	}
	d := &StatsData{Recipe: name, Key: key, Names: len(boxes), Diff: true, Ranks: map[string][]StatBox{}}
	mag := func(b StatBox) float64 {
		if math.IsNaN(b.Sum) {
			return -1
		}
		return math.Abs(b.Sum)
	}
	sort.SliceStable(boxes, func(i, j int) bool { return mag(boxes[i]) > mag(boxes[j]) })
	var both []StatBox // names in both directories (the others are NULL)
	for _, b := range boxes {
		if !math.IsNaN(b.Median) || !math.IsNaN(b.Sum) {
			both = append(both, b)
		}
	}
	d.Boxes = both[:min(len(both), maxStatBoxes)]
	if len(d.Boxes) == 0 {
		return []*Chart{noData(name+"-diff", name+": all_stats differences", name, "no name is in both directories")}, nil
	}
	if err := d.readRankStats(name, out); err != nil {
		return nil, err
	}
	cs := []*Chart{diffDotChart(d)}
	if d.rankRows > 0 {
		rk, err := statsRankChart(d, false)
		if err != nil {
			return nil, err
		}
		rk.Title = name + ": differences per rank"
		rk.Footnote = "DIR1 − DIR2 on each rank. " + rk.Footnote
		cs = append(cs, rk)
	}
	return cs, nil
}

// diffMax is the largest absolute difference of the boxes' statistics.
func diffMax(d *StatsData) float64 {
	m := 0.0
	for _, b := range d.Boxes {
		for _, s := range rankStats(false) {
			if v := statValue(b, s); !math.IsNaN(v) {
				m = math.Max(m, math.Abs(v))
			}
		}
	}
	return m
}

func diffDotChart(d *StatsData) *Chart {
	stats := rankStats(false)
	c := newChart(d.Recipe+"-diff", d.Recipe+": all_stats differences")
	c.Subtitle = fmt.Sprintf("DIR1 − DIR2: %d of %d %ss (the others are not in both), largest |Sum| difference first",
		len(d.Boxes), d.Names, strings.ToLower(d.Key))
	c.Footnote = "One marker per statistic (the approx columns of all_stats)."
	for i, s := range stats {
		c.legend = append(c.legend, legendItem{s, seriesColor(i), false})
	}
	unit := pickTimeUnit(diffMax(d))
	p := newPlot()
	p.Add(xGrid())
	n := len(d.Boxes)
	zero, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(n) - 0.5}})
	zero.Color, zero.Width = colGrey, 0.8
	p.Add(zero)
	for k, s := range stats {
		var xys plotter.XYs
		for i, b := range d.Boxes {
			if v := statValue(b, s); !math.IsNaN(v) {
				xys = append(xys, plotter.XY{X: v / unit.ns, Y: laneY(i, n)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		p.Add(newDots(xys, seriesColor(k), 3))
	}
	laneAxis(p, statLabels(d.Boxes, 48))
	p.Y.Tick.Label.Font.Size = 9
	m := math.Max(diffMax(d)/unit.ns*1.08, 1e-9)
	p.X.Min, p.X.Max = -m, m
	p.X.Label.Text = "Diff Value (" + unit.name + ")"
	p.X.Tick.Marker = valueTicks{6}
	c.grid = [][]*plot.Plot{{p}}
	c.Height = barsHeight(n) + 0.6
	c.text = statsText(d)
	c.vega = diffVega(c, d, unit)
	c.data = d
	return c
}

func diffVega(c *Chart, d *StatsData, unit timeUnit) map[string]any {
	var rows []map[string]any
	var order, sorted []any
	labels := statLabels(d.Boxes, 60)
	for i, b := range d.Boxes {
		order = append(order, labels[i])
		for _, s := range rankStats(false) {
			if v := statValue(b, s); !math.IsNaN(v) {
				rows = append(rows, map[string]any{"name": b.Name, "label": labels[i], "stat": s, "value": round6(v / unit.ns)})
			}
		}
	}
	var rng []any
	for i, s := range rankStats(false) {
		sorted = append(sorted, s)
		rng = append(rng, hexColor(seriesColor(i)))
	}
	spec := vegaBase(c.Title, 700, 0)
	spec["height"] = map[string]any{"step": 22}
	spec["data"] = map[string]any{"values": rows}
	spec["mark"] = map[string]any{"type": "point", "filled": true, "size": 60, "tooltip": true}
	spec["encoding"] = map[string]any{
		"y":     map[string]any{"field": "label", "type": "nominal", "sort": order, "title": nil, "axis": map[string]any{"labelLimit": 420}},
		"x":     map[string]any{"field": "value", "type": "quantitative", "title": "Diff Value (" + unit.name + ")"},
		"color": map[string]any{"field": "stat", "type": "nominal", "title": nil, "sort": sorted, "scale": map[string]any{"domain": sorted, "range": rng}},
	}
	return withSubtitle(spec, c.Subtitle)
}
