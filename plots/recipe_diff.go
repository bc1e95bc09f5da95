package plots

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// diffCharts draws the diff recipe's charts (docs/recipes.md §2.26): the
// all_stats differences per name (nsys's K1(b) line chart, drawn as one
// lane per name with a marker per statistic), and per name the
// differences on each rank (no box: differences are no distribution).
func diffCharts(name string, out *recipe.Output) ([]*Chart, error) {
	boxes, key, err := readAllStats(name, out)
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
	if len(d.Ranks) > 0 {
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
		sc, _ := plotter.NewScatter(xys)
		sc.Color, sc.Shape, sc.Radius = seriesColor(k), draw.CircleGlyph{}, 3
		p.Add(sc)
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
