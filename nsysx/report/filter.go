package report

import (
	"fmt"

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
	ParseTimeFilter = events.ParseTimeFilter
	ParseNVTXFilter = events.ParseNVTXFilter
	OptionFilter    = events.OptionFilter
	ParsePyInt      = events.ParsePyInt
)

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
