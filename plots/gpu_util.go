package plots

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// UtilRow is one heatmap row: a GPU of a process of a profile.
type UtilRow struct {
	Label   string
	Profile string
	PID     int64
	Device  int64
	Values  []float64 // % of each bin the GPU ran kernels; NaN outside the session
	Busy    int64     // ns with at least one kernel running (overlaps counted once)
	Kernels int       // kernels counted
}

// UtilData is what gpu-util draws: nsys's cuda_gpu_time_util_map bins.
type UtilData struct {
	Bins    int
	BinSize int64 // ns
	Start   int64 // time of bin 0 (ns, on the common timeline or in the window's profile)
	Rows    []UtilRow
}

// GPUUtil draws GPU utilisation over time: per GPU (of each process of each
// profile) the share of each time bin in which a kernel ran, as nsys's
// cuda_gpu_time_util_map recipe computes it (overlapping kernels counted
// once). Several profiles are aligned on their session start times as the
// recipe does. Idle bins (0%) are marked. Options: Bins (default 30),
// Range/Start/End for a window (bins then cover the window in each
// profile's own time), Device.
func GPUUtil(ctx context.Context, ps []*nsysx.Profile, o *Options) (*Chart, error) {
	var d *UtilData
	c, err := binnedChart(ctx, ps, o, "gpu-util", "GPU utilisation over time", 30, nil, func(bn *binning, labels []string) {
		d = &UtilData{Bins: bn.bins, BinSize: bn.size, Start: bn.start}
		bn.eachGPU(labels, func(i int, k devKey, ops []gpuOp, label string) {
			merged := consolidate(bn.spans(i, ops, nil))
			d.Rows = append(d.Rows, UtilRow{Label: label, Profile: labels[i], PID: k.pid, Device: k.dev, Kernels: len(ops),
				Busy: total(merged), Values: heatBins(merged, bn.size, bn.bins, bn.offsets[i], bn.ends[i])})
		})
	})
	if err != nil || c.Note != "" {
		return c, err
	}
	c.Footnote = "Each cell: % of the bin in which the GPU ran at least one kernel (nsys recipe cuda_gpu_time_util_map). " +
		"Red: idle bins (0%). Grey: outside the profile's session."
	c.legend = utilLegend()
	c.grid = [][]*plot.Plot{{utilPanel(d)}}
	return c.done(math.Min(2.6+0.42*float64(len(d.Rows)), 24), utilText(d), utilVega(c, d), d)
}

func utilLegend() []legendItem {
	var l []legendItem
	for _, v := range []float64{1, 25, 50, 75, 100} {
		l = append(l, legendItem{label: fmt.Sprintf("%g%%", v), color: viridis(v / 100)})
	}
	return append(l, legendItem{label: "idle (0%)", color: colIdle}, legendItem{label: "outside session", color: colOutside})
}

// utilColor is a cell's colour.
func utilColor(v float64) color.RGBA {
	switch {
	case math.IsNaN(v):
		return colOutside
	case v == 0:
		return colIdle
	}
	return viridis(v / 100)
}

func utilPanel(d *UtilData) *plot.Plot {
	p := newPlot()
	n := len(d.Rows)
	r := &rects{seam: true}
	names := make([]string, n)
	for i, row := range d.Rows {
		names[i] = row.Label + "  " + rowMean(row.Values)
		y := laneY(i, n)
		for k, v := range row.Values {
			x0 := float64(d.Start) + float64(int64(k)*d.BinSize)
			cell := rect{x0: x0, x1: x0 + float64(d.BinSize), y0: y - 0.42, y1: y + 0.42, fill: utilColor(v)}
			if !math.IsNaN(v) && len(row.Values) <= 40 {
				cell.label = fmt.Sprintf("%.0f", v)
			}
			r.items = append(r.items, cell)
		}
	}
	p.Add(r)
	laneAxis(p, names)
	span := float64(int64(d.Bins) * d.BinSize)
	unit := pickTimeUnit(float64(d.Start) + span)
	p.X.Min, p.X.Max = float64(d.Start), float64(d.Start)+span
	p.X.Tick.Marker = timeTicks{unit}
	p.X.Label.Text = "time (" + unit.name + ")"
	return p
}

// rowMean is the mean of the in-session bins, as "avg 62.1%".
func rowMean(v []float64) string {
	var s float64
	n := 0
	for _, x := range v {
		if !math.IsNaN(x) {
			s += x
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return "(avg " + fmtPct(s/float64(n)) + ")"
}

func utilText(d *UtilData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "bin size %d ns, %d bins; %% of each bin with a kernel running (- outside the session)\n", d.BinSize, d.Bins)
	for _, r := range d.Rows {
		fmt.Fprintf(&b, "%s %s, busy %s:", r.Label, rowMean(r.Values), fmtDur(float64(r.Busy)))
		for _, v := range r.Values {
			if math.IsNaN(v) {
				b.WriteString(" -")
			} else {
				fmt.Fprintf(&b, " %.1f", v)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func utilVega(c *Chart, d *UtilData) map[string]any {
	unit := pickTimeUnit(float64(d.Start) + float64(int64(d.Bins)*d.BinSize))
	var rows []map[string]any
	var order []string
	for _, r := range d.Rows {
		order = append(order, r.Label)
		for k, v := range r.Values {
			t0 := float64(d.Start + int64(k)*d.BinSize)
			state := "busy"
			switch {
			case math.IsNaN(v):
				state = "outside session"
			case v == 0:
				state = "idle"
			}
			rows = append(rows, map[string]any{"gpu": r.Label, "bin": k, "t0": round6(t0 / unit.ns),
				"t1": round6((t0 + float64(d.BinSize)) / unit.ns), "util": nullable(v), "state": state})
		}
	}
	x := "time (" + unit.name + ")"
	enc := map[string]any{
		"x":  map[string]any{"field": "t0", "type": "quantitative", "title": x},
		"x2": map[string]any{"field": "t1"},
		"y":  map[string]any{"field": "gpu", "type": "nominal", "sort": order, "title": nil, "axis": map[string]any{"labelLimit": 320}},
		"tooltip": []any{map[string]any{"field": "gpu"}, map[string]any{"field": "t0", "title": "bin start (" + unit.name + ")"},
			map[string]any{"field": "util", "title": "utilisation %", "format": ".1f"}, map[string]any{"field": "state"}},
	}
	busy := map[string]any{
		"transform": []any{map[string]any{"filter": "datum.state === 'busy'"}},
		"mark":      map[string]any{"type": "rect"},
		"encoding": merge(enc, map[string]any{"color": map[string]any{"field": "util", "type": "quantitative",
			"title": "utilisation %", "scale": map[string]any{"scheme": "viridis", "domain": []any{0, 100}}}}),
		"params": []any{map[string]any{"name": "zoom", "select": map[string]any{"type": "interval", "encodings": []any{"x"}}, "bind": "scales"}},
	}
	other := map[string]any{
		"transform": []any{map[string]any{"filter": "datum.state !== 'busy'"}},
		"mark":      map[string]any{"type": "rect"},
		"encoding": merge(enc, map[string]any{"color": map[string]any{"field": "state", "type": "nominal", "title": nil,
			"scale": map[string]any{"domain": []any{"idle", "outside session"}, "range": []any{hexColor(colIdle), hexColor(colOutside)}}}}),
	}
	spec := vegaBase(c.Title, 760, 0)
	spec["height"] = map[string]any{"step": 34}
	spec["data"] = map[string]any{"values": rows}
	var layers []any
	for _, want := range []bool{true, false} { // a layer without data would warn
		for _, r := range rows {
			if (r["state"] == "busy") == want {
				layers = append(layers, map[bool]any{true: busy, false: other}[want])
				break
			}
		}
	}
	spec["layer"] = layers
	spec["resolve"] = map[string]any{"scale": map[string]any{"color": "independent"}}
	return withSubtitle(spec, c.Subtitle)
}
