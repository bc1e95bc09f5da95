package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/critpath"
	"github.com/nsysx/nsysx/nsysx/format"
)

// writeRanks writes, after a blank line, the critical path across the
// ranks of one job, profs (one report per rank): per iteration (NVTX
// ranges matching iterRe, "" for the default) and rank, the straggler, the
// time lost waiting in NCCL collectives and the step with the straggler at
// the median pace, in the format spec to w, under a title line in the
// column and table formats. It writes nothing when critpath.Ranks fails
// (critpath.ErrNoCollectives: the reports are not one job's). Warnings go
// to stderr, one line each. A binary format (arrow, parquet) needs w to be
// a file.
func writeRanks(ctx context.Context, w, stderr io.Writer, profs []*nsysx.Profile, iterRe string, spec format.Spec) error {
	r, err := critpath.Ranks(ctx, profs, critpath.RanksOptions{Iterations: iterRe})
	if err != nil {
		return err
	}
	for _, m := range r.Warnings {
		fmt.Fprintf(stderr, "nsysx critical-path: warning: %s\n", m)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw)
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
