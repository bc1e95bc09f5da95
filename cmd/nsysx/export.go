package main

import (
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/nsysx/nsysx/nsysx"
)

var exportFlags = []flagDef{
	{names: []string{"-t", "--type"}, value: true, help: "parquet or arrow (one file per table)"},
	{names: []string{"--tables"}, value: true, help: "REGEX: export only tables whose names match (default: all)"},
	{names: []string{"-o", "--output"}, value: true, help: "DIR: output directory (created if missing)"},
	{names: []string{"--force-export"}, help: "re-export a .nsys-rep even if a fresh .sqlite exists"},
	{names: []string{"-q", "--quiet"}, help: "no progress output"},
	{names: []string{"--sample"}, help: "export the sample profile built into nsysx"},
	{names: []string{"-h", "--help"}, help: "show this help"},
}

func runExport(args []string, stdout, stderr io.Writer) int {
	p, err := parseArgs("export", args, exportFlags, nil)
	if err != nil {
		return fail(stderr, "export", err)
	}
	if p.has("--help") {
		fmt.Fprintf(stdout, "Usage: nsysx export -t parquet|arrow [--tables REGEX] -o DIR FILE\n\n%s", flagHelp(exportFlags))
		return 0
	}
	typ := p.last("--type")
	if typ != "parquet" && typ != "arrow" {
		return fail(stderr, "export", usageErr("-t must be parquet or arrow, not %q", typ))
	}
	dir := p.last("--output")
	if dir == "" {
		return fail(stderr, "export", usageErr("-o DIR is required"))
	}
	re := regexp.MustCompile("")
	if t := p.last("--tables"); t != "" {
		if re, err = regexp.Compile(t); err != nil {
			return fail(stderr, "export", usageErr("--tables: %v", err))
		}
	}
	inputs := p.args
	if ok, _ := p.boolFlag("--sample"); ok {
		inputs = append([]string{sampleName}, inputs...)
	}
	if len(inputs) != 1 {
		return fail(stderr, "export", usageErr("give exactly one input file"))
	}
	quiet, _ := p.boolFlag("--quiet")
	force, _ := p.boolFlag("--force-export")
	prof, err := openInput(inputs[0], force, stderr, quiet)
	if err != nil {
		return fail(stderr, "export", err)
	}
	defer prof.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(stderr, "export", err)
	}
	bar := newProgress(stderr, "exporting tables", quiet)
	err = nsysx.ExportTables(prof, dir, typ, re, bar.update)
	bar.done()
	if err != nil {
		return fail(stderr, "export", err)
	}
	return 0
}
