package critpath

import (
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Header is the column names of the per-iteration table, as CSV prints
// them.
var Header = []string{"Rank", "Iteration", "Observed (ns)", "Replayed (ns)", "Error (%)", "Predicted (ns)",
	"GPU (ns)", "Copies (ns)", "Host (ns)", "Sync Wait (ns)", "Communication (ns)", "Top Critical Item"}

// Table is the iterations as a report result, for every output format:
// rank (the profile's place among those analysed together), iteration,
// the observed, replayed and predicted times, the replay's error, the
// critical path's composition and its top item.
func (r *Result) Table(rank int) *nsysx.Result {
	res := nsysx.NewResult("critical-path", r.Title(), "Rank", "Iteration", "Observed:dur_ns", "Replayed:dur_ns",
		"Error:ratio_%", "Predicted:dur_ns", "GPU:dur_ns", "Copies:dur_ns", "Host:dur_ns", "Sync Wait:dur_ns",
		"Communication:dur_ns", "Top Critical Item")
	res.Source = r.Path
	for _, it := range r.Iterations {
		top := ""
		if len(it.Top) > 0 {
			top = strings.NewReplacer("\"", "'", "\n", " ", ",", ";").Replace(it.Top[0].String())
		}
		c := it.Composition
		res.Add(nsysx.IntV(int64(rank)), nsysx.IntV(int64(it.Index)), nsysx.IntV(it.Observed), nsysx.IntV(it.Replayed),
			nsysx.FloatV(nsysx.Round1(it.Error)), nsysx.IntV(it.Predicted), nsysx.IntV(c.GPU), nsysx.IntV(c.Copies),
			nsysx.IntV(c.Host), nsysx.IntV(c.SyncWait), nsysx.IntV(c.Communication), nsysx.TextV(top))
	}
	return res
}

// Title is one line: the profile, the iterations and the replay's error.
func (r *Result) Title() string {
	scope := fmt.Sprintf("%d iterations", len(r.Iterations))
	if r.Whole {
		scope = "the whole capture (no iteration ranges)"
	}
	return fmt.Sprintf("Critical path: %s; %s, replay error mean %.2f%%, max %.2f%%", r.Path, scope, r.MeanAbsError, r.MaxAbsError)
}

// Summary is the console lines above the table: the title, the
// prediction's total with the what-ifs, and the top critical items.
func (r *Result) Summary() string {
	var b strings.Builder
	b.WriteString(r.Title())
	if len(r.WhatIf) > 0 {
		var obs, pred int64
		for _, it := range r.Iterations {
			obs, pred = obs+it.Replayed, pred+it.Predicted
		}
		fmt.Fprintf(&b, "\n  what-if %s: %.3f ms -> %.3f ms per iteration (%+.1f%%); span %.3f ms -> %.3f ms",
			strings.Join(r.WhatIf, " "), ms(obs)/float64(len(r.Iterations)), ms(pred)/float64(len(r.Iterations)),
			pct(pred, obs), ms(r.Span.Replayed), ms(r.Span.Predicted))
	}
	for i, it := range r.Top {
		fmt.Fprintf(&b, "\n  %d. %s: %.3f ms on the critical path", i+1, it, ms(it.Time))
	}
	return b.String()
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a-b) / float64(b)
}
