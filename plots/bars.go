package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bar is one bar of a ranking: a kernel, API call or memory operation.
type Bar struct {
	Label string  // shortened name shown on the axis
	Name  string  // full name
	Value float64 // total: ns, or bytes
	Count int64   // instances summed
	Pct   float64 // share of the total of all rows, %
	Other bool    // the "other" bar: the rows after the top N
}

// Bars is a ranking: the top bars and the total they are a share of.
type Bars struct {
	Bars  []Bar
	Total float64 // of all rows, shown or not
	Rows  int     // rows of the report
}

// rankRows reads a summary report's rows (already sorted by total,
// descending) into the top n bars plus an "other" bar for the rest.
func rankRows(res *nsysx.Result, nameCol, valueCol, countCol string, n int, short func([]string) []string) (*Bars, error) {
	nc, vc, cc := res.Col(nameCol), res.Col(valueCol), res.Col(countCol)
	if err := cmp.Or(nc.Err(), vc.Err(), cc.Err()); err != nil {
		return nil, err
	}
	b := &Bars{Rows: res.Len()}
	var names, all []string
	for i := 0; i < res.Len(); i++ {
		all = append(all, nc.Text(i))
	}
	labels := short(all) // over all rows, so that a top label is unambiguous
	for i := 0; i < res.Len(); i++ {
		v := vc.Value(i)
		val := 0.0
		switch v.Kind {
		case nsysx.IntKind:
			val = float64(v.I)
		case nsysx.FloatKind:
			val = v.F
		}
		b.Total += val
		cnt := cc.Value(i).I
		if i < n || i == n && res.Len() == n+1 {
			b.Bars = append(b.Bars, Bar{Name: nc.Text(i), Value: val, Count: cnt})
			names = append(names, nc.Text(i))
			continue
		}
		if len(b.Bars) == 0 || !b.Bars[len(b.Bars)-1].Other {
			b.Bars = append(b.Bars, Bar{Other: true})
		}
		o := &b.Bars[len(b.Bars)-1]
		o.Value += val
		o.Count += cnt
	}
	for i := range b.Bars {
		bar := &b.Bars[i]
		if bar.Other {
			k := res.Len() - len(names)
			bar.Label = fmt.Sprintf("other (%d more)", k)
			bar.Name = bar.Label
		} else {
			bar.Label = labels[i]
		}
		if b.Total > 0 {
			bar.Pct = bar.Value / b.Total * 100
		}
	}
	return b, nil
}

// valueFormat formats a bar value for labels and text.
type valueFormat func(float64) string

// barPanel draws bars as a horizontal bar chart, largest at the top, each
// labelled with its value and share.
func barPanel(b *Bars, axis string, unit timeUnit, format valueFormat, col color.Color) (*plot.Plot, error) {
	p := newPlot()
	p.Add(xGrid())
	n := len(b.Bars)
	vals := make(plotter.Values, n)
	labels := make([]string, n)
	var maxV float64
	for i, bar := range b.Bars {
		k := n - 1 - i // the first bar at the top
		vals[k] = bar.Value / unit.ns
		labels[k] = bar.Label
		maxV = math.Max(maxV, vals[k])
	}
	bc, err := plotter.NewBarChart(vals, vg.Length(12))
	if err != nil {
		return nil, err
	}
	bc.Horizontal = true
	bc.Color = col
	bc.LineStyle.Width = 0
	p.Add(bc)
	if other := len(b.Bars) > 0 && b.Bars[n-1].Other; other {
		ob, _ := plotter.NewBarChart(plotter.Values{vals[0]}, vg.Length(12))
		ob.Horizontal, ob.Color, ob.LineStyle.Width = true, colOther, 0
		p.Add(ob)
	}
	xys := make(plotter.XYs, n)
	texts := make([]string, n)
	for i, bar := range b.Bars {
		k := n - 1 - i
		xys[k] = plotter.XY{X: vals[k], Y: float64(k)}
		texts[k] = format(bar.Value)
		if b.Total > 0 {
			texts[k] += "  " + fmtPct(bar.Pct)
		}
	}
	if err := addBarLabels(p, xys, texts, 8.5); err != nil {
		return nil, err
	}
	p.NominalY(labels...)
	p.Y.Tick.Label.Font.Size = 9
	p.X.Min = 0
	p.X.Max = math.Max(maxV*1.28, 1e-9)
	p.X.Label.Text = axis + " (" + unit.name + ")"
	p.X.Tick.Marker = valueTicks{6}
	return p, nil
}

// xGrid draws vertical grid lines only.
func xGrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal.Color = nil
	g.Vertical.Color = colGrid
	return g
}

// barsText renders a ranking as text lines.
func barsText(b *Bars, format valueFormat, countName string) string {
	var s strings.Builder
	for _, bar := range b.Bars {
		name := bar.Name
		fmt.Fprintf(&s, "%6.1f%%  %10s  %8d %s  %s\n", bar.Pct, format(bar.Value), bar.Count, countName, name)
	}
	return s.String()
}

// barsHeight is a chart height for n bars and header lines.
func barsHeight(n int) float64 { return math.Min(1.6+0.27*float64(n), 30) }

// barsVega is the Vega-Lite spec of a ranking.
func barsVega(title string, b *Bars, axis string, unit timeUnit, countName string) map[string]any {
	var rows []map[string]any
	var order []any
	for i, bar := range b.Bars {
		order = append(order, bar.Label)
		rows = append(rows, map[string]any{"rank": i + 1, "label": bar.Label, "name": bar.Name,
			"value": round6(bar.Value / unit.ns), "pct": round6(bar.Pct), "count": bar.Count, "other": bar.Other})
	}
	x := axis + " (" + unit.name + ")"
	enc := map[string]any{
		"y": map[string]any{"field": "label", "type": "nominal", "sort": order, "title": nil,
			"axis": map[string]any{"labelLimit": 420}},
		"x": map[string]any{"field": "value", "type": "quantitative", "title": x},
	}
	tooltip := []any{
		map[string]any{"field": "name", "title": "name"},
		map[string]any{"field": "value", "title": x, "format": ",.3f"},
		map[string]any{"field": "pct", "title": "% of total", "format": ".1f"},
		map[string]any{"field": "count", "title": countName},
	}
	bars := map[string]any{"mark": map[string]any{"type": "bar", "tooltip": true},
		"encoding": merge(enc, map[string]any{"tooltip": tooltip,
			"color": map[string]any{"condition": map[string]any{"test": "datum.other", "value": hexColor(colOther)},
				"value": hexColor(colKernel)}})}
	labels := map[string]any{"mark": map[string]any{"type": "text", "align": "left", "dx": 4, "fontSize": 11},
		"encoding": merge(enc, map[string]any{"text": map[string]any{"field": "pct", "format": ".1f"}})}
	spec := vegaBase(title, 760, 0)
	spec["height"] = map[string]any{"step": 22}
	spec["data"] = map[string]any{"values": rows}
	spec["layer"] = []any{bars, labels}
	return spec
}

// addBarLabels writes texts just right of the bar ends xys, vertically
// centred, in the sans font of the given size.
func addBarLabels(p *plot.Plot, xys plotter.XYs, texts []string, size vg.Length) error {
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i] = textStyle(sansFont, size, colInk)
		lab.TextStyle[i].YAlign = draw.YCenter
	}
	lab.Offset = vg.Point{X: 4}
	p.Add(lab)
	return nil
}
