package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/internal/shortname"
	"github.com/nsysx/nsysx/nsysx"
)

// Title describes the comparison in one line: profiles, basis, interval.
func (c *Comparison) Title() string {
	basis := "whole-run totals: Hodges-Lehmann ratios of instances (paired in start order where the counts match), resampled over instances"
	if c.Basis == "iterations" {
		basis = fmt.Sprintf("time per iteration (%d and %d iterations), paired by iteration, resampled over iterations", c.ItersBefore, c.ItersAft)
	}
	return fmt.Sprintf("Before/after: %s vs %s; %s; %g%% bootstrap intervals (%d resamples); verdict threshold %g%%",
		c.Before, c.After, basis, c.Options.Confidence*100, c.Options.Resamples, c.Options.Threshold)
}

// Result is the comparison as a report result, for every output format:
// one row per name, ranked as Rows, with "Verdict" and the changes in
// percent. Under the iterations basis the time columns are per iteration.
func (c *Comparison) Result() *nsysx.Result {
	t := "Total"
	if c.Basis == "iterations" {
		t = "Per Iteration"
	}
	res := nsysx.NewResult("compare", c.Title(), "Verdict", "Change:ratio_%", "CI Low:ratio_%", "CI High:ratio_%", "Method",
		"Share:ratio_%", "Impact:ratio_%",
		"Before "+t+":dur_ns", "After "+t+":dur_ns", "Delta "+t+":dur_ns", "Before Instances", "After Instances",
		"Before Avg:dur_ns", "After Avg:dur_ns", "Avg Change:ratio_%", "Avg CI Low:ratio_%", "Avg CI High:ratio_%",
		"Before Median:dur_ns", "After Median:dur_ns", "Median Change:ratio_%", "Median CI Low:ratio_%", "Median CI High:ratio_%",
		"Before First-Call Outliers", "After First-Call Outliers", "Kind", "Name")
	for _, r := range c.Rows {
		res.Add(nsysx.TextV(r.Verdict), pct(r.Change), pct(r.Low), pct(r.High), nsysx.TextV(r.Method),
			pct(r.Share), pct(r.Impact),
			ns(c.basis(r.Before)), ns(c.basis(r.After)), ns(r.Delta),
			nsysx.IntV(int64(r.Before.Count)), nsysx.IntV(int64(r.After.Count)),
			ns(r.Before.Avg), ns(r.After.Avg), pct(r.AvgChange), pct(r.AvgLo), pct(r.AvgHi),
			ns(r.Before.Median), ns(r.After.Median), pct(r.MedChange), pct(r.MedLo), pct(r.MedHi),
			nsysx.IntV(int64(r.Before.FirstCalls)), nsysx.IntV(int64(r.After.FirstCalls)),
			nsysx.TextV(string(r.Kind)), nsysx.TextV(r.Name))
	}
	return res
}

// pct is a fraction as a percentage with one decimal; NULL when undefined
// or infinite (a new name).
func pct(f float64) nsysx.Value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nsysx.Value{}
	}
	return nsysx.FloatV(nsysx.Round1(f * 100))
}

func ns(f float64) nsysx.Value {
	if math.IsNaN(f) {
		return nsysx.Value{}
	}
	return nsysx.IntV(int64(math.Round(f)))
}

// Find returns the row of a kind and name, or nil.
func (c *Comparison) Find(k Kind, name string) *Row {
	for i := range c.Rows {
		if c.Rows[i].Kind == k && c.Rows[i].Name == name {
			return &c.Rows[i]
		}
	}
	return nil
}

// Failing is the rows whose verdict is one of verdicts and whose Share is
// at least Options.MinShare percent: what `nsysx compare --fail-on`
// fails a CI job for.
func (c *Comparison) Failing(verdicts ...string) []Row {
	var out []Row
	for _, r := range c.Rows {
		if slices.Contains(verdicts, r.Verdict) && r.Share*100 >= c.Options.MinShare {
			out = append(out, r)
		}
	}
	return out
}

// summaryList is the most names a summary line lists.
const summaryList = 8

// outlierShare is the smallest share of a name's time its first-call
// outliers hold for the summary to name them.
const outlierShare = 0.25

// labels is every row's name shortened as the charts' labels are, names
// that shorten alike told apart (shortname.Labels).
func (c *Comparison) labels() map[string]string {
	full := make([]string, len(c.Rows))
	for i, r := range c.Rows {
		full[i] = r.Name
	}
	slices.Sort(full)
	full = slices.Compact(full)
	out := map[string]string{}
	for i, l := range shortname.Labels(full) {
		out[full[i]] = l
	}
	return out
}

// Summary is a few lines for a console: the warnings, the headline rows,
// the faster and slower rows above Options.MinShare, the first-call
// outliers, and the new and vanished names. Names are shortened as the
// charts' labels are (the table has them in full).
func (c *Comparison) Summary() string {
	var b strings.Builder
	fmt.Fprintln(&b, c.Title())
	for _, w := range c.Warnings {
		fmt.Fprintln(&b, w)
	}
	label := c.labels()
	counts := map[string]int{}
	for _, r := range c.Rows {
		if r.Summary {
			fmt.Fprintf(&b, "  %-22s %-9s %s (%s)\n", r.Name, r.Verdict, changeText(r), r.Method)
		}
		counts[r.Verdict]++
	}
	fmt.Fprintf(&b, "  %d faster, %d slower, %d no change, %d new, %d vanished\n",
		counts[Faster], counts[Slower], counts[NoChange], counts[New], counts[Vanished])
	for _, v := range []string{Slower, Faster} {
		var items []string
		for _, r := range c.Failing(v) {
			if !r.Summary {
				items = append(items, fmt.Sprintf("%s %s %s", r.Kind, label[r.Name], changeText(r)))
			}
		}
		list(&b, fmt.Sprintf("%s (share >= %g%%)", v, c.Options.MinShare), items)
	}
	type flagged struct { // ranked by the outliers' share of their group's time
		text  string
		share float64
	}
	var fl []flagged
	for _, r := range c.Rows {
		if r.Summary || r.Share*100 < c.Options.MinShare {
			continue
		}
		var parts []string
		stake := 0.0
		for i, s := range []Side{r.Before, r.After} {
			if s.FirstCalls > 0 && s.FirstShare >= outlierShare {
				parts = append(parts, fmt.Sprintf("%d of %d in %s hold %.0f%% of its time", s.FirstCalls, s.Count, [2]string{c.Before, c.After}[i], s.FirstShare*100))
				stake = max(stake, s.FirstShare*r.Share)
			}
		}
		if len(parts) > 0 {
			fl = append(fl, flagged{fmt.Sprintf("%s %s: %s", r.Kind, label[r.Name], strings.Join(parts, "; ")), stake})
		}
	}
	slices.SortStableFunc(fl, func(x, y flagged) int { return cmp.Compare(y.share, x.share) })
	var out []string
	for _, f := range fl {
		out = append(out, f.text)
	}
	list(&b, "first-call outliers (flagged; the verdicts do not rest on them)", out)
	for _, v := range []string{New, Vanished} {
		var names []string
		for _, r := range c.Rows {
			if r.Verdict == v {
				names = append(names, fmt.Sprintf("%s %s", r.Kind, label[r.Name]))
			}
		}
		list(&b, v, names)
	}
	return b.String()
}

// list writes "  what:" and the items, one a line, the first summaryList
// of them, when there are items.
func list(b *strings.Builder, what string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "  %s:\n", what)
	for _, it := range items[:min(len(items), summaryList)] {
		fmt.Fprintf(b, "    %s\n", it)
	}
	if len(items) > summaryList {
		fmt.Fprintf(b, "    and %d more\n", len(items)-summaryList)
	}
}

func changeText(r Row) string {
	if math.IsNaN(r.Low) {
		return fmt.Sprintf("%+.1f%%", r.Change*100)
	}
	return fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]", r.Change*100, r.Low*100, r.High*100)
}
