package plots

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// CompareRow is one name's totals in the two profiles.
type CompareRow struct {
	Label, Name    string
	A, B           float64 // total time, ns
	CountA, CountB int64
	Other          bool // the names after the top N, summed
	// Change is the relative change (after/before - 1) of the name's time
	// as nsysx/compare measures it, Low and High its 95% bootstrap interval
	// (NaN where there is none), Verdict its verdict.
	Change, Low, High float64
	Verdict           string
}

// CompareData is what the compare chart draws.
type CompareData struct {
	What           string // "kernels" or "nvtx"
	NameA, NameB   string
	Rows           []CompareRow
	TotalA, TotalB float64
	Basis          string // the comparison's basis: "iterations" or "instances"
	TotalChange    string // the kernel total's verdict and interval, "" for NVTX
}

// Compare draws two profiles' summaries side by side: per kernel
// (cuda_gpu_kern_sum, by "kernels", the default) or per NVTX range name
// (nvtx_sum, by "nvtx"; PyTorch's ", seq = N, op_id = N" suffixes dropped,
// so that an operator's ranges add up), the total time in a and in b as
// paired bars, for
// the n names with the most time in either; the rest are summed as "other".
// Beside the bars, each name's change with its 95% bootstrap interval and
// verdict from nsysx/compare (per iteration when both profiles have NVTX
// iterations).
func Compare(ctx context.Context, a, b *nsysx.Profile, by string, n int) (*Chart, error) {
	if n <= 0 {
		n = 15
	}
	what, report, nameCol, countCol := "CUDA kernels", "cuda_gpu_kern_sum", "Name", "Instances"
	switch by {
	case "", "kernels":
		by = "kernels"
	case "nvtx":
		what, report, nameCol, countCol = "NVTX ranges", "nvtx_sum", "Range", "Instances"
	default:
		return nil, usagef("compare: --by takes kernels or nvtx, not %q", by)
	}
	labels := profileLabels([]*nsysx.Profile{a, b})
	title := fmt.Sprintf("%s: %s vs %s", what, labels[0], labels[1])
	sums := [2]map[string][2]float64{}
	var totals [2]float64
	for i, p := range []*nsysx.Profile{a, b} {
		res, err := p.Stats(ctx, report)
		if err != nil {
			return nil, err
		}
		if res.Skipped != "" || res.Len() == 0 {
			return noData("compare", title, labels[0]+", "+labels[1], skippedNote(res, "no "+what+" in "+p.Path)), nil
		}
		sums[i], totals[i] = sumByName(res, nameCol, countCol, by == "nvtx")
	}
	d := compareRows(sums, n, by == "kernels")
	d.What, d.NameA, d.NameB, d.TotalA, d.TotalB = by, labels[0], labels[1], totals[0], totals[1]
	if err := attachIntervals(ctx, a, b, d); err != nil {
		return nil, err
	}
	c := newChart("compare", title)
	c.Subtitle = fmt.Sprintf("total %s: %s %s, %s %s (%s)", what, labels[0], fmtDur(totals[0]), labels[1], fmtDur(totals[1]), ratio(totals[0], totals[1]))
	if d.TotalChange != "" {
		c.Subtitle += "; " + d.TotalChange
	}
	c.Footnote = fmt.Sprintf("Bars: total time per name in each profile (nsys %s); label: the total, the ratio %s/%s and the verdict. "+
		"Right: the change with its %s (bootstrap over %s; nsysx compare), green faster, red slower, grey no change.", report, labels[1], labels[0], ciLevel, d.Basis)
	c.legend = []legendItem{{labels[0], colKernel, false}, {labels[1], colSeries2, false}}
	pl, err := comparePanel(d)
	if err != nil {
		return nil, err
	}
	ci, err := intervalPanel(d)
	if err != nil {
		return nil, err
	}
	c.grid = [][]*plot.Plot{{pl, ci}}
	c.colWeights = []float64{0.72, 0.28}
	return c.done(math.Min(2.4+0.42*float64(len(d.Rows)), 36), compareText(d), compareVega(c, d), d)
}

// sumByName adds up the total time and count of res's rows per name, and
// the total time of all rows. With nvtx, names are range labels, so PyTorch's
// op ids and the ":" go and one range's rows merge.
func sumByName(res *nsysx.Result, nameCol, countCol string, nvtx bool) (map[string][2]float64, float64) {
	sums := map[string][2]float64{}
	var total float64
	nc, tc, cc := res.Col(nameCol), res.Col("Total Time"), res.Col(countCol)
	for r := 0; r < res.Len(); r++ {
		name := nc.Text(r)
		if nvtx {
			name = rangeLabel(name)
		}
		v := sums[name]
		v[0] += float64(tc.Value(r).I)
		v[1] += float64(cc.Value(r).I)
		sums[name] = v
		total += float64(tc.Value(r).I)
	}
	return sums, total
}

// compareRows ranks the union of names by their larger total.
func compareRows(sums [2]map[string][2]float64, n int, cxx bool) *CompareData {
	var names []string
	for i := range sums {
		for k := range sums[i] {
			if _, dup := sums[0][k]; i == 1 && dup {
				continue
			}
			names = append(names, k)
		}
	}
	key := func(k string) float64 { return math.Max(sums[0][k][0], sums[1][k][0]) }
	sort.Slice(names, func(i, j int) bool {
		if ki, kj := key(names[i]), key(names[j]); ki != kj {
			return ki > kj
		}
		return names[i] < names[j]
	})
	d := &CompareData{}
	if len(names) == n+1 {
		n++
	}
	top := names[:min(n, len(names))]
	var labels []string
	if cxx {
		labels = labelNames(top)
	} else {
		for _, t := range top {
			labels = append(labels, rangeLabel(t))
		}
	}
	for i, k := range top {
		d.Rows = append(d.Rows, CompareRow{Label: labels[i], Name: k, A: sums[0][k][0], B: sums[1][k][0],
			CountA: int64(sums[0][k][1]), CountB: int64(sums[1][k][1])})
	}
	if rest := names[len(top):]; len(rest) > 0 {
		o := CompareRow{Label: fmt.Sprintf("other (%d more)", len(rest)), Other: true}
		for _, k := range rest {
			o.A, o.B = o.A+sums[0][k][0], o.B+sums[1][k][0]
			o.CountA, o.CountB = o.CountA+int64(sums[0][k][1]), o.CountB+int64(sums[1][k][1])
		}
		o.Name = o.Label
		d.Rows = append(d.Rows, o)
	}
	return d
}

// ratio formats b/a as "×0.52", or "new" / "gone".
func ratio(a, b float64) string {
	switch {
	case a == 0 && b == 0:
		return "–"
	case a == 0:
		return "new"
	case b == 0:
		return "gone"
	}
	return fmt.Sprintf("×%.2f", b/a)
}

func comparePanel(d *CompareData) (*plot.Plot, error) {
	p := newPlot()
	p.Add(xGrid())
	n := len(d.Rows)
	var maxV float64
	for _, r := range d.Rows {
		maxV = math.Max(maxV, math.Max(r.A, r.B))
	}
	unit := pickTimeUnit(maxV)
	va, vb := make(plotter.Values, n), make(plotter.Values, n)
	names := make([]string, n)
	var xys plotter.XYs
	var texts []string
	for i, r := range d.Rows {
		k := n - 1 - i
		va[k], vb[k], names[k] = r.A/unit.ns, r.B/unit.ns, r.Label
		xys = append(xys, plotter.XY{X: va[k], Y: float64(k) + 0.2}, plotter.XY{X: vb[k], Y: float64(k) - 0.2})
		texts = append(texts, orDash(r.A), orDash(r.B)+"  "+ratio(r.A, r.B)+verdictText(r))
	}
	const w = vg.Length(9)
	for j, vals := range []plotter.Values{va, vb} {
		bc, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		bc.Horizontal, bc.LineStyle.Width = true, 0
		bc.Color, bc.Offset = colKernel, w/2
		if j == 1 {
			bc.Color, bc.Offset = colSeries2, -w/2
		}
		p.Add(bc)
	}
	if err := addBarLabels(p, xys, texts, 8); err != nil {
		return nil, err
	}
	p.NominalY(names...)
	p.X.Min, p.X.Max = 0, math.Max(maxV/unit.ns*1.3, 1e-9)
	p.X.Label.Text = "total time (" + unit.name + ")"
	p.X.Tick.Marker = valueTicks{6}
	return p, nil
}

// orDash formats a total, "–" for none.
func orDash(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmtDur(v)
}

func compareText(d *CompareData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%14s %14s %8s %24s  %-9s  name\n", d.NameA, d.NameB, "ratio", "change [95% CI]", "verdict")
	for _, r := range d.Rows {
		ch := ""
		if !math.IsNaN(r.Low) {
			ch = fmt.Sprintf("%+.1f%% [%+.1f, %+.1f]", r.Change*100, r.Low*100, r.High*100)
		}
		fmt.Fprintf(&b, "%14s %14s %8s %24s  %-9s  %s\n", fmtDur(r.A), fmtDur(r.B), ratio(r.A, r.B), ch, r.Verdict, r.Name)
	}
	return b.String()
}

func compareVega(c *Chart, d *CompareData) map[string]any {
	var maxV float64
	for _, r := range d.Rows {
		maxV = math.Max(maxV, math.Max(r.A, r.B))
	}
	unit := pickTimeUnit(maxV)
	var rows []map[string]any
	var order []any
	for i, r := range d.Rows {
		order = append(order, r.Label)
		for j, v := range []float64{r.A, r.B} {
			prof, cnt := d.NameA, r.CountA
			if j == 1 {
				prof, cnt = d.NameB, r.CountB
			}
			rows = append(rows, map[string]any{"rank": i, "label": r.Label, "name": r.Name, "profile": prof,
				"value": round6(v / unit.ns), "count": cnt, "ratio": ratio(r.A, r.B), "second": j == 1,
				"change": pctOrNil(r.Change), "ci_low": pctOrNil(r.Low), "ci_high": pctOrNil(r.High), "verdict": r.Verdict})
		}
	}
	x := "total time (" + unit.name + ")"
	spec := vegaBase(c.Title, 0, 0)
	delete(spec, "width")
	spec["data"] = map[string]any{"values": rows}
	bars := map[string]any{"width": 560, "height": map[string]any{"step": 14}}
	bars["mark"] = map[string]any{"type": "bar", "tooltip": true}
	bars["encoding"] = map[string]any{
		"y":       map[string]any{"field": "label", "type": "nominal", "sort": order, "title": nil, "axis": map[string]any{"labelLimit": 420}},
		"yOffset": map[string]any{"field": "profile", "sort": []any{d.NameA, d.NameB}},
		"x":       map[string]any{"field": "value", "type": "quantitative", "title": x},
		"color": map[string]any{"field": "profile", "type": "nominal", "title": nil,
			"scale": map[string]any{"domain": []any{d.NameA, d.NameB}, "range": []any{hexColor(colKernel), hexColor(colSeries2)}}},
		"tooltip": []any{map[string]any{"field": "name"}, map[string]any{"field": "profile"},
			map[string]any{"field": "value", "title": x, "format": ",.3f"}, map[string]any{"field": "count", "title": "instances"},
			map[string]any{"field": "ratio"}, map[string]any{"field": "verdict"}},
	}
	views := []any{bars}
	for _, r := range d.Rows {
		if !math.IsNaN(r.Low) { // an empty view would warn
			views = append(views, vegaInterval(order))
			break
		}
	}
	spec["hconcat"] = views
	spec["resolve"] = map[string]any{"scale": map[string]any{"color": "independent", "y": "independent"}}
	return withSubtitle(spec, c.Subtitle)
}
