package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/critpath"
	"github.com/nsysx/nsysx/nsysx/format"
)

var criticalPathFlags = frontend.CriticalPath()

// runCriticalPath is `nsysx critical-path`: per profile, each iteration's
// observed, replayed and predicted time and its critical path.
func runCriticalPath(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const cmd = "critical-path"
	p, err := parseArgs(cmd, args, criticalPathFlags, nil)
	if err != nil {
		return fail(stderr, cmd, err)
	}
	if p.Has("--help") {
		fmt.Fprintf(stdout, "Usage: nsysx critical-path [flags] FILE...\n\n%s\nThe model, the what-if specs and the CSV columns: docs/critical-path.md.\n", frontend.Help(criticalPathFlags))
		return 0
	}
	if len(p.Args) == 0 {
		return fail(stderr, cmd, usageErr("give at least one profile"))
	}
	spec, err := format.ParseSpec(cmp(p.Last("--format"), "column"))
	if err != nil {
		return fail(stderr, cmd, &unknownName{err})
	}
	if err := frontend.CriticalPathFormat(spec); err != nil {
		return fail(stderr, cmd, err)
	}
	opts, err := frontend.CriticalPathOptions(p)
	if err != nil {
		return fail(stderr, cmd, err)
	}
	quiet, err := p.Bool("--quiet")
	if err != nil {
		return fail(stderr, cmd, err)
	}
	force, err := p.Bool("--force-export")
	if err != nil {
		return fail(stderr, cmd, err)
	}
	out, err := outputFileArg(p)
	if err != nil {
		return fail(stderr, cmd, err)
	}
	var all []*critpath.Result
	var profs []*nsysx.Profile
	defer func() {
		for _, prof := range profs {
			prof.Close()
		}
	}()
	for _, in := range p.Args {
		prof, err := openInput(ctx, in, openFlags{force: force, quiet: true}, stderr)
		if err != nil {
			return fail(stderr, cmd, err)
		}
		profs = append(profs, prof)
		r, err := critpath.Analyze(ctx, prof, opts)
		if err != nil {
			return fail(stderr, cmd, err)
		}
		all = append(all, r)
	}
	err = frontend.WriteOutputFile(out, stdout, func(w io.Writer) error {
		for i, r := range all {
			if i > 0 && spec.Name != "csv" {
				fmt.Fprintln(w)
			}
			if err := frontend.WriteCriticalPath(w, r, i, spec, !quiet); err != nil {
				return err
			}
		}
		// The reports of one job's ranks (NCCL collectives to match): the
		// critical path across them, after each rank's own, from the
		// profiles already open.
		if len(profs) > 1 {
			err := writeRanks(ctx, w, stderr, profs, opts.Iterations, spec)
			switch {
			case errors.Is(err, critpath.ErrNoCollectives):
			case err != nil:
				fmt.Fprintf(stderr, "nsysx critical-path: not across the ranks: %v\n", err)
			}
		}
		return nil
	})
	if err != nil {
		return fail(stderr, cmd, err)
	}
	return 0
}

// cmp is s, or def when s is empty.
func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
