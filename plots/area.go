package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// stepArea draws per-bin values as a filled step curve over [x0 + k*w,
// x0 + (k+1)*w]; NaN bins leave a gap.
type stepArea struct {
	x0, w  float64
	values []float64
	fill   color.Color
	line   color.Color // outline on top, or nil
}

// Plot implements plot.Plotter.
func (a *stepArea) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	base := trY(math.Max(0, p.Y.Min))
	flush := func(pts []vg.Point) {
		if len(pts) == 0 {
			return
		}
		poly := vg.Path{}
		poly.Move(vg.Point{X: pts[0].X, Y: base})
		for _, pt := range pts {
			poly.Line(pt)
		}
		poly.Line(vg.Point{X: pts[len(pts)-1].X, Y: base})
		poly.Close()
		c.SetColor(a.fill)
		c.Fill(poly)
		if a.line != nil {
			l := vg.Path{}
			l.Move(pts[0])
			for _, pt := range pts[1:] {
				l.Line(pt)
			}
			c.SetLineWidth(0.7)
			c.SetColor(a.line)
			c.Stroke(l)
		}
	}
	var pts []vg.Point
	for k, v := range a.values {
		if math.IsNaN(v) {
			flush(pts)
			pts = pts[:0]
			continue
		}
		x0, x1 := a.x0+float64(k)*a.w, a.x0+float64(k+1)*a.w
		y := trY(math.Min(v, p.Y.Max))
		pts = append(pts, vg.Point{X: trX(x0), Y: y}, vg.Point{X: trX(x1), Y: y})
	}
	flush(pts)
}

// DataRange implements plot.DataRanger.
func (a *stepArea) DataRange() (xmin, xmax, ymin, ymax float64) {
	return a.x0, a.x0 + float64(len(a.values))*a.w, 0, 100
}

// withAlpha returns c with opacity alpha (0..1).
func withAlpha(c color.RGBA, alpha float64) color.NRGBA {
	return color.NRGBA{c.R, c.G, c.B, uint8(math.Round(alpha * 255))}
}
