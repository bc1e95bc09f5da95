package main

import (
	"fmt"
	"github.com/nsysx/nsysx/internal/cliflags"
	"io"
	"os"
	"regexp"

	"github.com/nsysx/nsysx/nsysx"
)

var exportFlags = cliflags.Export()

func runExport(args []string, stdout, stderr io.Writer) int {
	p, err := parseArgs("export", args, exportFlags, nil)
	if err != nil {
		return fail(stderr, "export", err)
	}
	if p.Has("--help") {
		fmt.Fprintf(stdout, "Usage: nsysx export -t parquet|arrow [--tables REGEX] -o DIR FILE\n\n%s", cliflags.Help(exportFlags))
		return 0
	}
	typ := p.Last("--type")
	if typ == "pprof" {
		return exportPprof(p, stderr)
	}
	if typ != "parquet" && typ != "arrow" {
		return fail(stderr, "export", usageErr("-t must be parquet, arrow or pprof, not %q", typ))
	}
	dir := p.Last("--output")
	if dir == "" {
		return fail(stderr, "export", usageErr("-o DIR is required"))
	}
	re := regexp.MustCompile("")
	if t := p.Last("--tables"); t != "" {
		if re, err = regexp.Compile(t); err != nil {
			return fail(stderr, "export", usageErr("--tables: %v", err))
		}
	}
	inputs := p.Args
	if ok, _ := p.Bool("--sample"); ok {
		inputs = append([]string{sampleName}, inputs...)
	}
	if len(inputs) != 1 {
		return fail(stderr, "export", usageErr("give exactly one input file"))
	}
	quiet, _ := p.Bool("--quiet")
	force, _ := p.Bool("--force-export")
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
