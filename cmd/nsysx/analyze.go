package main

import "io"

var analyzeFlags = []flagDef{
	{Names: []string{"-r", "--rule"}, Value: true, Help: "rule[:option...][,...]: rules to run, or all (default)"},
	{Names: []string{"-f", "--format"}, Value: true, Help: "format[:option...][,...]: column (console default, with advice text), table, csv, tsv, json, hdoc, htable, arrow, parquet"},
	{Names: []string{"-o", "--output"}, Value: true, Help: "output[,...]: - for the console (default), BASE for files BASE_<rule>.<ext>, . for the input's name"},
	{Names: []string{"-q", "--quiet"}, Help: "print only rule output"},
	{Names: []string{"--force-export"}, Help: "re-export a .nsys-rep even if a fresh .sqlite exists"},
	{Names: []string{"--force-overwrite"}, Help: "overwrite existing output files"},
	{Names: []string{"--timeunit"}, Value: true, Help: "nsec|usec|msec|seconds: time unit in every format"},
	{Names: []string{"--help-rules"}, Optional: true, Help: "[name|ALL]: list rules, or describe one"},
	{Names: []string{"--help-formats"}, Optional: true, Help: "[name|ALL]: list formats, or describe one"},
	{Names: []string{"--sample"}, Help: "run on the sample profile built into nsysx"},
	{Names: []string{"-h", "--help"}, Help: "show this help"},
}

func runAnalyze(args []string, stdout, stderr io.Writer) int {
	// nsys analyze spells the rule flag -r/--rule; accept --report too.
	for i, a := range args {
		if a == "--report" {
			args[i] = "--rule"
		}
	}
	return runReports("analyze", args, stdout, stderr, true)
}
