package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/nsysx"
)

// sampleName stands for the profile embedded in the binary.
const sampleName = nsysx.SampleName

// interrupted is the signal context of the running command (watchSignals),
// for exitCode to tell an interrupt from another cancellation. Commands get it
// as their ctx: a
// .nsys-rep export, an -o @CMD pipe and a report in progress stop, their
// children with them.
var interrupted = context.Background()

// openFlags are the flags that say how inputs open.
type openFlags struct {
	force, quiet bool          // --force-export, --quiet
	timeout      time.Duration // --export-timeout
}

func openInput(ctx context.Context, in string, o openFlags, stderr io.Writer) (*nsysx.Profile, error) {
	if in == sampleName {
		return nsysx.OpenSample()
	}
	return nsysx.OpenWith(ctx, in, nsysx.OpenOptions{ForceExport: o.force,
		ExportTimeout: o.timeout, Progress: func(msg string) {
			if !o.quiet {
				fmt.Fprintln(stderr, msg)
			}
		}})
}

// openFlagsOf reads --force-export, --quiet and --export-timeout.
func openFlagsOf(p *parsed) (openFlags, error) {
	var o openFlags
	var err error
	if o.force, err = p.Bool("--force-export"); err != nil {
		return o, err
	}
	if o.quiet, err = p.Bool("--quiet"); err != nil {
		return o, err
	}
	o.timeout, err = frontend.ExportTimeout(p)
	return o, err
}

// openOne opens the one input of `export` (FILE, or --sample).
func openOne(ctx context.Context, p *parsed, stderr io.Writer) (*nsysx.Profile, openFlags, error) {
	inputs := p.Args
	if ok, _ := p.Bool("--sample"); ok {
		inputs = append([]string{sampleName}, inputs...)
	}
	if len(inputs) != 1 {
		return nil, openFlags{}, usageErr("give exactly one input file")
	}
	o, err := openFlagsOf(p)
	if err != nil {
		return nil, o, err
	}
	prof, err := openInput(ctx, inputs[0], o, stderr)
	return prof, o, err
}
