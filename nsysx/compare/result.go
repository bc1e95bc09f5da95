package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Title describes the comparison in one line: profiles, basis, interval.
func (c *Comparison) Title() string {
	basis := "whole-run totals, resampled over instances"
	if c.Basis == "iterations" {
		basis = fmt.Sprintf("time per iteration (%d and %d iterations), resampled over iterations", c.ItersBefore, c.ItersAft)
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
	res := nsysx.NewResult("compare", c.Title(), "Verdict", "Change:ratio_%", "CI Low:ratio_%", "CI High:ratio_%", "Impact:ratio_%",
		"Before "+t+":dur_ns", "After "+t+":dur_ns", "Delta "+t+":dur_ns", "Before Instances", "After Instances",
		"Before Avg:dur_ns", "After Avg:dur_ns", "Avg Change:ratio_%", "Avg CI Low:ratio_%", "Avg CI High:ratio_%", "Kind", "Name")
	for _, r := range c.Rows {
		res.Add(nsysx.TextV(r.Verdict), pct(r.Change), pct(r.Low), pct(r.High), pct(r.Impact),
			ns(c.basis(r.Before)), ns(c.basis(r.After)), ns(r.Delta),
			nsysx.IntV(int64(r.Before.Count)), nsysx.IntV(int64(r.After.Count)),
			ns(r.Before.Avg), ns(r.After.Avg), pct(r.AvgChange), pct(r.AvgLo), pct(r.AvgHi),
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

// Summary is a few lines for a console: the headline rows, what changed
// significantly, and the new and vanished names.
func (c *Comparison) Summary() string {
	var b strings.Builder
	fmt.Fprintln(&b, c.Title())
	counts := map[string]int{}
	for _, r := range c.Rows {
		if r.Summary {
			fmt.Fprintf(&b, "  %-22s %-9s %s\n", r.Name, r.Verdict, changeText(r))
		}
		counts[r.Verdict]++
	}
	fmt.Fprintf(&b, "  %d faster, %d slower, %d no change, %d new, %d vanished\n",
		counts[Faster], counts[Slower], counts[NoChange], counts[New], counts[Vanished])
	for _, v := range []string{New, Vanished} {
		var names []string
		for _, r := range c.Rows {
			if r.Verdict == v {
				names = append(names, fmt.Sprintf("%s %s", r.Kind, r.Name))
			}
		}
		if len(names) > 0 {
			more := ""
			if len(names) > 8 {
				more, names = fmt.Sprintf(" and %d more", len(names)-8), names[:8]
			}
			fmt.Fprintf(&b, "  %s: %s%s\n", v, strings.Join(names, "; "), more)
		}
	}
	return b.String()
}

func changeText(r Row) string {
	if math.IsNaN(r.Low) {
		return fmt.Sprintf("%+.1f%%", r.Change*100)
	}
	return fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]", r.Change*100, r.Low*100, r.High*100)
}
