package main

import (
	"context"
	"io"

	"github.com/nsysx/nsysx/internal/cliflags"
)

var analyzeFlags = cliflags.Analyze()

func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runReports(ctx, "analyze", args, stdout, stderr, true)
}
