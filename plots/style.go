package plots

import (
	"fmt"
	"hash/fnv"
	"image/color"
	"math"
	"strconv"

	"github.com/nsysx/nsysx/internal/shortname"
	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Fonts: Liberation Sans is metric-compatible with Arial, so an SVG viewer
// that substitutes Arial or Helvetica keeps the layout.
var (
	sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	boldFont = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}
)

func textStyle(f font.Font, size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(f, size), Handler: plot.DefaultTextHandler,
		XAlign: draw.XLeft, YAlign: draw.YBottom}
}

// Colours used across the charts.
var (
	colInk      = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colGrey     = color.RGBA{0x66, 0x66, 0x66, 0xff}
	colGrid     = color.RGBA{0xea, 0xea, 0xea, 0xff}
	colKernel   = color.RGBA{0x4c, 0x78, 0xa8, 0xff}
	colMemcpy   = color.RGBA{0xf5, 0x85, 0x18, 0xff}
	colMemset   = color.RGBA{0x72, 0xb7, 0xb2, 0xff}
	colNCCL     = color.RGBA{0xe4, 0x57, 0x56, 0xff}
	colGraph    = color.RGBA{0x2a, 0x4a, 0x73, 0xff} // a CUDA graph's execution: a darker kernel blue
	colCompute  = color.RGBA{0x4c, 0x78, 0xa8, 0xff}
	colOverlap  = color.RGBA{0x6a, 0x3d, 0x9a, 0xff}
	colOther    = color.RGBA{0xba, 0xb0, 0xac, 0xff}
	colIdle     = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	colOutside  = color.RGBA{0xf2, 0xf2, 0xf2, 0xff}
	colMedian   = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	colOutlier  = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	colSeries2  = color.RGBA{0xf5, 0x85, 0x18, 0xff}
	paletteNVTX = []color.RGBA{
		{0x9e, 0xca, 0xe9, 0xff}, {0xff, 0xbf, 0x79, 0xff}, {0x8c, 0xd1, 0x7d, 0xff}, {0xff, 0x9d, 0x98, 0xff},
		{0xd4, 0xa6, 0xc8, 0xff}, {0xd7, 0xb5, 0xa6, 0xff}, {0xf1, 0xce, 0x63, 0xff}, {0x86, 0xbc, 0xb6, 0xff},
		{0xb7, 0x9a, 0x20, 0xff}, {0xfa, 0xbf, 0xd2, 0xff}, {0xa0, 0xcb, 0xe8, 0xff}, {0xc5, 0xb0, 0xd5, 0xff},
	}
)

// nameColor picks a stable palette colour for a name.
func nameColor(name string) color.RGBA {
	h := fnv.New32a()
	h.Write([]byte(name))
	return paletteNVTX[h.Sum32()%uint32(len(paletteNVTX))]
}

// hexColor formats a colour as #rrggbb for Vega-Lite.
func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// viridis maps 0..1 to a colour of the viridis scale (linear between nine
// control points).
func viridis(t float64) color.RGBA {
	stops := []color.RGBA{
		{0x44, 0x01, 0x54, 0xff}, {0x47, 0x2d, 0x7b, 0xff}, {0x3b, 0x52, 0x8b, 0xff}, {0x2c, 0x72, 0x8e, 0xff},
		{0x21, 0x91, 0x8c, 0xff}, {0x28, 0xae, 0x80, 0xff}, {0x5e, 0xc9, 0x62, 0xff}, {0xad, 0xdc, 0x30, 0xff},
		{0xfd, 0xe7, 0x25, 0xff},
	}
	t = math.Max(0, math.Min(1, t))
	f := t * float64(len(stops)-1)
	i := int(f)
	if i >= len(stops)-1 {
		return stops[len(stops)-1]
	}
	w := f - float64(i)
	a, b := stops[i], stops[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-w) + float64(y)*w)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// timeUnit scales nanoseconds for an axis.
type timeUnit struct {
	name string
	ns   float64
}

// timeUnits and sizeUnits are the units of the axes, largest first (sizes
// in decimal units, as nsys's MB).
var (
	timeUnits = []timeUnit{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}, {"ns", 1}}
	sizeUnits = []timeUnit{{"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}, {"B", 1}}
)

// pickTimeUnit returns the largest unit in which v ns is at least 1.
func pickTimeUnit(v float64) timeUnit { return pickUnit(v, timeUnits) }

// pickSizeUnit returns the largest unit in which v bytes is at least 1.
func pickSizeUnit(v float64) timeUnit { return pickUnit(v, sizeUnits) }

// pickUnit returns the first of units in which v is at least 1, else the
// last (the base unit).
func pickUnit(v float64, units []timeUnit) timeUnit {
	for _, u := range units[:len(units)-1] {
		if v >= u.ns {
			return u
		}
	}
	return units[len(units)-1]
}

// fmtDur formats nanoseconds with 3 significant digits and a unit.
func fmtDur(ns float64) string {
	u := pickTimeUnit(math.Abs(ns))
	return fmtSig(ns/u.ns) + " " + u.name
}

// fmtBytes formats bytes with 3 significant digits and a unit.
func fmtBytes(b float64) string {
	u := pickSizeUnit(math.Abs(b))
	if u.ns == 1 {
		return strconv.FormatFloat(b, 'f', 0, 64) + " B"
	}
	return fmtSig(b/u.ns) + " " + u.name
}

// fmtSig formats v with 3 significant digits, without exponent.
func fmtSig(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	d := 2 - int(math.Floor(math.Log10(math.Abs(v))))
	if d < 0 {
		d = 0
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// fmtPct formats a percentage with one decimal.
func fmtPct(v float64) string {
	if v > 0 && v < 0.05 {
		return "<0.1%"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "%"
}

// truncate shortens s to at most n runes, with an ellipsis in the middle.
func truncate(s string, n int) string { return shortname.Truncate(s, n) }

// newPlot returns a plot with nsysx's fonts and a light grid.
func newPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle = textStyle(boldFont, 11, colInk)
	p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
	p.Title.Padding = 6
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = textStyle(sansFont, 10, colInk)
		a.Label.TextStyle.XAlign, a.Label.TextStyle.YAlign = draw.XCenter, draw.YBottom
		a.Tick.Label = textStyle(sansFont, 9, colInk)
		a.Color = colGrey
		a.Tick.Color = colGrey
		a.LineStyle.Color = colGrey
		a.Tick.LineStyle.Color = colGrey
	}
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XCenter, draw.YTop
	p.Y.Tick.Label.XAlign, p.Y.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.Legend.TextStyle = textStyle(sansFont, 9, colInk)
	return p
}
