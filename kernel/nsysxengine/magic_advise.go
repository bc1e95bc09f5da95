package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/advise"
	"github.com/nsysx/nsysx/plots"
)

var adviseFlags = frontend.WithHelp(frontend.Advise(), "-f", "format[:option...]: show text in this format instead of the table and chart (csv: only the CSV)")

// nsysAdvise is %nsys advise [flags] FILE|NAME...: for each profile, the
// findings ranked by time at stake as a table and a bar chart of the time
// at stake (or, with -f, as text in that format).
func (e *Engine) nsysAdvise(ctx context.Context, args []string, out kernel.Output) error {
	p, err := parseMagic(args, adviseFlags, "Usage: %nsys advise [flags] FILE|NAME...   (files or names bound by %open; default: the profile opened last)", out)
	if p == nil {
		return err
	}
	opts, err := frontend.AdviseOptions(p)
	if err != nil {
		return usageErr("%v", err)
	}
	spec, err := formatFlag(p, frontend.AdviseFormat)
	if err != nil {
		return err
	}
	if err := checkOutput(p, p.Last("--output")); err != nil {
		return err
	}
	quiet, _ := p.Bool("--quiet")
	var profs []*nsysx.Profile
	all, stop, err := eachProfile(ctx, e, p.Args, out, func(prof *nsysx.Profile) (*advise.Advice, error) {
		profs = append(profs, prof)
		return advise.Run(ctx, prof, opts)
	})
	if stop {
		return err
	}
	if len(profs) > 1 { // one job's ranks: the job's advice first (docs/advise.md)
		job, err := interruptible(ctx, &e.bg, func() (*advise.Advice, error) { return advise.Job(ctx, profs, all, opts) })
		switch {
		case errors.Is(err, advise.ErrNotOneJob):
		case err != nil:
			fmt.Fprintf(out.Stderr(), "not advising across the ranks: %v\n", err)
		default:
			all = append([]*advise.Advice{job}, all...)
		}
	}
	if o := p.Last("--output"); o != "" && o != "-" {
		return writeEach(o, out, all, func(w io.Writer, i int, a *advise.Advice) error {
			if i > 0 {
				fmt.Fprintln(w)
			}
			return frontend.WriteAdvice(w, a, csvUnless(spec), false)
		})
	}
	for i, a := range all {
		if spec != nil {
			if i > 0 {
				fmt.Fprintln(out.Stdout())
			}
			if err := frontend.WriteAdvice(out.Stdout(), a, *spec, !quiet); err != nil {
				return err
			}
			continue
		}
		if !quiet {
			fmt.Fprintln(out.Stdout(), a.Summary())
		}
		if err := out.Display(kernel.Display{Data: ResultBundle(a.Result(), DefaultTableOptions)}); err != nil {
			return err
		}
		c, err := plots.AtStake(a.Result())
		if err != nil {
			return err
		}
		if err := out.Display(kernel.Display{Data: c.MIMEBundle(), Metadata: c.MIMEMetadata()}); err != nil {
			return err
		}
	}
	return nil
}
