package plots

import (
	"context"
	"fmt"
	"image/color"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// MemOpsData is what the memops chart draws: GPU memory operations by
// total time (cuda_gpu_mem_time_sum) and by total size
// (cuda_gpu_mem_size_sum); either is nil when not drawn.
type MemOpsData struct {
	ByTime, BySize *Bars
}

// MemOps draws the GPU memory operations (memcpy by direction, memset) as
// two bar charts: total GPU time and total bytes. by is "time", "size" or
// "" for both.
func MemOps(ctx context.Context, p *nsysx.Profile, by string) (*Chart, error) {
	title := "GPU memory operations by time and size"
	switch by {
	case "time":
		title = "GPU memory operations by total time"
	case "size":
		title = "GPU memory operations by total size"
	case "":
	default:
		return nil, usagef("memops: --by takes time or size, not %q", by)
	}
	d := &MemOpsData{}
	sides := []memOpsSide{
		{"size", "By time", "cuda_gpu_mem_time_sum", "Total Time", "total GPU time", pickTimeUnit, fmtDur, colMemcpy, " · %s of GPU time", &d.ByTime},
		{"time", "By size", "cuda_gpu_mem_size_sum", "Total", "total size", pickSizeUnit, fmtBytes, colMemset, " · %s moved or set", &d.BySize},
	}
	var row []*plot.Plot
	var text, sub string
	for _, s := range sides {
		if by == s.skipBy {
			continue
		}
		b, res, err := rankMemOps(ctx, p, s.report, s.valueCol)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return noData("memops", title, p.Base(), skippedNote(res, "no GPU memory operations in "+p.Path)), nil
		}
		*s.bars = b
		pl, err := barPanel(b, s.axis, s.unit(b.Bars[0].Value), s.format, s.col)
		if err != nil {
			return nil, err
		}
		pl.Title.Text = s.title
		row = append(row, pl)
		text += s.title + ":\n" + barsText(b, s.format, "ops")
		sub += fmt.Sprintf(s.sub, s.format(b.Total))
	}
	c := newChart("memops", title)
	c.Subtitle = p.Base() + sub
	c.Footnote = "Bars: totals per kind of operation (nsys cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum); labels: total and share of all memory operations."
	c.grid = [][]*plot.Plot{row}
	n := 0
	if d.ByTime != nil {
		n = len(d.ByTime.Bars)
	}
	if d.BySize != nil {
		n = max(n, len(d.BySize.Bars))
	}
	return c.done(barsHeight(n)+0.3, text, memOpsVega(c, d), d)
}

// memOpsSide is one of the memops panels: the nsys report it ranks, the
// value column, and how the panel is drawn and summed up in the subtitle.
type memOpsSide struct {
	skipBy                        string // the --by value that leaves it out
	title, report, valueCol, axis string
	unit                          func(float64) timeUnit
	format                        valueFormat
	col                           color.Color
	sub                           string // subtitle part, formatting the total
	bars                          **Bars // where the ranked rows go in MemOpsData
}

// rankMemOps ranks the top 20 operations of report by valueCol; the bars
// are nil when the report was skipped or has no rows (res says why).
func rankMemOps(ctx context.Context, p *nsysx.Profile, report, valueCol string) (b *Bars, res *nsysx.Result, err error) {
	res, err = p.Stats(ctx, report)
	if err != nil {
		return nil, nil, err
	}
	if res.Skipped != "" || res.Len() == 0 {
		return nil, res, nil
	}
	b, err = rankRows(res, "Operation", valueCol, "Count", 20, plainLabels)
	return b, res, err
}

// memOpsVega puts the one or two rankings side by side.
func memOpsVega(c *Chart, d *MemOpsData) map[string]any {
	var parts []any
	for _, x := range []struct {
		b    *Bars
		axis string
		u    timeUnit
	}{{d.ByTime, "total GPU time", timeUnit{}}, {d.BySize, "total size", timeUnit{}}} {
		if x.b == nil {
			continue
		}
		u := pickTimeUnit(x.b.Bars[0].Value)
		if x.axis == "total size" {
			u = pickSizeUnit(x.b.Bars[0].Value)
		}
		s := barsVega(x.axis, x.b, x.axis, u, "operations")
		delete(s, "$schema")
		delete(s, "config")
		s["width"] = 340
		parts = append(parts, s)
	}
	spec := vegaBase(c.Title, 0, 0)
	delete(spec, "width")
	spec["hconcat"] = parts
	return withSubtitle(spec, c.Subtitle)
}
