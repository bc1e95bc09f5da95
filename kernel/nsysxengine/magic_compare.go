package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/compare"
	"github.com/nsysx/nsysx/nsysx/format"
	"github.com/nsysx/nsysx/nsysx/timeline"
)

var (
	compareFlags  = frontend.WithHelp(frontend.Compare(), "-f", "format[:option...]: show text in this format instead of the table (csv: only the CSV)")
	timelineFlags = frontend.Timeline()
)

// nsysCompare is %nsys compare [flags] BEFORE AFTER: the warnings (on the
// cell's stderr), the summary, then the comparison as a table (or, with
// -f, as text in that format); with --fail-on, the cell fails when a row
// does.
func (e *Engine) nsysCompare(ctx context.Context, args []string, out kernel.Output) error {
	p, err := parseMagic(args, compareFlags, "Usage: %nsys compare [flags] BEFORE AFTER   (files or names bound by %open)", out)
	if p == nil {
		return err
	}
	if len(p.Args) != 2 {
		return usageErr("give two profiles, BEFORE and AFTER (got %d)", len(p.Args))
	}
	opts, err := frontend.CompareOptions(p)
	if err != nil {
		return usageErr("%v", err)
	}
	spec, err := formatFlag(p, nil)
	if err != nil {
		return err
	}
	if err := checkOutput(p, p.Last("--output")); err != nil {
		return err
	}
	var profs [2]*nsysx.Profile
	for i, in := range p.Args {
		if profs[i], err = e.resolve(ctx, in); err != nil {
			return kernel.Errorf("OpenError", "%v", err)
		}
	}
	c, err := interruptible(ctx, &e.bg, func() (*compare.Comparison, error) {
		return compare.Profiles(ctx, profs[0], profs[1], opts)
	})
	if err != nil {
		return printSkip(err, out)
	}
	for _, w := range c.Warnings {
		fmt.Fprintln(out.Stderr(), w)
	}
	if err := showComparison(c, spec, p, out); err != nil {
		return err
	}
	failOn, _ := frontend.FailOn(p) // checked by CompareOptions
	if rows := c.Failing(failOn...); len(failOn) > 0 && len(rows) > 0 {
		return kernel.Errorf("CompareFailed", "%s", frontend.FailMessage(c, rows, failOn))
	}
	return nil
}

// formatFlag reads -f: nil when absent, a usage error when the format is
// unknown or check refuses it.
func formatFlag(p *parsedArgs, check func(format.Spec) error) (*format.Spec, error) {
	if !p.Has("--format") {
		return nil, nil
	}
	s, err := format.ParseSpec(p.Last("--format"))
	if err == nil && check != nil {
		err = check(s)
	}
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return &s, nil
}

func showComparison(c *compare.Comparison, spec *format.Spec, p *parsedArgs, out kernel.Output) error {
	quiet, _ := p.Bool("--quiet")
	if o := p.Last("--output"); o != "" && o != "-" {
		s := format.Spec{Name: "csv"}
		if spec != nil {
			s = *spec
		}
		err := frontend.WriteOutputFile(o, nil, func(w io.Writer) error { return frontend.WriteComparison(w, c, s, false) })
		if err != nil {
			return kernel.Errorf("OSError", "%v", err)
		}
		fmt.Fprintf(out.Stdout(), "wrote %s\n", o)
		return nil
	}
	if spec != nil {
		if !quiet && (spec.Name == "column" || spec.Name == "table") {
			fmt.Fprintln(out.Stdout(), c.Summary())
		}
		return format.Write(out.Stdout(), c.Result(), *spec)
	}
	if !quiet {
		fmt.Fprint(out.Stdout(), c.Summary())
	}
	return out.Display(kernel.Display{Data: ResultBundle(c.Result(), DefaultTableOptions)})
}

// nsysTimeline is %nsys timeline [WINDOW] [FILE|NAME]: an interactive
// timeline of a window (default: the second NVTX iteration). WINDOW is
// start/end (a time window) or an NVTX range name[@domain][/index].
func (e *Engine) nsysTimeline(ctx context.Context, args []string, out kernel.Output) error {
	p, err := parseMagic(args, timelineFlags, "Usage: %nsys timeline [WINDOW] [FILE|NAME]\n\nWINDOW is START/END (e.g. 1s/1.2s) or an NVTX range name[@domain][/index];\n"+
		"the default is the second NVTX iteration, or the whole profile.", out)
	if p == nil {
		return err
	}
	f, err := frontend.Filter(p)
	if err != nil {
		return usageErr("%v", err)
	}
	prof, window, err := e.timelineArgs(ctx, p.Args)
	if err != nil {
		return err
	}
	if window != "" && f == nil {
		if f, err = parseWindow(window); err != nil {
			return err
		}
	}
	o := &timeline.ViewOptions{Filter: f}
	if p.Has("--max-events") {
		if o.MaxEvents, err = strconv.Atoi(p.Last("--max-events")); err != nil || o.MaxEvents <= 0 {
			return usageErr("--max-events takes a positive integer, not %q", p.Last("--max-events"))
		}
	}
	type shown struct{ data, meta map[string]any }
	r, err := interruptible(ctx, &e.bg, func() (shown, error) {
		d, m, err := timeline.Bundle(ctx, prof, o)
		return shown{d, m}, err
	})
	if err != nil {
		return printSkip(err, out)
	}
	return out.Display(kernel.Display{Data: r.data, Metadata: r.meta})
}

// timelineArgs reads [WINDOW] [FILE|NAME]: one word is the profile when it
// names one, else the window (of the profile opened last).
func (e *Engine) timelineArgs(ctx context.Context, args []string) (*nsysx.Profile, string, error) {
	var window, in string
	switch len(args) {
	case 0:
	case 1:
		if _, err := e.resolve(ctx, args[0]); err == nil {
			in = args[0]
		} else {
			window = args[0]
		}
	case 2:
		window, in = args[0], args[1]
	default:
		return nil, "", usageErr("give at most a window and a profile")
	}
	if in == "" {
		last := e.profiles.lastOpened()
		if last == nil {
			return nil, "", usageErr("no input: give a file or a name bound by %%open")
		}
		return last, window, nil
	}
	prof, err := e.resolve(ctx, in)
	if err != nil {
		return nil, "", kernel.Errorf("OpenError", "%v", err)
	}
	return prof, window, nil
}

// parseWindow reads START/END as a time window, anything else as an NVTX
// range.
func parseWindow(w string) (*nsysx.Filter, error) {
	if strings.Contains(w, "/") {
		if f, err := nsysx.ParseTimeFilter(w); err == nil {
			return f, nil
		}
	}
	f, err := nsysx.ParseNVTXFilter(w)
	if err != nil {
		return nil, usageErr("window: %v", err)
	}
	return f, nil
}

// printSkip prints a SKIPPED error (nsysx.SkipError) as the cell's output
// and returns any other error.
func printSkip(err error, out kernel.Output) error {
	var skip *nsysx.SkipError
	if errors.As(err, &skip) {
		fmt.Fprintln(out.Stdout(), err)
		return nil
	}
	return err
}
