package nsysxengine

import (
	"context"
	"fmt"
	"os"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx/advise"
	"github.com/nsysx/nsysx/nsysx/format"
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
	quiet, _ := p.Bool("--quiet")
	ins := p.Args
	if len(ins) == 0 {
		last := e.profiles.lastOpened()
		if last == nil {
			return usageErr("no input: give a file or a name bound by %%open")
		}
		ins = []string{""}
	}
	var all []*advise.Advice
	for _, in := range ins {
		prof := e.profiles.lastOpened()
		if in != "" {
			if prof, err = e.resolve(ctx, in); err != nil {
				return kernel.Errorf("OpenError", "%v", err)
			}
		}
		a, err := interruptible(ctx, &e.bg, func() (*advise.Advice, error) { return advise.Run(ctx, prof, opts) })
		if err != nil {
			return printSkip(err, out)
		}
		all = append(all, a)
	}
	if o := p.Last("--output"); o != "" && o != "-" {
		s := format.Spec{Name: "csv"}
		if spec != nil {
			s = *spec
		}
		fh, err := os.Create(o)
		if err != nil {
			return kernel.Errorf("OSError", "%v", err)
		}
		defer fh.Close()
		for _, a := range all {
			if err := frontend.WriteAdvice(fh, a, s, false); err != nil {
				return kernel.Errorf("OSError", "%v", err)
			}
		}
		if err := fh.Close(); err != nil {
			return kernel.Errorf("OSError", "%v", err)
		}
		fmt.Fprintf(out.Stdout(), "wrote %s\n", o)
		return nil
	}
	for _, a := range all {
		if spec != nil {
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
