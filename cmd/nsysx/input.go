package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx"
)

// sampleName stands for the profile embedded in the binary.
const sampleName = nsysx.SampleName

func openInput(ctx context.Context, in string, forceExport bool, stderr io.Writer, quiet bool) (*nsysx.Profile, error) {
	if in == sampleName {
		return nsysx.OpenSample()
	}
	return nsysx.OpenWith(ctx, in, nsysx.OpenOptions{ForceExport: forceExport, Progress: func(msg string) {
		if !quiet {
			fmt.Fprintln(stderr, msg)
		}
	}})
}
