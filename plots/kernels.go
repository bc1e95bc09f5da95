package plots

import (
	"context"
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// Kernels draws the top n CUDA kernels by total GPU time as horizontal
// bars, each labelled with its total and its share of all kernel time; the
// remaining kernels are summed into one "other" bar. The data is the
// cuda_gpu_kern_sum report. Kernel names are shortened (ShortName).
func Kernels(ctx context.Context, p *nsysx.Profile, n int) (*Chart, error) {
	return topTimes[0].draw(ctx, p, n)
}

// APICalls draws the top n CUDA API functions by total CPU time spent in
// them, as horizontal bars with their share of all CUDA API time; the rest
// are summed into "other". The data is the cuda_api_sum report.
func APICalls(ctx context.Context, p *nsysx.Profile, n int) (*Chart, error) {
	return topTimes[1].draw(ctx, p, n)
}

// topTime is a chart of the names of an nsys report with the largest total
// times, as bars: the report and its count column, how names are labelled,
// what the bars are and by which time (the title), what the counts are,
// the subtitle's words for the names and the total, the value axis and the
// footnote.
type topTime struct {
	name, report, countCol string
	labels                 func([]string) []string
	things, by, counts     string
	names, ofTotal         string
	axis, footnote         string
}

var topTimes = []topTime{
	{"kernels", "cuda_gpu_kern_sum", "Instances", labelNames, "CUDA kernels", "total GPU time", "launches",
		"kernels", "of GPU kernel time", "total GPU time",
		"Bar: total GPU time of the kernel (sum over launches); label: that total and its share of all kernel time (nsys cuda_gpu_kern_sum)."},
	{"api", "cuda_api_sum", "Num Calls", plainLabels, "CUDA API calls", "total time", "calls",
		"functions", "in CUDA API calls", "total time in calls",
		"Bar: CPU time spent in the function (sum over calls); label: that total and its share of all CUDA API time (nsys cuda_api_sum)."},
}

// draw draws the top n (15 when n ≤ 0), the rest summed into "other".
func (s *topTime) draw(ctx context.Context, p *nsysx.Profile, n int) (*Chart, error) {
	if n <= 0 {
		n = 15
	}
	title := fmt.Sprintf("Top %d %s by %s", n, s.things, s.by)
	res, err := p.Stats(ctx, s.report)
	if err != nil {
		return nil, err
	}
	if res.Skipped != "" || res.Len() == 0 {
		return noData(s.name, title, p.Base(), skippedNote(res, "no "+s.things+" in "+p.Path)), nil
	}
	b, err := rankRows(res, "Name", "Total Time", s.countCol, n, s.labels)
	if err != nil {
		return nil, err
	}
	var count int64
	for _, bar := range b.Bars {
		count += bar.Count
	}
	if b.Rows <= n {
		title = s.things + " by " + s.by
	}
	unit := pickTimeUnit(b.Bars[0].Value)
	c := newChart(s.name, title)
	c.Subtitle = fmt.Sprintf("%s · %d %s, %d %s, %s %s", p.Base(), b.Rows, s.names, count, s.counts, fmtDur(b.Total), s.ofTotal)
	c.Footnote = s.footnote
	panel, err := barPanel(b, s.axis, unit, fmtDur, colKernel)
	if err != nil {
		return nil, err
	}
	c.grid = [][]*plot.Plot{{panel}}
	return c.done(barsHeight(len(b.Bars)), barsText(b, fmtDur, s.counts), withSubtitle(barsVega(title, b, s.axis, unit, s.counts), c.Subtitle), b)
}

// plainLabels truncates names that need no C++ shortening.
func plainLabels(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		n = strings.TrimSuffix(strings.TrimPrefix(n, "["), "]") // "[CUDA memset]"
		out[i] = truncate(nsysx.StripAPIVersion(n), maxLabel)
	}
	return out
}

// skippedNote is a SKIPPED report's message, or def.
func skippedNote(res *nsysx.Result, def string) string {
	if res != nil && res.Skipped != "" {
		return res.Skipped
	}
	return def
}
