package plots

import (
	"context"
	"fmt"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// Kernels draws the top n CUDA kernels by total GPU time as horizontal
// bars, each labelled with its total and its share of all kernel time; the
// remaining kernels are summed into one "other" bar. The data is the
// cuda_gpu_kern_sum report. Kernel names are shortened (ShortName).
func Kernels(ctx context.Context, p *nsysx.Profile, n int) (*Chart, error) {
	if n <= 0 {
		n = 15
	}
	title := fmt.Sprintf("Top %d CUDA kernels by total GPU time", n)
	res, err := p.Stats(ctx, "cuda_gpu_kern_sum")
	if err != nil {
		return nil, err
	}
	if res.Skipped != "" || res.Len() == 0 {
		return noData("kernels", title, p.Base(), skippedNote(res, "no CUDA kernels in "+p.Path)), nil
	}
	b, err := rankRows(res, "Name", "Total Time", "Instances", n, labelNames)
	if err != nil {
		return nil, err
	}
	var launches int64
	for _, bar := range b.Bars {
		launches += bar.Count
	}
	if b.Rows <= n {
		title = "CUDA kernels by total GPU time"
	}
	unit := pickTimeUnit(b.Bars[0].Value)
	c := newChart("kernels", title)
	c.Subtitle = fmt.Sprintf("%s · %d kernels, %d launches, %s of GPU kernel time", p.Base(), b.Rows, launches, fmtDur(b.Total))
	c.Footnote = "Bar: total GPU time of the kernel (sum over launches); label: that total and its share of all kernel time (nsys cuda_gpu_kern_sum)."
	panel, err := barPanel(b, "total GPU time", unit, fmtDur, colKernel)
	if err != nil {
		return nil, err
	}
	c.grid = [][]*plot.Plot{{panel}}
	c.Height = barsHeight(len(b.Bars))
	c.text = barsText(b, fmtDur, "launches")
	c.vega = withSubtitle(barsVega(title, b, "total GPU time", unit, "launches"), c.Subtitle)
	c.data = b
	return c, nil
}

// skippedNote is a SKIPPED report's message, or def.
func skippedNote(res *nsysx.Result, def string) string {
	if res != nil && res.Skipped != "" {
		return res.Skipped
	}
	return def
}
