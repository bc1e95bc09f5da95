package plots

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/compare"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var (
	colFaster = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	colSlower = color.RGBA{0xd6, 0x27, 0x28, 0xff}
)

// compareKey is the compare package's row name as the chart names it:
// NVTX ranges "name@domain" become nvtx_sum's "domain:name", then the
// chart's range label.
func compareKey(k compare.Kind, name string) string {
	if k != compare.NVTX {
		return name
	}
	if i := strings.LastIndex(name, "@"); i > 0 {
		name = name[i+1:] + ":" + name[:i]
	}
	return rangeLabel(name)
}

// attachIntervals runs the before/after comparison (nsysx/compare, default
// options) and gives each row its change, interval and verdict; rows the
// comparison has no interval for (the "other" row, NVTX iteration ranges,
// which it pools) keep NaN.
func attachIntervals(ctx context.Context, a, b *nsysx.Profile, d *CompareData) error {
	c, err := compare.Profiles(ctx, a, b, nil)
	if err != nil {
		return err
	}
	kind := compare.Kernel
	if d.What == "nvtx" {
		kind = compare.NVTX
	}
	byName := map[string]*compare.Row{}
	for i := range c.Rows {
		if r := &c.Rows[i]; r.Kind == kind {
			byName[compareKey(kind, r.Name)] = r
		}
	}
	d.Basis = c.Basis
	if r := c.Find(compare.Kernel, "[all kernels]"); r != nil && kind == compare.Kernel && !math.IsNaN(r.Low) {
		d.TotalChange = fmt.Sprintf("%s, %+.1f%% [%+.1f%%, %+.1f%%]", r.Verdict, r.Change*100, r.Low*100, r.High*100)
	}
	for i := range d.Rows {
		row := &d.Rows[i]
		row.Change, row.Low, row.High = math.NaN(), math.NaN(), math.NaN()
		if r := byName[row.Name]; r != nil && !row.Other {
			row.Change, row.Low, row.High, row.Verdict = r.Change, r.Low, r.High, r.Verdict
		}
	}
	return nil
}

func verdictColor(v string) color.RGBA {
	switch v {
	case compare.Faster:
		return colFaster
	case compare.Slower:
		return colSlower
	}
	return colGrey
}

// intervalPanel draws each row's relative change (%) with its interval,
// coloured by verdict, beside the bars (same rows, top to bottom).
func intervalPanel(d *CompareData) (*plot.Plot, error) {
	p := newPlot()
	p.Add(xGrid())
	n := len(d.Rows)
	lo, hi := -10.0, 10.0
	for i, r := range d.Rows {
		if math.IsNaN(r.Low) || math.IsInf(r.Change, 0) {
			continue
		}
		y := float64(n - 1 - i)
		ci, err := plotter.NewLine(plotter.XYs{{X: r.Low * 100, Y: y}, {X: r.High * 100, Y: y}})
		if err != nil {
			return nil, err
		}
		ci.LineStyle.Width, ci.LineStyle.Color = vg.Points(2), verdictColor(r.Verdict)
		pt, err := plotter.NewScatter(plotter.XYs{{X: r.Change * 100, Y: y}})
		if err != nil {
			return nil, err
		}
		pt.GlyphStyle = draw.GlyphStyle{Color: verdictColor(r.Verdict), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(ci, pt)
		lo, hi = math.Min(lo, r.Low*100), math.Max(hi, r.High*100)
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, err
	}
	zero.LineStyle.Color, zero.LineStyle.Width = colInk, vg.Points(0.8)
	p.Add(zero)
	blank := make([]string, n)
	p.NominalY(blank...)
	pad := (hi - lo) * 0.08
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.X.Label.Text = "change (%), " + ciLevel
	p.X.Tick.Marker = valueTicks{5}
	return p, nil
}

const ciLevel = "95% CI"

// verdictText is the label suffix of a row: "faster", "slower" or "".
func verdictText(r CompareRow) string {
	if r.Verdict == compare.Faster || r.Verdict == compare.Slower {
		return "  " + r.Verdict
	}
	return ""
}

// vegaInterval is the Vega-Lite view of the intervals, beside the bars.
func vegaInterval(order []any) map[string]any {
	y := map[string]any{"field": "label", "type": "nominal", "sort": order, "axis": nil}
	return map[string]any{
		"width": 220, "height": map[string]any{"step": 14},
		"transform": []any{map[string]any{"filter": "datum.second && isValid(datum.ci_low)"}},
		"layer": []any{
			map[string]any{"mark": map[string]any{"type": "rule", "strokeWidth": 2},
				"encoding": map[string]any{"y": y, "x": map[string]any{"field": "ci_low", "type": "quantitative", "title": "change (%), " + ciLevel},
					"x2": map[string]any{"field": "ci_high"}, "color": verdictScale()}},
			map[string]any{"mark": map[string]any{"type": "point", "filled": true, "size": 50},
				"encoding": map[string]any{"y": y, "x": map[string]any{"field": "change", "type": "quantitative"}, "color": verdictScale(),
					"tooltip": []any{map[string]any{"field": "name"}, map[string]any{"field": "verdict"},
						map[string]any{"field": "change", "title": "change (%)"}, map[string]any{"field": "ci_low", "title": "CI low (%)"},
						map[string]any{"field": "ci_high", "title": "CI high (%)"}}}},
		},
	}
}

func verdictScale() map[string]any {
	return map[string]any{"field": "verdict", "type": "nominal", "title": nil, "scale": map[string]any{
		"domain": []any{compare.Faster, compare.Slower, compare.NoChange},
		"range":  []any{hexColor(colFaster), hexColor(colSlower), hexColor(colGrey)}}}
}

// pctOrNil is a fraction as a rounded percentage, nil when undefined.
func pctOrNil(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return math.Round(f*1000) / 10
}
