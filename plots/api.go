package plots

import (
	"context"
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// APICalls draws the top n CUDA API functions by total CPU time spent in
// them, as horizontal bars with their share of all CUDA API time; the rest
// are summed into "other". The data is the cuda_api_sum report.
func APICalls(ctx context.Context, p *nsysx.Profile, n int) (*Chart, error) {
	if n <= 0 {
		n = 15
	}
	title := fmt.Sprintf("Top %d CUDA API calls by total time", n)
	res, err := p.Stats(ctx, "cuda_api_sum")
	if err != nil {
		return nil, err
	}
	if res.Skipped != "" || res.Len() == 0 {
		return noData("api", title, p.Base(), skippedNote(res, "no CUDA API calls in "+p.Path)), nil
	}
	b, err := rankRows(res, "Name", "Total Time", "Num Calls", n, plainLabels)
	if err != nil {
		return nil, err
	}
	var calls int64
	for _, bar := range b.Bars {
		calls += bar.Count
	}
	if b.Rows <= n {
		title = "CUDA API calls by total time"
	}
	unit := pickTimeUnit(b.Bars[0].Value)
	c := newChart("api", title)
	c.Subtitle = fmt.Sprintf("%s · %d functions, %d calls, %s in CUDA API calls", p.Base(), b.Rows, calls, fmtDur(b.Total))
	c.Footnote = "Bar: CPU time spent in the function (sum over calls); label: that total and its share of all CUDA API time (nsys cuda_api_sum)."
	panel, err := barPanel(b, "total time in calls", unit, fmtDur, colKernel)
	if err != nil {
		return nil, err
	}
	c.grid = [][]*plot.Plot{{panel}}
	c.Height = barsHeight(len(b.Bars))
	c.text = barsText(b, fmtDur, "calls")
	c.vega = withSubtitle(barsVega(title, b, "total time in calls", unit, "calls"), c.Subtitle)
	c.data = b
	return c, nil
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
