package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rect is a filled rectangle in data coordinates, optionally labelled.
type rect struct {
	x0, x1, y0, y1 float64
	fill           color.Color
	label          string
}

// rects is a plotter of rectangles (timeline bars, heatmap cells). Parts
// outside the axes' ranges are clipped; a rectangle narrower than minW
// points is widened so that short events stay visible; a label is drawn
// inside when it fits.
type rects struct {
	items  []rect
	minW   vg.Length
	stroke color.Color // outline, or nil
	seam   bool        // widen by a hair so that adjacent cells leave no gap
}

// Plot implements plot.Plotter.
func (r *rects) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := textStyle(sansFont, 7.5, colInk)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for _, it := range r.items {
		x0, x1 := math.Max(it.x0, p.X.Min), math.Min(it.x1, p.X.Max)
		y0, y1 := math.Max(it.y0, p.Y.Min), math.Min(it.y1, p.Y.Max)
		if x1 < x0 || y1 <= y0 {
			continue
		}
		a, b := trX(x0), trX(x1)
		if b-a < r.minW {
			b = a + r.minW
		}
		if r.seam {
			b += 0.4
		}
		lo, hi := trY(y0), trY(y1)
		path := vg.Path{}
		path.Move(vg.Point{X: a, Y: lo})
		path.Line(vg.Point{X: b, Y: lo})
		path.Line(vg.Point{X: b, Y: hi})
		path.Line(vg.Point{X: a, Y: hi})
		path.Close()
		c.SetColor(it.fill)
		c.Fill(path)
		if r.stroke != nil {
			c.SetLineWidth(0.4)
			c.SetColor(r.stroke)
			c.Stroke(path)
		}
		if it.label != "" && b-a > 16 && hi-lo > 7 {
			txt := it.label
			for n := len([]rune(txt)); sty.Width(txt) > b-a-4 && n > 3; n-- {
				txt = string([]rune(it.label)[:n-1]) + "…"
			}
			if sty.Width(txt) <= b-a-4 {
				sty.Color = colInk
				if luminance(it.fill) < 0.45 {
					sty.Color = color.White
				}
				c.FillText(sty, vg.Point{X: (a + b) / 2, Y: (lo + hi) / 2}, txt)
			}
		}
	}
}

// DataRange implements plot.DataRanger.
func (r *rects) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, it := range r.items {
		xmin, xmax = math.Min(xmin, it.x0), math.Max(xmax, it.x1)
		ymin, ymax = math.Min(ymin, it.y0), math.Max(ymax, it.y1)
	}
	return
}

// laneAxis labels the y axis with lane names, the first lane at the top
// (lane i spans y in [n-1-i-0.5, n-1-i+0.5]).
func laneAxis(p *plot.Plot, names []string) {
	n := len(names)
	ticks := make([]plot.Tick, n)
	for i, name := range names {
		ticks[i] = plot.Tick{Value: float64(n - 1 - i), Label: name}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Length = 0
	p.Y.Width = 0
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
}

// laneY is the centre of lane i of n.
func laneY(i, n int) float64 { return float64(n - 1 - i) }

// timeTicks are ticks in a time unit; the axis values are ns.
type timeTicks struct{ unit timeUnit }

// Ticks implements plot.Ticker over ns values, labelled in the unit: about
// eight labelled ticks at 1, 2 or 5 times a power of ten, with unlabelled
// minor ticks between.
func (t timeTicks) Ticks(min, max float64) []plot.Tick {
	return niceTicks(min/t.unit.ns, max/t.unit.ns, 8, t.unit.ns)
}

// valueTicks are about n labelled ticks at nice values in axis units.
type valueTicks struct{ n int }

// Ticks implements plot.Ticker.
func (v valueTicks) Ticks(min, max float64) []plot.Tick { return niceTicks(min, max, v.n, 1) }

// niceTicks returns about n labelled ticks over [lo, hi] (axis units) at
// "nice" values, scaled by scale, with minor ticks at a fifth of the step.
func niceTicks(lo, hi float64, n int, scale float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo * scale, Label: trimFloat(lo)}}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	minor := step / 5
	var ticks []plot.Tick
	for k := math.Ceil(lo / minor); k*minor <= hi+minor*1e-9; k++ {
		v := k * minor
		label := ""
		if r := math.Mod(math.Abs(v), step); r < minor*1e-6 || step-r < minor*1e-6 {
			label = trimFloat(v)
		}
		ticks = append(ticks, plot.Tick{Value: v * scale, Label: label})
	}
	return ticks
}

// trimFloat formats a tick value without trailing zeros.
func trimFloat(v float64) string {
	if math.Abs(v) >= 1000 {
		return fmtInt(int64(math.Round(v)))
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

func fmtInt(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	d := []byte{}
	for {
		d = append([]byte{byte('0' + v%10)}, d...)
		v /= 10
		if v == 0 {
			break
		}
	}
	if neg {
		return "-" + string(d)
	}
	return string(d)
}

// luminance is a colour's relative brightness, 0 (black) to 1 (white).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 0xffff
}
