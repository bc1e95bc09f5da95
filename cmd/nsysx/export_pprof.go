package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/stackprof"
)

// exportPprof is `nsysx export -t pprof -o BASE FILE`: BASE.pb.gz, the GPU
// kernel time by launching call stack (kernels as the innermost frames).
// A profile without call stacks prints a SKIPPED line and exits 0.
func exportPprof(ctx context.Context, p *parsed, stderr io.Writer) int {
	base := p.Last("--output")
	if base == "" {
		return fail(stderr, "export", usageErr("-o BASE is required (writes BASE.pb.gz)"))
	}
	if p.Last("--tables") != "" {
		return fail(stderr, "export", usageErr("--tables applies to -t parquet and -t arrow only"))
	}
	if err := p.CheckOutput(base + ".pb.gz"); err != nil {
		return fail(stderr, "export", err)
	}
	prof, o, err := openOne(ctx, p, stderr)
	if err != nil {
		return fail(stderr, "export", err)
	}
	quiet := o.quiet
	defer prof.Close()
	name, err := stackprof.WriteFile(ctx, prof, base, nsysx.StackOptions{Kernels: true})
	var se *stackprof.SkippedError
	if errors.As(err, &se) {
		if !quiet {
			fmt.Fprintln(stderr, se.Error())
		}
		return 0
	}
	if err != nil {
		return fail(stderr, "export", err)
	}
	if !quiet {
		fmt.Fprintf(stderr, "Generated:\n    %s\n", name)
	}
	return 0
}
