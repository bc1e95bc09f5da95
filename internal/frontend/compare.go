package frontend

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/internal/shortname"
	"github.com/nsysx/nsysx/nsysx/compare"
	"github.com/nsysx/nsysx/nsysx/format"
)

// Compare is the flags of `nsysx compare` and %nsys compare.
func Compare() []Flag {
	return []Flag{
		{Names: []string{"-f", "--format"}, Value: true, Help: "format[:option...]: column (console default: a summary, then the table), table, csv (only the CSV, header first), tsv, json, hdoc, htable, arrow, parquet"},
		{Names: []string{"-o", "--output"}, Value: true, Help: "- for the console (default), or a file name (an existing file needs --force-overwrite)"},
		overwriteFileFlag(),
		{Names: []string{"--threshold"}, Value: true, Help: "PERCENT: smallest change called faster or slower (default 2)"},
		{Names: []string{"--min-share"}, Value: true, Help: "PERCENT: smallest share of its group's time (GPU work, CUDA API calls, the analysed span for NVTX) at which a row fails --fail-on and is listed in the summary (default 1)"},
		{Names: []string{"--fail-on"}, Value: true, Help: "slower|faster|change: exit 3 when a row at or above --min-share has that verdict (change: either), for CI"},
		{Names: []string{"--confidence"}, Value: true, Help: "LEVEL: interval level, 0.95 or 95 (default 95%)"},
		{Names: []string{"--resamples"}, Value: true, Help: "N: bootstrap replicates (default 1000)"},
		{Names: []string{"--seed"}, Value: true, Help: "N: bootstrap seed (default 0); results are reproducible"},
		{Names: []string{"--iterations"}, Value: true, Help: "REGEX: names of the NVTX ranges that mark iterations (default: iteration N, step N, ...)"},
		{Names: []string{"--no-iterations"}, Help: "compare whole-run totals over instances even when iterations exist"},
		{Names: []string{"--filter-time"}, Value: true, Help: "[start]/[end]: restrict both profiles to this window"},
		{Names: []string{"--filter-nvtx"}, Value: true, Help: "range[@domain][/index]: restrict both profiles to that NVTX range"},
		forceExportFlag(),
		{Names: []string{"-q", "--quiet"}, Help: "no summary lines above the table"},
		helpFlag(),
	}
}

// CompareOptions reads the comparison flags.
func CompareOptions(p *Parsed) (*compare.Options, error) {
	o := &compare.Options{Iterations: p.Last("--iterations")}
	if _, err := regexp.Compile(o.Iterations); err != nil {
		return nil, Usagef("--iterations: %v", err)
	}
	var err error
	if o.NoIterations, err = p.Bool("--no-iterations"); err != nil {
		return nil, err
	}
	num := func(flag string, lo, hi float64) (float64, error) {
		v, err := strconv.ParseFloat(p.Last(flag), 64)
		if err != nil || v < lo || v > hi {
			return 0, Usagef("%s takes a number from %g to %g, not %q", flag, lo, hi, p.Last(flag))
		}
		return v, nil
	}
	if p.Has("--threshold") {
		if o.Threshold, err = num("--threshold", 0.001, 1000); err != nil {
			return nil, err
		}
	}
	if p.Has("--min-share") {
		if o.MinShare, err = num("--min-share", 0.001, 100); err != nil {
			return nil, err
		}
	}
	if _, err := FailOn(p); err != nil {
		return nil, err
	}
	if p.Has("--confidence") {
		if o.Confidence, err = num("--confidence", 0.5, 99.99); err != nil {
			return nil, err
		}
		if o.Confidence >= 1 {
			o.Confidence /= 100
		}
		if o.Confidence < 0.5 {
			return nil, Usagef("--confidence %s is below 50%%", p.Last("--confidence"))
		}
	}
	if p.Has("--resamples") {
		n, err := num("--resamples", 100, 1e6)
		if err != nil {
			return nil, err
		}
		o.Resamples = int(n)
	}
	if p.Has("--seed") {
		s, err := strconv.ParseUint(p.Last("--seed"), 10, 64)
		if err != nil {
			return nil, Usagef("--seed takes a non-negative integer, not %q", p.Last("--seed"))
		}
		o.Seed = s
	}
	f, err := Filter(p)
	if err != nil {
		return nil, err
	}
	o.Before, o.After = f, f
	return o, nil
}

// FailOn reads --fail-on: the verdicts that fail the run (none without
// the flag).
func FailOn(p *Parsed) ([]string, error) {
	if !p.Has("--fail-on") {
		return nil, nil
	}
	switch v := p.Last("--fail-on"); v {
	case compare.Slower, compare.Faster:
		return []string{v}, nil
	case "change":
		return []string{compare.Slower, compare.Faster}, nil
	default:
		return nil, Usagef("--fail-on takes slower, faster or change, not %q", v)
	}
}

// FailMessage says why --fail-on fails (rows: c.Failing(verdicts...), not
// empty), naming the first row that is not a summary.
func FailMessage(c *compare.Comparison, rows []compare.Row, verdicts []string) string {
	r := rows[0]
	for _, x := range rows {
		if !x.Summary {
			r = x
			break
		}
	}
	return fmt.Sprintf("%d rows at or above %g%% of their group's time are %s, among them %s %s (%+.1f%%)",
		len(rows), c.Options.MinShare, strings.Join(verdicts, " or "), r.Kind, shortname.Short(r.Name), r.Change*100)
}

// WriteComparison writes c's table to w in spec's format (Arrow and
// Parquet included) for `nsysx compare` and %nsys compare -o; with
// summary, the console formats column and table start with c's summary.
func WriteComparison(w io.Writer, c *compare.Comparison, spec format.Spec, summary bool) error {
	bw := bufio.NewWriter(w)
	var err error
	switch spec.Name {
	case "arrow":
		err = format.WriteArrow(bw, c.Result())
	case "parquet":
		err = format.WriteParquet(bw, c.Result())
	default:
		if summary && (spec.Name == "column" || spec.Name == "table") {
			fmt.Fprintln(bw, c.Summary())
		}
		err = format.Write(bw, c.Result(), spec)
	}
	if err == nil {
		err = bw.Flush()
	}
	return err
}

// Timeline is the flags of %nsys timeline.
func Timeline() []Flag {
	return []Flag{
		{Names: []string{"--filter-time"}, Value: true, Help: "[start]/[end]: the window (units ns, us, ms, s, m, h)"},
		{Names: []string{"--filter-nvtx"}, Value: true, Help: "range[@domain][/index]: the window of that NVTX range"},
		{Names: []string{"--max-events"}, Value: true, Help: "N: the most events drawn, the earliest ones (default 40000)"},
		helpFlag(),
	}
}
