package plots

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// KernelHistData is what kernel-hist draws.
type KernelHistData struct {
	Name      string    // the kernel's full (demangled) name
	Label     string    // shortened
	Durations []float64 // ns, in table order
	Bins      []HistBin // ns
	Matches   int       // kernels the request matched (the one with the most time is drawn)
}

// KernelHist draws the duration histogram of one kernel: every launch of
// the kernel named name (its full demangled name, its short name, its
// shortened label, or a part of one of them; the matching kernel with the
// most GPU time wins; "" takes the top kernel). bins 0 chooses the bins as
// nsys's cuda_gpu_kern_hist notebook does (Freedman-Diaconis).
func KernelHist(ctx context.Context, p *nsysx.Profile, name string, bins int) (*Chart, error) {
	title := "Kernel duration histogram"
	d, note, err := kernelHistData(ctx, p, name, bins)
	if err != nil {
		return nil, err
	}
	if note != "" {
		return noData("kernel-hist", title, p.Base(), note), nil
	}
	c := newChart("kernel-hist", "Duration histogram of "+d.Label)
	s := slices.Clone(d.Durations)
	slices.Sort(s)
	var sum float64
	for _, v := range s {
		sum += v
	}
	c.Subtitle = fmt.Sprintf("%s · %d launches, %s in total · min %s, median %s, max %s", p.Base(), len(s), fmtDur(sum),
		fmtDur(s[0]), fmtDur(quantile(s, 0.5)), fmtDur(s[len(s)-1]))
	if d.Matches > 1 {
		c.Subtitle += fmt.Sprintf(" · %q matched %d kernels; this one has the most GPU time", name, d.Matches)
	}
	c.Footnote = "Kernel: " + truncate(d.Name, 400)
	unit := pickTimeUnit(s[len(s)-1])
	pl := newPlot()
	pl.Add(yGrid())
	pl.Add(&histBars{bins: d.Bins, scale: unit.ns, fill: colKernel})
	med, _ := plotter.NewLine(plotter.XYs{{X: quantile(s, 0.5) / unit.ns, Y: 0}, {X: quantile(s, 0.5) / unit.ns, Y: float64(maxCount(d.Bins)) * 1.05}})
	med.Color, med.Width = colMedian, 1.2
	pl.Add(med)
	pl.Y.Min = 0
	pl.Y.Label.Text = "launches"
	pl.Y.Tick.Marker = intTicks{}
	pl.X.Label.Text = "duration (" + unit.name + ")"
	pl.X.Tick.Marker = valueTicks{8}
	c.legend = []legendItem{{"launches per duration bin", colKernel, false}, {"median", colMedian, true}}
	c.grid = [][]*plot.Plot{{pl}}
	return c.done(5, histText(d, unit), kernelHistVega(c, d, unit), d)
}

func kernelHistData(ctx context.Context, p *nsysx.Profile, name string, bins int) (*KernelHistData, string, error) {
	if !p.HasTable(tKernel) {
		return nil, p.Path + " does not contain CUDA kernel data.", nil
	}
	res, err := p.Stats(ctx, "cuda_gpu_kern_sum")
	if err != nil {
		return nil, "", err
	}
	if res.Skipped != "" || res.Len() == 0 {
		return nil, skippedNote(res, "no CUDA kernels in "+p.Path), nil
	}
	nc := res.Col("Name")
	full := make([]string, res.Len())
	for i := range full {
		full[i] = nc.Text(i)
	}
	labels := labelNames(full)
	pick, matches := -1, 0
	if name == "" {
		pick, matches = 0, 1
	} else {
		for _, exact := range []bool{true, false} {
			for i, f := range full {
				ok := f == name || labels[i] == name || ShortName(f) == name
				if !exact {
					l := strings.ToLower(name)
					ok = strings.Contains(strings.ToLower(f), l) || strings.Contains(strings.ToLower(labels[i]), l)
				}
				if ok {
					matches++
					if pick < 0 {
						pick = i // rows are by total time, descending
					}
				}
			}
			if matches > 0 {
				break
			}
		}
	}
	if pick < 0 {
		return nil, fmt.Sprintf("no kernel named like %q in %s%s", name, p.Path, nsysx.Suggest(name, labels)), nil
	}
	d := &KernelHistData{Name: full[pick], Label: labels[pick], Matches: matches}
	if d.Durations, err = kernelDurations(ctx, p, d.Name); err != nil {
		return nil, "", err
	}
	if len(d.Durations) == 0 {
		return nil, fmt.Sprintf("kernel %q has no launch with an end time in %s", d.Label, p.Path), nil
	}
	lo, w, n := fdBins(d.Durations, bins)
	d.Bins = histogram(d.Durations, lo, w, n)
	return d, "", nil
}

// kernelDurations returns the durations of the launches of the kernel whose
// demangled name (or short name, where the export lacks it) is name.
func kernelDurations(ctx context.Context, p *nsysx.Profile, name string) ([]float64, error) {
	if err := p.StringsErr(ctx); err != nil {
		return nil, err
	}
	col := "demangledName"
	if !p.HasColumn(tKernel, col) {
		col = "shortName"
	}
	t, err := p.Load(ctx, tKernel, "start", "end", col)
	if err != nil {
		return nil, err
	}
	st, en, nm := t.Col("start"), t.Col("end"), t.Col(col)
	match := map[int64]bool{}
	var out []float64
	for i := 0; i < t.N; i++ {
		if st.IsNull(i) || en.IsNull(i) || nm.IsNull(i) {
			continue
		}
		id := nm.Int(i)
		ok, seen := match[id]
		if !seen {
			s, _ := p.String(ctx, id)
			ok = s == name
			match[id] = ok
		}
		if ok {
			out = append(out, float64(en.Int(i))-float64(st.Int(i))) // no int64 wrap at extreme times
		}
	}
	return out, nil
}

func histText(d *KernelHistData, unit timeUnit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", d.Name)
	for _, h := range d.Bins {
		if h.Count > 0 {
			fmt.Fprintf(&b, "%12s – %-12s %6d\n", fmtDur(h.Lo), fmtDur(h.Hi), h.Count)
		}
	}
	return b.String()
}

func kernelHistVega(c *Chart, d *KernelHistData, unit timeUnit) map[string]any {
	var rows []map[string]any
	for _, h := range d.Bins {
		if h.Count > 0 {
			rows = append(rows, map[string]any{"lo": round6(h.Lo / unit.ns), "hi": round6(h.Hi / unit.ns), "count": h.Count})
		}
	}
	x := "duration (" + unit.name + ")"
	spec := vegaBase(c.Title, 760, 320)
	spec["data"] = map[string]any{"values": rows}
	spec["mark"] = map[string]any{"type": "rect", "color": hexColor(colKernel), "tooltip": true}
	spec["encoding"] = map[string]any{
		"x":  map[string]any{"field": "lo", "type": "quantitative", "title": x, "scale": map[string]any{"zero": false}},
		"x2": map[string]any{"field": "hi"},
		"y":  map[string]any{"field": "count", "type": "quantitative", "title": "launches"},
		"y2": map[string]any{"datum": 0},
	}
	_ = math.Inf
	return withSubtitle(spec, c.Subtitle)
}
