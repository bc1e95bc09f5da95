package plots

import (
	"fmt"
	"image/color"
	"math"
)

// What the heatmaps share, gpu-util's and the recipe heatmaps' (see
// recipe_heatmap.go): cells of 0–100 % on the viridis scale, NaN (NULL)
// outside the session.

// heatLegend is the heatmaps' legend: the scale, the idle colour (gpu-util
// only) and the outside-session colour.
func heatLegend() []legendItem {
	var l []legendItem
	for _, v := range []float64{1, 25, 50, 75, 100} {
		l = append(l, legendItem{label: fmt.Sprintf("%g%%", v), color: viridis(v / 100)})
	}
	return append(l, legendItem{label: "idle (0%)", color: colIdle}, legendItem{label: "outside session", color: colOutside})
}

// heatColor is the colour of a cell of v %: grey outside the session (NaN),
// red for an idle bin (0) when idle is set, else viridis.
func heatColor(v float64, idle bool) color.RGBA {
	switch {
	case math.IsNaN(v):
		return colOutside
	case idle && v == 0:
		return colIdle
	}
	return viridis(v / 100)
}

// heatLane adds to r the cells of one heatmap row at height y, half as tall
// as h: cell k spans [x0(k), x0(k)+w) and is coloured by heatColor; a lane
// of at most 40 cells has them labelled with their rounded value.
func heatLane(r *rects, y, h float64, values []float64, x0 func(k int) float64, w float64, idle bool) {
	for k, v := range values {
		x := x0(k)
		cell := rect{x0: x, x1: x + w, y0: y - h, y1: y + h, fill: heatColor(v, idle)}
		if !math.IsNaN(v) && len(values) <= 40 {
			cell.label = fmt.Sprintf("%.0f", v)
		}
		r.items = append(r.items, cell)
	}
}

// heatCell is a cell of a heatmap's text: "-" for NaN, else one decimal.
func heatCell(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.1f", v)
}
