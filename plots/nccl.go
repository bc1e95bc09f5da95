package plots

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/nsysx/nsysx/internal/checked"
	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// NCCLRow is one GPU (of a process of a profile): its communication and
// compute kernels.
type NCCLRow struct {
	GPULane
	NCCLKernels     int
	ComputeKernels  int
	NCCLTime        int64 // sum of the NCCL kernels' durations, ns
	ComputeTime     int64 // sum of the other kernels' durations, ns
	NCCLBusy        int64 // time with an NCCL kernel running (overlaps once)
	ComputeBusy     int64 // time with a compute kernel running
	Overlap         int64 // time with both running
	All, NCCL       []float64
	Compute, Shared []float64 // % of each bin: any kernel, NCCL, compute, both (NaN outside the session)
}

// NCCLData is what the nccl chart draws: nsys's nccl_gpu_time_util_map
// bins per GPU, and the totals.
type NCCLData struct {
	TimeBins
	Rows []NCCLRow
}

// NCCL draws communication against compute per GPU over time: for each time
// bin, the share in which NCCL kernels (short name starting with "nccl", as
// nsys's NCCL recipes classify them) ran, the share in which other kernels
// ran, and, shaded, the share in which both overlapped. One row per GPU of
// each profile: give the reports of all ranks (rank0, rank1 ...), aligned on
// their session start times as nsys's nccl_gpu_time_util_map does. Options:
// Bins (default 100), Range/Start/End, Device.
func NCCL(ctx context.Context, ps []*nsysx.Profile, o *Options) (*Chart, error) {
	c, bins, rows, err := binnedChart(ctx, ps, o, "nccl", "NCCL communication vs compute per GPU", 100, noNCCL, ncclRow)
	if err != nil || c.Note != "" {
		return c, err
	}
	d := &NCCLData{TimeBins: bins, Rows: rows}
	c.Footnote = "Per bin: % of the time with an NCCL kernel running, with another (compute) kernel running, and with both (overlap, shaded); " +
		"nsys recipe nccl_gpu_time_util_map. Row titles: summed kernel time and the time both ran at once."
	c.legend = []legendItem{{"compute kernels", withAlpha(colCompute, 0.35), false}, {"NCCL kernels", withAlpha(colNCCL, 0.45), false},
		{"overlap (both)", withAlpha(colOverlap, 0.75), false}}
	for i := range d.Rows {
		c.grid = append(c.grid, []*plot.Plot{ncclPanel(d, &d.Rows[i], i == len(d.Rows)-1)})
	}
	return c.done(math.Min(1.9+1.9*float64(len(d.Rows)), 30), ncclText(d), ncclVega(c, d), d)
}

// noNCCL is the note for profiles without NCCL kernels.
func noNCCL(ops [][]gpuOp, labels []string) string {
	for _, v := range ops {
		for _, op := range v {
			if op.nccl {
				return ""
			}
		}
	}
	return fmt.Sprintf("no NCCL kernels (short names starting with \"nccl\") in %s", strings.Join(labels, ", "))
}

// ncclRow is the row of GPU g: the kernel counts and times, the busy times
// and the bins. A kernel time past 64 bits is an *nsysx.OverflowError (the
// ops' times are not negative: end - start cannot wrap, their sum can).
func ncclRow(bn *binning, g binnedGPU) (NCCLRow, error) {
	row := NCCLRow{GPULane: g.GPULane}
	i, ops := g.i, g.ops
	for _, op := range ops {
		sum, n := &row.ComputeTime, &row.ComputeKernels
		if op.nccl {
			sum, n = &row.NCCLTime, &row.NCCLKernels
		}
		*n++
		var ok bool
		if *sum, ok = checked.Add(*sum, op.e-op.s); !ok {
			return row, fmt.Errorf("NCCL chart of %s: %w", g.Label, &nsysx.OverflowError{What: "a sum of kernel durations"})
		}
	}
	all := consolidate(bn.spans(i, ops, nil))
	nc := consolidate(bn.spans(i, ops, func(op gpuOp) bool { return op.nccl }))
	co := consolidate(bn.spans(i, ops, func(op gpuOp) bool { return !op.nccl }))
	ov := intersect(nc, co)
	row.NCCLBusy, row.ComputeBusy, row.Overlap = total(nc), total(co), total(ov)
	row.All, row.NCCL, row.Compute, row.Shared = bn.heat(i, all), bn.heat(i, nc), bn.heat(i, co), bn.heat(i, ov)
	return row, nil
}

func ncclPanel(d *NCCLData, r *NCCLRow, last bool) *plot.Plot {
	p := newPlot()
	p.Title.Text = fmt.Sprintf("%s — NCCL %s in %d kernels, compute %s, overlap %s", r.Label,
		fmtDur(float64(r.NCCLTime)), r.NCCLKernels, fmtDur(float64(r.ComputeTime)), fmtDur(float64(r.Overlap)))
	p.Title.TextStyle.Font.Size = 10
	p.Title.TextStyle.Font.Variant = "Sans"
	x0, w := float64(d.Start), float64(d.BinSize)
	p.Add(&stepArea{x0: x0, w: w, values: r.Compute, fill: withAlpha(colCompute, 0.35), line: colCompute})
	p.Add(&stepArea{x0: x0, w: w, values: r.NCCL, fill: withAlpha(colNCCL, 0.45), line: colNCCL})
	p.Add(&stepArea{x0: x0, w: w, values: r.Shared, fill: withAlpha(colOverlap, 0.75)})
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Label.Text = "% of bin"
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 50, Label: "50"}, {Value: 100, Label: "100"}})
	d.timeAxis(p, last)
	g := xGrid()
	g.Horizontal.Color = colGrid
	p.Add(g)
	return p
}

func ncclText(d *NCCLData) string {
	var b strings.Builder
	b.WriteString(d.header() + "\n")
	for _, r := range d.Rows {
		fmt.Fprintf(&b, "%s: NCCL %d kernels, %s (busy %s); compute %d kernels, %s (busy %s); overlap %s\n",
			r.Label, r.NCCLKernels, fmtDur(float64(r.NCCLTime)), fmtDur(float64(r.NCCLBusy)),
			r.ComputeKernels, fmtDur(float64(r.ComputeTime)), fmtDur(float64(r.ComputeBusy)), fmtDur(float64(r.Overlap)))
	}
	return b.String()
}

func ncclVega(c *Chart, d *NCCLData) map[string]any {
	unit := d.vegaUnit()
	var rows []map[string]any
	for _, r := range d.Rows {
		for k := 0; k < d.Bins; k++ {
			t0, t1 := d.vegaBin(k, unit)
			for _, s := range []struct {
				name string
				v    float64
			}{{"compute", r.Compute[k]}, {"NCCL", r.NCCL[k]}, {"overlap", r.Shared[k]}} {
				if math.IsNaN(s.v) {
					continue
				}
				rows = append(rows, map[string]any{"gpu": r.Label, "series": s.name, "t0": t0, "t1": t1, "pct": round6(s.v)})
			}
		}
	}
	inner := map[string]any{
		"width": 820, "height": 110,
		"mark": map[string]any{"type": "rect", "opacity": 0.55},
		"encoding": merge(vegaX(unit), map[string]any{
			"y":  map[string]any{"field": "pct", "type": "quantitative", "title": "% of bin", "scale": map[string]any{"domain": []any{0, 100}}},
			"y2": map[string]any{"datum": 0},
			"color": map[string]any{"field": "series", "type": "nominal", "title": nil,
				"scale": map[string]any{"domain": []any{"compute", "NCCL", "overlap"},
					"range": []any{hexColor(colCompute), hexColor(colNCCL), hexColor(colOverlap)}}},
			"order":   map[string]any{"field": "series", "sort": "ascending"},
			"tooltip": []any{map[string]any{"field": "gpu"}, map[string]any{"field": "series"}, map[string]any{"field": "t0", "title": "bin start"}, map[string]any{"field": "pct", "format": ".1f"}},
		}),
		"params": zoomX(),
	}
	spec := vegaBase(c.Title, 0, 0)
	delete(spec, "width")
	spec["data"] = map[string]any{"values": rows}
	spec["facet"] = map[string]any{"row": map[string]any{"field": "gpu", "type": "nominal", "sort": laneLabels(d.Rows), "title": nil,
		"header": map[string]any{"labelAngle": 0, "labelAlign": "left", "labelOrient": "top", "labelFontSize": 12}}}
	spec["spec"] = inner
	return withSubtitle(spec, c.Subtitle)
}
