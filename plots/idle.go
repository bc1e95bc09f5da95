package plots

import (
	"context"
	"fmt"
	"image/color"
	"regexp"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// idleColors are the idle categories' colours, in nsysx.IdleCat order.
var idleColors = [nsysx.NumIdleCats]color.RGBA{
	colOverlap,               // sync call
	colMemcpy,                // synchronous copy
	colMemset,                // launching
	colKernel,                // other CUDA call
	{0xe5, 0xc4, 0x94, 0xff}, // OS runtime call
	colIdle,                  // host busy outside traced calls
	{0xba, 0xb0, 0xac, 0xff}, // before first / after last GPU work
}

// IdleData is what the idle chart draws: the breakdown behind the
// gpu_idle_breakdown report.
type IdleData struct {
	Idle *nsysx.Idle
}

// Idle draws each GPU's idle time split by what the host was doing
// (nsysx.Profile.IdleBreakdown): one row per GPU, a stacked bar per NVTX
// iteration (Options.Range, or names matching Options.Match; default
// "iteration N", "step N" ...) and one stacked bar of shares for the whole
// window.
func Idle(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) {
	if o == nil {
		o = &Options{}
	}
	title := "Why the GPU is idle"
	idle, err := p.IdleBreakdown(ctx, nsysx.IdleOptions{Iterations: o.Match, Range: o.Range})
	if err != nil {
		return nil, err
	}
	if idle.Skipped != "" {
		return noData("idle", title, p.Base(), idle.Skipped), nil
	}
	if o.OneDevice {
		idle.Devices = keepDevice(idle.Devices, int64(o.Device))
		if len(idle.Devices) == 0 {
			return noData("idle", title, p.Base(), fmt.Sprintf("no GPU %d in %s", o.Device, p.Path)), nil
		}
	}
	c := newChart("idle", title)
	var text strings.Builder
	for _, d := range idle.Devices {
		iter, whole := idlePanels(d)
		c.grid = append(c.grid, []*plot.Plot{iter, whole})
		text.WriteString(idleText(d))
	}
	c.colWeights = []float64{0.8, 0.2}
	all := idle.Devices[0].Spans[0]
	c.Subtitle = fmt.Sprintf("%s · GPU %d idle %s of %s (%s)", p.Base(), idle.Devices[0].Device, fmtDur(float64(all.Idle)),
		fmtDur(float64(all.End-all.Start)), fmtPct(100*float64(all.Idle)/float64(max(1, all.End-all.Start))))
	c.Footnote = "Idle: no kernel, memcpy or memset on any stream of the GPU. Each idle instant is labelled by what the " +
		"thread that launched the GPU's next operation was doing (nsysx gpu_idle_breakdown)."
	if idle.Note != "" {
		c.Footnote += " " + idle.Note
	}
	for i, col := range idleColors {
		c.legend = append(c.legend, legendItem{nsysx.IdleCat(i).String(), col, false})
	}
	return c.done(1.4+3.2*float64(len(idle.Devices)), text.String(), idleVega(c, idle), &IdleData{idle})
}

func keepDevice(ds []nsysx.IdleDevice, dev int64) []nsysx.IdleDevice {
	for _, d := range ds {
		if d.Device == dev {
			return []nsysx.IdleDevice{d}
		}
	}
	return nil
}

// idlePanels: the iterations' stacked bars (ms) and the whole window's
// stacked shares (%).
func idlePanels(d nsysx.IdleDevice) (*plot.Plot, *plot.Plot) {
	iter := newPlot()
	iter.Title.Text = fmt.Sprintf("GPU %d: idle time per iteration", d.Device)
	iter.Y.Label.Text = "idle (ms)"
	r := &rects{}
	var ticks []plot.Tick
	for i, sp := range d.Spans[1:] {
		y := 0.0
		for cat, t := range sp.ByCat {
			ms := float64(t) / 1e6
			r.items = append(r.items, rect{float64(i) - 0.4, float64(i) + 0.4, y, y + ms, idleColors[cat], ""})
			y += ms
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: iterTick(sp)})
	}
	if len(ticks) > 0 {
		iter.Add(r)
		iter.X.Label.Text = "NVTX range " + strings.TrimRight(d.Spans[1].Iteration, "0123456789 _#:=-") + " (number in its name, or instance)"
		iter.X.Tick.Marker = sparseTicks(ticks)
		iter.X.Min, iter.X.Max = -0.6, float64(len(ticks))-0.4
		iter.Y.Min = 0
	} else {
		iter.X.Label.Text = "no NVTX iterations found"
	}
	whole := newPlot()
	whole.Title.Text = "whole window"
	whole.Y.Label.Text = "% of idle time"
	wr := &rects{}
	sp, y := d.Spans[0], 0.0
	for cat, t := range sp.ByCat {
		pct := 100 * float64(t) / float64(max(1, sp.Idle))
		wr.items = append(wr.items, rect{-0.4, 0.4, y, y + pct, idleColors[cat], ""})
		y += pct
	}
	whole.Add(wr)
	whole.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "all"}})
	whole.X.Min, whole.X.Max, whole.Y.Min, whole.Y.Max = -0.6, 0.6, 0, 100
	return iter, whole
}

// iterTick labels an iteration by the number its name ends in ("iteration
// 12": 12), else by its instance number.
func iterTick(sp nsysx.IdleSpan) string {
	if m := trailingNumber.FindString(sp.Iteration); m != "" {
		return m
	}
	return fmt.Sprint(sp.Instance)
}

var trailingNumber = regexp.MustCompile(`\d+$`)

// sparseTicks keeps about 20 labels.
func sparseTicks(t []plot.Tick) plot.Ticker {
	step := max(1, len(t)/20)
	out := make([]plot.Tick, 0, len(t))
	for i, x := range t {
		if i%step != 0 {
			x.Label = ""
		}
		out = append(out, x)
	}
	return plot.ConstantTicks(out)
}

func idleText(d nsysx.IdleDevice) string {
	var b strings.Builder
	for _, sp := range d.Spans {
		name := "whole window"
		if sp.Instance >= 0 {
			name = fmt.Sprintf("%s [%d]", sp.Iteration, sp.Instance)
		}
		fmt.Fprintf(&b, "GPU %d, %s: idle %s of %s\n", d.Device, name, fmtDur(float64(sp.Idle)), fmtDur(float64(sp.End-sp.Start)))
		for cat, t := range sp.ByCat {
			if t > 0 {
				fmt.Fprintf(&b, "  %-32s %10s  %s\n", nsysx.IdleCat(cat), fmtDur(float64(t)), fmtPct(100*float64(t)/float64(sp.Idle)))
			}
		}
	}
	return b.String()
}

// idleVega: stacked bars per iteration, one row per GPU.
func idleVega(c *Chart, idle *nsysx.Idle) map[string]any {
	var vals []any
	for _, d := range idle.Devices {
		spans := d.Spans
		if len(spans) > 1 {
			spans = spans[1:] // the whole window would dwarf the iterations
		}
		for _, sp := range spans {
			label := "all"
			if sp.Instance >= 0 {
				label = iterTick(sp)
			}
			for cat, t := range sp.ByCat {
				vals = append(vals, map[string]any{"gpu": d.Device, "window": label, "order": sp.Instance,
					"category": nsysx.IdleCat(cat).String(), "ms": round6(float64(t) / 1e6),
					"share": round6(100 * float64(t) / float64(max(1, sp.Idle)))})
			}
		}
	}
	var domain, rng []any
	for i, col := range idleColors {
		domain, rng = append(domain, nsysx.IdleCat(i).String()), append(rng, hexColor(col))
	}
	spec := vegaBase(c.Title, 640, 220)
	spec["data"] = map[string]any{"values": vals}
	spec["mark"] = map[string]any{"type": "bar", "tooltip": true}
	spec["encoding"] = map[string]any{
		"x":     map[string]any{"field": "window", "type": "ordinal", "sort": map[string]any{"field": "order"}, "title": "iteration"},
		"y":     map[string]any{"field": "ms", "type": "quantitative", "stack": "zero", "title": "idle (ms)"},
		"color": map[string]any{"field": "category", "type": "nominal", "scale": map[string]any{"domain": domain, "range": rng}, "title": "host was"},
		"row":   map[string]any{"field": "gpu", "type": "ordinal", "title": "GPU"},
		"order": map[string]any{"field": "category"},
	}
	return withSubtitle(spec, c.Subtitle)
}
