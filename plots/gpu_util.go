package plots

import (
	"context"
	"math"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// UtilRow is one heatmap row: a GPU of a process of a profile.
type UtilRow struct {
	GPULane
	Values  []float64 // % of each bin the GPU ran kernels; NaN outside the session
	Busy    int64     // ns with at least one kernel running (overlaps counted once)
	Kernels int       // kernels counted
	Graphs  int       // executions of CUDA graphs traced whole, among Kernels (each stands for its kernels)
}

// UtilData is what gpu-util draws: nsys's cuda_gpu_time_util_map bins.
type UtilData struct {
	TimeBins
	Rows []UtilRow
}

// GPUUtil draws GPU utilisation over time: per GPU (of each process of each
// profile) the share of each time bin in which a kernel ran, as nsys's
// cuda_gpu_time_util_map recipe computes it (overlapping kernels counted
// once). Several profiles are aligned on their session start times as the
// recipe does. An execution of a CUDA graph traced whole (nsys's default
// --cuda-graph-trace=graph, which records no kernel rows for it) counts as
// a kernel running from its start to its end; the recipe, which reads
// kernel rows only, sees no work there. Idle bins (0%) are marked. Options: Bins (default 30),
// Range/Start/End for a window (bins then cover the window in each
// profile's own time), Device.
func GPUUtil(ctx context.Context, ps []*nsysx.Profile, o *Options) (*Chart, error) {
	c, bins, rows, err := binnedChart(ctx, ps, o, "gpu-util", "GPU utilisation over time", 30, nil, func(bn *binning, g binnedGPU) (UtilRow, error) {
		merged := consolidate(bn.spans(g.i, g.ops, nil))
		return UtilRow{GPULane: g.GPULane, Kernels: len(g.ops), Graphs: graphCount(g.ops), Busy: total(merged),
			Values: bn.heat(g.i, merged)}, nil
	})
	if err != nil || c.Note != "" {
		return c, err
	}
	d := &UtilData{TimeBins: bins, Rows: rows}
	c.Footnote = "Each cell: % of the bin in which the GPU ran at least one kernel (nsys recipe cuda_gpu_time_util_map). " +
		"Red: idle bins (0%). Grey: outside the profile's session."
	graphs := 0
	for _, r := range rows {
		graphs += r.Graphs
	}
	if graphs > 0 {
		c.Footnote += " " + nsysx.GraphTraceNote(graphs)
	}
	c.legend = heatLegend()
	c.grid = [][]*plot.Plot{{utilPanel(d)}}
	return c.done(math.Min(2.6+0.42*float64(len(d.Rows)), 24), utilText(d), utilVega(c, d), d)
}

func utilPanel(d *UtilData) *plot.Plot {
	p := newPlot()
	n := len(d.Rows)
	r := &rects{seam: true}
	names := make([]string, n)
	for i, row := range d.Rows {
		names[i] = row.Label + "  " + rowMean(row.Values)
		heatLane(r, laneY(i, n), 0.42, row.Values, d.binStart, float64(d.BinSize), true)
	}
	p.Add(r)
	laneAxis(p, names)
	d.timeAxis(p, true)
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
	b.WriteString(d.header() + "; % of each bin with a kernel running (- outside the session)\n")
	for _, r := range d.Rows {
		b.WriteString(r.Label + " " + rowMean(r.Values) + ", busy " + fmtDur(float64(r.Busy)) + ":")
		for _, v := range r.Values {
			b.WriteString(" " + heatCell(v))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func utilVega(c *Chart, d *UtilData) map[string]any {
	unit := d.vegaUnit()
	var rows []map[string]any
	for _, r := range d.Rows {
		for k, v := range r.Values {
			state := "busy"
			switch {
			case math.IsNaN(v):
				state = "outside session"
			case v == 0:
				state = "idle"
			}
			t0, t1 := d.vegaBin(k, unit)
			rows = append(rows, map[string]any{"gpu": r.Label, "bin": k, "t0": t0, "t1": t1, "util": nullable(v), "state": state})
		}
	}
	enc := merge(vegaX(unit), map[string]any{
		"y": map[string]any{"field": "gpu", "type": "nominal", "sort": laneLabels(d.Rows), "title": nil, "axis": map[string]any{"labelLimit": 320}},
		"tooltip": []any{map[string]any{"field": "gpu"}, map[string]any{"field": "t0", "title": "bin start (" + unit.name + ")"},
			map[string]any{"field": "util", "title": "utilisation %", "format": ".1f"}, map[string]any{"field": "state"}},
	})
	busy := map[string]any{
		"transform": []any{map[string]any{"filter": "datum.state === 'busy'"}},
		"mark":      map[string]any{"type": "rect"},
		"encoding": merge(enc, map[string]any{"color": map[string]any{"field": "util", "type": "quantitative",
			"title": "utilisation %", "scale": map[string]any{"scheme": "viridis", "domain": []any{0, 100}}}}),
		"params": zoomX(),
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
