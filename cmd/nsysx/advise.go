package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/advise"
	"github.com/nsysx/nsysx/nsysx/format"
)

var adviseFlags = frontend.Advise()

func runAdvise(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	p, err := parseArgs("advise", args, adviseFlags, nil)
	if err != nil {
		return fail(stderr, "advise", err)
	}
	if p.Has("--help") {
		fmt.Fprintf(stdout, "Usage: nsysx advise [flags] FILE...\n\n%s\nThe categories and how the time at stake is estimated: docs/advise.md.\n", frontend.Help(adviseFlags))
		return 0
	}
	if len(p.Args) == 0 {
		return fail(stderr, "advise", usageErr("give at least one profile"))
	}
	fs := "column"
	if p.Has("--format") {
		fs = p.Last("--format")
	}
	spec, err := format.ParseSpec(fs)
	if err != nil {
		return fail(stderr, "advise", &unknownName{err})
	}
	if err := frontend.AdviseFormat(spec); err != nil {
		return fail(stderr, "advise", err)
	}
	opts, err := frontend.AdviseOptions(p)
	if err != nil {
		return fail(stderr, "advise", err)
	}
	quiet, err := p.Bool("--quiet")
	if err != nil {
		return fail(stderr, "advise", err)
	}
	force, err := p.Bool("--force-export")
	if err != nil {
		return fail(stderr, "advise", err)
	}
	out, err := outputFileArg(p)
	if err != nil {
		return fail(stderr, "advise", err)
	}
	var all []*advise.Advice
	var profs []*nsysx.Profile
	defer func() {
		for _, prof := range profs {
			prof.Close()
		}
	}()
	for _, in := range p.Args {
		prof, err := openInput(ctx, in, openFlags{force: force, quiet: true}, stderr)
		if err != nil {
			return fail(stderr, "advise", err)
		}
		profs = append(profs, prof)
		a, err := advise.Run(ctx, prof, opts)
		if err != nil {
			return fail(stderr, "advise", fmt.Errorf("%s: %w", in, err))
		}
		all = append(all, a)
	}
	// Several reports of one job (NCCL collectives to match): the job's
	// advice first, with straggler and nccl_wait.
	if len(profs) > 1 {
		job, err := advise.Job(ctx, profs, all, opts)
		switch {
		case errors.Is(err, advise.ErrNotOneJob):
		case err != nil:
			fmt.Fprintf(stderr, "nsysx advise: not advising across the ranks: %v\n", err)
		default:
			all = append([]*advise.Advice{job}, all...)
		}
	}
	err = frontend.WriteOutputFile(out, stdout, func(w io.Writer) error {
		for i, a := range all {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := frontend.WriteAdvice(w, a, spec, !quiet); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fail(stderr, "advise", err)
	}
	return 0
}
