package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/capture"
)

const profileUsage = `Usage: nsysx profile [nsys profile flags] -- COMMAND [ARGS...]

Records a profile with the installed Nsight Systems (nsys profile, output
streamed), exports it to SQLite once, and prints how to analyse it. Without
-o the report is nsysx-profile-YYYYMMDD-HHMMSS.nsys-rep in the current
directory. nsys is found on PATH.
`

func runProfile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, profileUsage)
		return 0
	}
	plan, err := capture.Parse(args, ".", time.Now())
	if err != nil {
		return fail(stderr, "profile", usageErr("%v", err))
	}
	rep, err := capture.Run(ctx, plan, stdout)
	if errors.Is(err, capture.ErrNoNsys) {
		return fail(stderr, "profile", fmt.Errorf("%w: %s", err, capture.Hint))
	}
	if err != nil {
		return fail(stderr, "profile", err)
	}
	p, err := nsysx.OpenWith(ctx, rep, nsysx.OpenOptions{Progress: func(m string) { fmt.Fprintln(stderr, m) }})
	if err != nil {
		return fail(stderr, "profile", err)
	}
	defer p.Close()
	fmt.Fprintf(stdout, "Profile: %s (opened with nsysx; schema %s)\nNext: nsysx stats %s\n", rep, p.SchemaVersion(ctx), rep)
	return 0
}
