package main

import (
	"io"

	"github.com/nsysx/nsysx/internal/cliflags"
)

var analyzeFlags = cliflags.Analyze()

func runAnalyze(args []string, stdout, stderr io.Writer) int {
	return runReports("analyze", args, stdout, stderr, true)
}
