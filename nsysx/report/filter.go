package report

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/nsysx/nsysx/nsysx/events"
)

// The filters (`--filter-time`, `--filter-nvtx`, start=/end=/nvtx=) live in
// the event layer, which applies them to its views (events.View); these
// are their names in the run context.
type (
	// Filter restricts reports to a time window or to an NVTX range's
	// window and thread (events.Filter).
	Filter = events.Filter
	// SkipError is the SKIPPED outcome of a filter that cannot apply.
	SkipError = events.SkipError
	// RowFilter is a filter's row test on one table.
	RowFilter = events.RowFilter
	// Scanner streams a view's rows (events.Scanner).
	Scanner = events.Scanner
	// RowVals is one row as a Scanner delivers it.
	RowVals = events.RowVals
)

// The filters' parsers (package events).
var (
	ParseNVTXFilter = events.ParseNVTXFilter
	OptionFilter    = events.OptionFilter
	ParsePyInt      = events.ParsePyInt
)

// ParseTimeFilter parses a `--filter-time [start]/[end]` argument. Each bound
// is a sequence of number+unit parts ("1s2ms3us4ns", "1.5e3us"); the units
// are ns/nsec, us/usec, ms/msec, s/sec, m/min and h/hour, a bare number being
// nanoseconds. An omitted start is -2^63 and an omitted end 2^63-1.
func ParseTimeFilter(s string) (*events.Filter, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return nil, fmt.Errorf("%q: expected [start]/[end], e.g. 1s/2500ms", s)
	}
	f := &events.Filter{Start: math.MinInt64, End: math.MaxInt64, StartSet: true, EndSet: true}
	var err error
	if strings.TrimSpace(a) != "" {
		if f.Start, err = parseDuration(a); err != nil {
			return nil, fmt.Errorf("%q: start: %w", s, err)
		}
	}
	if strings.TrimSpace(b) != "" {
		if f.End, err = parseDuration(b); err != nil {
			return nil, fmt.Errorf("%q: end: %w", s, err)
		}
	}
	if f.Start > f.End {
		return nil, fmt.Errorf("%q: the start time cannot be greater than the end time", s)
	}
	return f, nil
}

var timeUnits = map[string]int64{
	"": 1, "ns": 1, "nsec": 1, "us": 1e3, "usec": 1e3, "ms": 1e6, "msec": 1e6,
	"s": 1e9, "sec": 1e9, "m": 60e9, "min": 60e9, "h": 3600e9, "hour": 3600e9,
}

// parseDuration reads "1s2ms", "-5us" or "1.5e3us" as nanoseconds, exactly
// (decimal arithmetic), rounding a fraction of a nanosecond to the nearest.
func parseDuration(s string) (int64, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	if s == "" {
		return 0, errors.New("empty time")
	}
	total := new(big.Rat)
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' ||
			(s[i] == 'e' || s[i] == 'E') && i > 0 && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-' || s[i+1] == '+') ||
			(s[i] == '-' || s[i] == '+') && i > 0 && (s[i-1] == 'e' || s[i-1] == 'E')) {
			i++
		}
		num := s[:i]
		j := i
		for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
			j++
		}
		unit := s[i:j]
		mul, ok := timeUnits[unit]
		if num == "" || !ok {
			return 0, fmt.Errorf("bad time %q (want number+unit parts, units ns, us, ms, s, m, h)", s)
		}
		v, ok := new(big.Rat).SetString(num)
		if !ok {
			return 0, fmt.Errorf("bad number %q", num)
		}
		total.Add(total, v.Mul(v, new(big.Rat).SetInt64(mul)))
		s = s[j:]
	}
	if neg {
		total.Neg(total)
	}
	// round half away from zero
	half := big.NewRat(1, 2)
	if total.Sign() < 0 {
		total.Sub(total, half)
	} else {
		total.Add(total, half)
	}
	q := new(big.Int).Quo(total.Num(), total.Denom())
	if !q.IsInt64() {
		return 0, fmt.Errorf("time out of range")
	}
	return q.Int64(), nil
}

// SetupFilter installs the effective filter of a report run: the caller's
// filter (c.Filter) with the report's start=/end=/nvtx= options applied, and
// resolves it against the profile. A non-nil result is the SKIPPED outcome
// nsys gives (range not found, start after end). Reports call it after their
// table checks, where nsys applies filters.
func (c *Ctx) SetupFilter() (*Result, error) {
	var start, end *int64
	var nvtx *string
	for _, k := range []string{"start", "end"} {
		v, ok := c.Opt(k)
		if !ok {
			continue
		}
		n, ok := ParsePyInt(v)
		if !ok {
			return nil, fmt.Errorf("%w: argument --%s: invalid int value: '%s'", ErrBadOption, k, v)
		}
		if k == "start" {
			start = &n
		} else {
			end = &n
		}
	}
	if v, ok := c.Opt("nvtx"); ok {
		nvtx = &v
	}
	c.Filter = c.Filter.With(start, end, nvtx)
	if c.Filter == nil {
		return nil, nil
	}
	msg, err := c.Filter.Resolve(c.ctx(), c.P)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		return c.Skip(msg)
	}
	return nil, nil
}

// View is the view of table's events under the report's filter: the
// rows a report reads (View(...).Load, Scanner, RowFilter). Tables the
// filter does not restrict (no start and end) read whole.
func (c *Ctx) View(table string) *events.View {
	return events.Of(c.ctx(), c.P, c.Filter, table)
}

// FilteredScanner returns a Scanner over table under the context's filter
// (none when raw).
func (c *Ctx) FilteredScanner(table string, raw bool, cols ...string) (*Scanner, error) {
	if raw {
		return events.Of(c.ctx(), c.P, nil, table).Scanner(cols...)
	}
	return c.View(table).Scanner(cols...)
}
