package main

import "io"

var analyzeFlags = []flagDef{
	{names: []string{"-r", "--rule"}, value: true, help: "rule[:option...][,...]: rules to run, or all (default)"},
	{names: []string{"-f", "--format"}, value: true, help: "format[:option...][,...]: column (console default, with advice text), table, csv, tsv, json, hdoc, htable, arrow, parquet"},
	{names: []string{"-o", "--output"}, value: true, help: "output[,...]: - for the console (default), BASE for files BASE_<rule>.<ext>, . for the input's name"},
	{names: []string{"-q", "--quiet"}, help: "print only rule output"},
	{names: []string{"--force-export"}, help: "re-export a .nsys-rep even if a fresh .sqlite exists"},
	{names: []string{"--force-overwrite"}, help: "overwrite existing output files"},
	{names: []string{"--timeunit"}, value: true, help: "nsec|usec|msec|seconds: time unit in every format"},
	{names: []string{"--help-rules"}, optional: true, help: "[name|ALL]: list rules, or describe one"},
	{names: []string{"--help-formats"}, optional: true, help: "[name|ALL]: list formats, or describe one"},
	{names: []string{"--sample"}, help: "run on the sample profile built into nsysx"},
	{names: []string{"-h", "--help"}, help: "show this help"},
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
