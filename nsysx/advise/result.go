package advise

import (
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Header is the column names of the findings table, as CSV prints them.
var Header = []string{"Rank", "Category", "Finding", "At Stake (ns)", "Per Iteration (ns)", "Share (%)", "Confidence", "Evidence", "Fix"}

// Result is the findings as a report result, for every output format.
func (a *Advice) Result() *nsysx.Result {
	res := nsysx.NewResult("advise", a.Title(), "Rank", "Category", "Finding", "At Stake:dur_ns", "Per Iteration:dur_ns",
		"Share:ratio_%", "Confidence", "Evidence", "Fix")
	res.Source = a.Source
	for _, f := range a.Findings {
		at, per, sh := nsysx.Value{}, nsysx.Value{}, nsysx.Value{}
		if f.AtStake >= 0 {
			at = nsysx.IntV(f.AtStake)
		}
		if f.PerIter >= 0 {
			per = nsysx.IntV(f.PerIter)
		}
		if f.Share >= 0 {
			sh = nsysx.FloatV(nsysx.Round1(f.Share))
		}
		res.Add(nsysx.IntV(int64(f.Rank)), nsysx.TextV(string(f.Category)), text(f.Finding), at, per, sh,
			text(f.Confidence), text(f.Evidence), text(f.Fix))
	}
	return res
}

// text is a cell without double quotes or line breaks: the CSV writer
// quotes fields as nsys does, without escaping quotes, and kernel names
// may hold anything.
func text(s string) nsysx.Value {
	return nsysx.TextV(strings.NewReplacer("\"", "'", "\n", " ", "\r", " ", "\t", " ").Replace(s))
}

// Title is one line: the profile, the scope and the span analysed.
func (a *Advice) Title() string {
	return fmt.Sprintf("What to fix first: %s; %s", a.Source, a.scopeText())
}

func (a *Advice) scopeText() string {
	if a.Span <= 0 {
		return a.Scope
	}
	return fmt.Sprintf("%s, %s analysed; ranked by time at stake", a.Scope, dur(a.Span))
}

// Summary is the console lines above the table: the title and the first
// finding in words.
func (a *Advice) Summary() string {
	s := a.Title()
	if t := a.Top(); t != nil {
		s += fmt.Sprintf("\n  fix first: %s", t.Category)
		if t.Share >= 0 {
			s += fmt.Sprintf(" (%.1f%% of the span at stake)", t.Share)
		}
		s += ": " + t.Fix
	}
	return s
}
