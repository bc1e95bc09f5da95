package plots

import (
	"context"
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// The binned charts, gpu-util and nccl: one row per GPU of the profiles'
// GPU operations on common time bins.

// TimeBins is how a binned chart cuts time: Bins bins of BinSize ns, bin 0
// starting at Start.
type TimeBins struct {
	Bins    int
	BinSize int64 // ns
	Start   int64 // time of bin 0 (ns, on the common timeline or in the window's profile)
}

// GPULane is what a row of a binned chart is of: a GPU of a process of a
// profile.
type GPULane struct {
	Label   string // the row's title (led by Profile when there are several profiles)
	Profile string // the profile's label
	PID     int64
	Device  int64
}

// lane is the lane of a row that embeds it.
func (l GPULane) lane() GPULane { return l }

// laneLabels are the labels of the rows, in order (the lanes' sort in the
// Vega-Lite specs).
func laneLabels[R interface{ lane() GPULane }](rows []R) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.lane().Label)
	}
	return out
}

// binnedGPU is a GPU of profile i with its operations, as binnedChart
// hands it to a chart's row.
type binnedGPU struct {
	GPULane
	i   int
	ops []gpuOp
}

// binnedChart starts a binned chart: it loads and bins the profiles' GPU
// operations (defBins unless Options.Bins) and asks row for the row of each
// GPU of each process of each profile, in order; the chart gets the subtitle
// both charts have. Where there is nothing to draw (check, when set, says
// why given the loaded operations) it is noData's chart, without rows.
func binnedChart[R any](ctx context.Context, ps []*nsysx.Profile, o *Options, name, title string, defBins int,
	check func(ops [][]gpuOp, labels []string) string, row func(bn *binning, g binnedGPU) (R, error)) (*Chart, TimeBins, []R, error) {
	if o == nil {
		o = &Options{}
	}
	labels := profileLabels(ps)
	sub := strings.Join(labels, ", ")
	ops, wins, note, err := loadAll(ctx, ps, labels, o)
	if err != nil {
		return nil, TimeBins{}, nil, err
	}
	if note == "" && check != nil {
		note = check(ops, labels)
	}
	var bn *binning
	if note == "" {
		if bn, note, err = makeBinning(ctx, ps, ops, wins, o.bins(defBins)); err != nil {
			return nil, TimeBins{}, nil, err
		}
	}
	if note != "" {
		return noData(name, title, sub, note), TimeBins{}, nil, nil
	}
	var rows []R
	for i := range labels {
		keys, m := byDevice(bn.ops[i])
		for _, k := range keys {
			label := fmt.Sprintf("GPU %d · PID %d", k.dev, k.pid)
			if len(labels) > 1 {
				label = labels[i] + " · " + label
			}
			r, err := row(bn, binnedGPU{GPULane{label, labels[i], k.pid, k.dev}, i, m[k]})
			if err != nil {
				return nil, TimeBins{}, nil, err
			}
			rows = append(rows, r)
		}
	}
	c := newChart(name, title)
	c.Subtitle = fmt.Sprintf("%s · %d bins of %s", sub, bn.bins, fmtDur(float64(bn.size)))
	if w, _, _ := resolveWindow(ctx, ps[0], o); w.set {
		c.Subtitle += " · " + w.label
	}
	return c, TimeBins{Bins: bn.bins, BinSize: bn.size, Start: bn.start}, rows, nil
}

// heat returns the bins of spans in profile i (see heatBins).
func (bn *binning) heat(i int, spans []span) []float64 {
	return heatBins(spans, bn.size, bn.bins, bn.offsets[i], bn.ends[i])
}

// binStart is the time bin k starts.
func (t TimeBins) binStart(k int) float64 { return float64(t.Start + int64(k)*t.BinSize) }

// end is the time the last bin ends.
func (t TimeBins) end() float64 { return float64(t.Start) + float64(int64(t.Bins)*t.BinSize) }

// header is the first line of a binned chart's text, before its own words.
func (t TimeBins) header() string { return fmt.Sprintf("bin size %d ns, %d bins", t.BinSize, t.Bins) }

// timeAxis spans p's x axis over the bins, ticked in the unit their end
// calls for, with the axis title when titled.
func (t TimeBins) timeAxis(p *plot.Plot, titled bool) {
	unit := pickTimeUnit(t.end())
	p.X.Min, p.X.Max = float64(t.Start), t.end()
	p.X.Tick.Marker = timeTicks{unit}
	if titled {
		p.X.Label.Text = "time (" + unit.name + ")"
	}
}

// vegaUnit is the unit of the Vega-Lite times: the one the end calls for.
func (t TimeBins) vegaUnit() timeUnit { return pickTimeUnit(t.end()) }

// vegaBin returns the "t0" and "t1" fields of bin k's Vega-Lite rows, in unit.
func (t TimeBins) vegaBin(k int, unit timeUnit) (t0, t1 float64) {
	s := t.binStart(k)
	return round6(s / unit.ns), round6((s + float64(t.BinSize)) / unit.ns)
}

// vegaX is the x encoding of the bins' rows (t0 to t1), titled in unit.
func vegaX(unit timeUnit) map[string]any {
	return map[string]any{
		"x":  map[string]any{"field": "t0", "type": "quantitative", "title": "time (" + unit.name + ")"},
		"x2": map[string]any{"field": "t1"},
	}
}
