package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/critpath"
	"github.com/nsysx/nsysx/nsysx/format"
)

var criticalPathFlags = frontend.WithHelp(frontend.CriticalPath(), "-f", "format[:option...]: show text in this format instead of the table (csv: only the CSV)")

// nsysCriticalPath is %nsys critical-path [flags] FILE|NAME...: for each
// profile, the summary and the per-iteration table (or, with -f, text in
// that format; with -o, a file).
func (e *Engine) nsysCriticalPath(ctx context.Context, args []string, out kernel.Output) error {
	p, err := parseMagic(args, criticalPathFlags, "Usage: %nsys critical-path [flags] FILE|NAME...   (files or names bound by %open; default: the profile opened last)", out)
	if p == nil {
		return err
	}
	opts, err := frontend.CriticalPathOptions(p)
	if err != nil {
		return usageErr("%v", err)
	}
	spec, err := formatFlag(p, frontend.CriticalPathFormat)
	if err != nil {
		return err
	}
	if err := checkOutput(p, p.Last("--output")); err != nil {
		return err
	}
	quiet, _ := p.Bool("--quiet")
	var profs []*nsysx.Profile
	all, stop, err := eachProfile(ctx, e, p.Args, out, func(prof *nsysx.Profile) (*critpath.Result, error) {
		profs = append(profs, prof)
		return critpath.Analyze(ctx, prof, opts)
	})
	if stop {
		return err
	}
	// The ranks of one job: the critical path across them, as a table
	// after each rank's (docs/critical-path-ranks.md).
	var ranks *critpath.RanksResult
	if len(profs) > 1 {
		ranks, err = interruptible(ctx, &e.bg, func() (*critpath.RanksResult, error) {
			return critpath.Ranks(ctx, profs, critpath.RanksOptions{Iterations: opts.Iterations})
		})
		switch {
		case errors.Is(err, critpath.ErrNoCollectives):
		case err != nil:
			fmt.Fprintf(out.Stderr(), "not across the ranks: %v\n", err)
		}
	}
	if o := p.Last("--output"); o != "" && o != "-" {
		return writeEach(o, out, all, func(w io.Writer, i int, r *critpath.Result) error {
			return frontend.WriteCriticalPath(w, r, i, csvUnless(spec), false)
		})
	}
	for i, r := range all {
		if spec != nil {
			if err := frontend.WriteCriticalPath(out.Stdout(), r, i, *spec, !quiet); err != nil {
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
	if ranks != nil {
		if spec != nil {
			fmt.Fprintln(out.Stdout())
			return format.Write(out.Stdout(), ranks.Result(), *spec)
		}
		return out.Display(kernel.Display{Data: ResultBundle(ranks.Result(), DefaultTableOptions)})
	}
	return nil
}

// magicProfiles opens a magic's FILE|NAME arguments (none: the profile
// opened last).
func (e *Engine) magicProfiles(ctx context.Context, ins []string) ([]*nsysx.Profile, error) {
	if len(ins) == 0 {
		last := e.profiles.lastOpened()
		if last == nil {
			return nil, usageErr("no input: give a file or a name bound by %%open")
		}
		return []*nsysx.Profile{last}, nil
	}
	var out []*nsysx.Profile
	for _, in := range ins {
		prof, err := e.resolve(ctx, in)
		if err != nil {
			return nil, kernel.Errorf("OpenError", "%v", err)
		}
		out = append(out, prof)
	}
	return out, nil
}

// csvUnless is spec, or CSV when there is none (a magic's -o default).
func csvUnless(spec *format.Spec) format.Spec {
	if spec != nil {
		return *spec
	}
	return format.Spec{Name: "csv"}
}

// eachProfile runs analyse on each profile of a magic's FILE|NAME
// arguments (interruptibly); stop is set when one could not be opened or
// analysed, and err is then what the magic returns.
func eachProfile[T any](ctx context.Context, e *Engine, ins []string, out kernel.Output, analyse func(*nsysx.Profile) (T, error)) (all []T, stop bool, err error) {
	profs, err := e.magicProfiles(ctx, ins)
	if err != nil {
		return nil, true, err
	}
	for _, prof := range profs {
		v, err := interruptible(ctx, &e.bg, func() (T, error) { return analyse(prof) })
		if err != nil {
			return nil, true, printSkip(err, out)
		}
		all = append(all, v)
	}
	return all, false, nil
}

// writeEach writes a magic's -o file o, each result with write, and says so.
// The file is written through a temporary renamed at the end, so a failed
// write leaves an existing file as it was.
func writeEach[T any](o string, out kernel.Output, all []T, write func(w io.Writer, i int, v T) error) error {
	err := frontend.WriteOutputFile(o, nil, func(w io.Writer) error {
		for i, v := range all {
			if err := write(w, i, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return kernel.Errorf("OSError", "%v", err)
	}
	fmt.Fprintf(out.Stdout(), "wrote %s\n", o)
	return nil
}

// checkOutput refuses a magic's -o file before any work, as the CLI does
// (frontend.CheckOutputFile): an existing file needs --force-overwrite and
// is never one of the inputs.
func checkOutput(p *parsedArgs, name string) error {
	err := p.CheckOutput(name)
	var ue *frontend.UsageError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return usageErr("%v", err)
	}
	return kernel.Errorf("FileExistsError", "%v", err)
}
