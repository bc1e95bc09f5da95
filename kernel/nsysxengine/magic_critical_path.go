package nsysxengine

import (
	"context"
	"fmt"
	"os"

	"github.com/nsysx/nsysx/internal/cliflags"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx/critpath"
	"github.com/nsysx/nsysx/nsysx/format"
)

var criticalPathFlags = cliflags.WithHelp(cliflags.CriticalPath(), "-f", "format[:option...]: show text in this format instead of the table (csv: only the CSV)")

// nsysCriticalPath is %nsys critical-path [flags] FILE|NAME...: for each
// profile, the summary and the per-iteration table (or, with -f, text in
// that format; with -o, a file).
func (e *Engine) nsysCriticalPath(ctx context.Context, args []string, out kernel.Output) error {
	p, err := parseMagic(args, criticalPathFlags, "Usage: %nsys critical-path [flags] FILE|NAME...   (files or names bound by %open; default: the profile opened last)", out)
	if p == nil {
		return err
	}
	opts, err := cliflags.CriticalPathOptions(p)
	if err != nil {
		return usageErr("%v", err)
	}
	spec, err := formatFlag(p, cliflags.CriticalPathFormat)
	if err != nil {
		return err
	}
	quiet, _ := p.Bool("--quiet")
	ins := p.Args
	if len(ins) == 0 {
		if e.profiles.lastOpened() == nil {
			return usageErr("no input: give a file or a name bound by %%open")
		}
		ins = []string{""}
	}
	var all []*critpath.Result
	for _, in := range ins {
		prof := e.profiles.lastOpened()
		if in != "" {
			if prof, err = e.resolve(ctx, in); err != nil {
				return kernel.Errorf("OpenError", "%v", err)
			}
		}
		r, err := interruptible(ctx, &e.bg, func() (*critpath.Result, error) { return critpath.Analyze(ctx, prof, opts) })
		if err != nil {
			return printSkip(err, out)
		}
		all = append(all, r)
	}
	if o := p.Last("--output"); o != "" && o != "-" {
		return writeCriticalPaths(o, all, spec, out)
	}
	for i, r := range all {
		if spec != nil {
			if err := cliflags.WriteCriticalPath(out.Stdout(), r, i, *spec, !quiet); err != nil {
				return err
			}
			continue
		}
		if !quiet {
			fmt.Fprintln(out.Stdout(), r.Summary())
		}
		if err := out.Display(kernel.Display{Data: ResultBundle(r.Table(i), DefaultTableOptions)}); err != nil {
			return err
		}
	}
	return nil
}

// writeCriticalPaths writes the tables to the file o (CSV unless -f).
func writeCriticalPaths(o string, all []*critpath.Result, spec *format.Spec, out kernel.Output) error {
	s := format.Spec{Name: "csv"}
	if spec != nil {
		s = *spec
	}
	fh, err := os.Create(o)
	if err != nil {
		return kernel.Errorf("OSError", "%v", err)
	}
	defer fh.Close()
	for i, r := range all {
		if err := cliflags.WriteCriticalPath(fh, r, i, s, false); err != nil {
			return kernel.Errorf("OSError", "%v", err)
		}
	}
	if err := fh.Close(); err != nil {
		return kernel.Errorf("OSError", "%v", err)
	}
	fmt.Fprintf(out.Stdout(), "wrote %s\n", o)
	return nil
}
