package plots

import (
	"context"
	"fmt"

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
	var row []*plot.Plot
	var text, sub string
	c := newChart("memops", title)
	if by != "size" {
		res, err := p.Stats(ctx, "cuda_gpu_mem_time_sum")
		if err != nil {
			return nil, err
		}
		if res.Skipped != "" || res.Len() == 0 {
			return noData("memops", title, p.Base(), skippedNote(res, "no GPU memory operations in "+p.Path)), nil
		}
		if d.ByTime, err = rankRows(res, "Operation", "Total Time", "Count", 20, plainLabels); err != nil {
			return nil, err
		}
		pl, err := barPanel(d.ByTime, "total GPU time", pickTimeUnit(d.ByTime.Bars[0].Value), fmtDur, colMemcpy)
		if err != nil {
			return nil, err
		}
		pl.Title.Text = "By time"
		row = append(row, pl)
		text += "By time:\n" + barsText(d.ByTime, fmtDur, "ops")
		sub = fmt.Sprintf(" · %s of GPU time", fmtDur(d.ByTime.Total))
	}
	if by != "time" {
		res, err := p.Stats(ctx, "cuda_gpu_mem_size_sum")
		if err != nil {
			return nil, err
		}
		if res.Skipped != "" || res.Len() == 0 {
			return noData("memops", title, p.Base(), skippedNote(res, "no GPU memory operations in "+p.Path)), nil
		}
		if d.BySize, err = rankRows(res, "Operation", "Total", "Count", 20, plainLabels); err != nil {
			return nil, err
		}
		pl, err := barPanel(d.BySize, "total size", pickSizeUnit(d.BySize.Bars[0].Value), fmtBytes, colMemset)
		if err != nil {
			return nil, err
		}
		pl.Title.Text = "By size"
		row = append(row, pl)
		text += "By size:\n" + barsText(d.BySize, fmtBytes, "ops")
		sub += fmt.Sprintf(" · %s moved or set", fmtBytes(d.BySize.Total))
	}
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
	c.Height = barsHeight(n) + 0.3
	c.text = text
	c.vega = memOpsVega(c, d)
	c.data = d
	return c, nil
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
