package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"regexp"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/critpath"
	"github.com/nsysx/nsysx/nsysx/format"
)

// writeRanks is `nsysx critical-path` given several FILEs, the reports of
// one job (one per rank): per iteration (NVTX ranges matching iterRe, ""
// for the default) and rank, the straggler, the time lost waiting in NCCL
// collectives and the step with the straggler at the median pace, in
// format fs (a -f value) to w, under a title line in the column and table
// formats. Warnings go to stderr, one line each. A binary format (arrow,
// parquet) needs w to be a file.
func writeRanks(ctx context.Context, w, stderr io.Writer, files []string, iterRe, fs string) error {
	spec, err := format.ParseSpec(fs)
	if err != nil {
		return &unknownName{err}
	}
	if len(files) < 2 {
		return usageErr("give the reports of at least two ranks (got %d)", len(files))
	}
	if _, err := regexp.Compile(iterRe); err != nil {
		return usageErr("--iterations %q: %v", iterRe, err)
	}
	var profs []*nsysx.Profile
	defer func() {
		for _, p := range profs {
			p.Close()
		}
	}()
	for _, f := range files {
		p, err := openInput(ctx, f, openFlags{quiet: true}, stderr)
		if err != nil {
			return err
		}
		profs = append(profs, p)
	}
	r, err := critpath.Ranks(ctx, profs, critpath.RanksOptions{Iterations: iterRe})
	if err != nil {
		return err
	}
	for _, m := range r.Warnings {
		fmt.Fprintf(stderr, "nsysx critical-path: warning: %s\n", m)
	}
	bw := bufio.NewWriter(w)
	switch spec.Name {
	case "arrow":
		err = format.WriteArrow(bw, r.Result())
	case "parquet":
		err = format.WriteParquet(bw, r.Result())
	default:
		if spec.Name == "column" || spec.Name == "table" {
			fmt.Fprintln(bw, r.Title())
		}
		err = format.Write(bw, r.Result(), spec)
	}
	if err == nil {
		err = bw.Flush()
	}
	return err
}
