package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/compare"
	"github.com/nsysx/nsysx/nsysx/format"
)

var compareFlags = frontend.Compare()

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	p, err := parseArgs("compare", args, compareFlags, nil)
	if err != nil {
		return fail(stderr, "compare", err)
	}
	if p.Has("--help") {
		fmt.Fprintf(stdout, "Usage: nsysx compare [flags] BEFORE AFTER\n\n%s\nThe method and the verdict rule: README, \"nsysx compare\".\n", frontend.Help(compareFlags))
		return 0
	}
	if len(p.Args) != 2 {
		return fail(stderr, "compare", usageErr("give two profiles, BEFORE and AFTER (got %d)", len(p.Args)))
	}
	fs := "column"
	if p.Has("--format") {
		fs = p.Last("--format")
	}
	spec, err := format.ParseSpec(fs)
	if err != nil {
		return fail(stderr, "compare", &unknownName{err})
	}
	out, err := outputFileArg(p)
	if err != nil {
		return fail(stderr, "compare", err)
	}
	if (spec.Name == "arrow" || spec.Name == "parquet") && (out == "" || out == "-") {
		return fail(stderr, "compare", usageErr("-f %s is binary: give -o FILE", spec.Name))
	}
	opts, err := frontend.CompareOptions(p)
	if err != nil {
		return fail(stderr, "compare", err)
	}
	quiet, _ := p.Bool("--quiet")
	force, _ := p.Bool("--force-export")
	var profs [2]*nsysx.Profile
	for i, in := range p.Args {
		if profs[i], err = openInput(ctx, in, openFlags{force: force, quiet: true}, stderr); err != nil {
			return fail(stderr, "compare", err)
		}
		defer profs[i].Close()
	}
	c, err := compare.Profiles(ctx, profs[0], profs[1], opts)
	var skip *nsysx.SkipError
	if errors.As(err, &skip) {
		fmt.Fprintln(stderr, err)
		return 0
	}
	if err != nil {
		return fail(stderr, "compare", err)
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(stderr, "nsysx compare: %s\n", w)
	}
	if err := writeComparison(c, spec, out, quiet, stdout); err != nil {
		return fail(stderr, "compare", err)
	}
	failOn, _ := frontend.FailOn(p) // checked by CompareOptions
	if rows := c.Failing(failOn...); len(failOn) > 0 && len(rows) > 0 {
		fmt.Fprintf(stderr, "nsysx compare: %s\n", frontend.FailMessage(c, rows, failOn))
		return exitFailOn
	}
	return 0
}

// exitFailOn is the exit status of `nsysx compare --fail-on` when a row
// fails it.
const exitFailOn = 3

// writeComparison prints the summary (console formats only) and the table.
func writeComparison(c *compare.Comparison, spec format.Spec, out string, quiet bool, stdout io.Writer) error {
	return frontend.WriteOutputFile(out, stdout, func(w io.Writer) error {
		return frontend.WriteComparison(w, c, spec, !quiet)
	})
}
