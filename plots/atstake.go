package plots

import (
	"cmp"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// AtStake draws the findings of `nsysx advise` (the Result of
// advise.Advice) as horizontal bars of their time at stake, largest at the
// top, each labelled with its time and its share of the analysed span.
// Findings without a time at stake (untraced) have no bar.
func AtStake(res *nsysx.Result) (*Chart, error) {
	title := "What to fix first: time at stake"
	cat, at, sh := res.Col("Category"), res.Col("At Stake"), res.Col("Share")
	if err := cmp.Or(cat.Err(), at.Err(), sh.Err()); err != nil {
		return nil, err
	}
	b := &Bars{Rows: res.Len(), Total: 1}
	for i := range res.Len() {
		v := at.Value(i)
		if v.IsNull() {
			continue
		}
		b.Bars = append(b.Bars, Bar{Label: cat.Text(i), Name: cat.Text(i), Value: float64(v.I), Count: int64(i + 1), Pct: sh.Value(i).AsFloat()})
	}
	if len(b.Bars) == 0 {
		return noData("advise", title, res.Source, "no finding has a time at stake"), nil
	}
	unit := pickTimeUnit(b.Bars[0].Value)
	c := newChart("advise", title)
	c.Subtitle = res.Title
	c.Footnote = "Bar: the time the run would save if the problem were fixed (a conservative estimate, docs/advise.md); label: that time and its share of the analysed span."
	panel, err := barPanel(b, "time at stake", unit, fmtDur, colIdle)
	if err != nil {
		return nil, err
	}
	c.grid = [][]*plot.Plot{{panel}}
	return c.done(barsHeight(len(b.Bars)), barsText(b, fmtDur, "rank"), withSubtitle(barsVega(title, b, "time at stake", unit, "rank"), c.Subtitle), b)
}
