package frontend

import (
	"bufio"
	"fmt"
	"io"
	"regexp"

	"github.com/nsysx/nsysx/nsysx/critpath"
	"github.com/nsysx/nsysx/nsysx/format"
)

// CriticalPath is the flags of `nsysx critical-path` and %nsys critical-path.
func CriticalPath() []Flag {
	return []Flag{
		{Names: []string{"-f", "--format"}, Value: true, Help: "format[:option...]: column (console default: the summary, then the table), table, csv (only the CSV, header first), tsv, json, hdoc, htable"},
		{Names: []string{"-o", "--output"}, Value: true, Help: "- for the console (default), or a file name (an existing file needs --force-overwrite)"},
		overwriteFileFlag(),
		{Names: []string{"--iterations"}, Value: true, Help: "REGEX: names of the NVTX ranges that mark iterations (default: iteration N, step N, ...)"},
		{Names: []string{"--what-if"}, Value: true, Help: "SPEC: kernels[:REGEX]=FACTOR, memcpy=FACTOR, host[:REGEX]=FACTOR, launch=FACTOR or sync=drop; may be repeated"},
		forceExportFlag(),
		{Names: []string{"-q", "--quiet"}, Help: "no summary above the table"},
		helpFlag(),
	}
}

// All is every value given to a flag, unsplit.
func (p *Parsed) All(name string) []string { return p.vals[name] }

// CriticalPathOptions reads the critical-path flags.
func CriticalPathOptions(p *Parsed) (critpath.Options, error) {
	o := critpath.Options{Iterations: p.Last("--iterations")}
	if _, err := regexp.Compile(o.Iterations); err != nil {
		return o, Usagef("--iterations: %v", err)
	}
	for _, s := range p.All("--what-if") {
		w, err := critpath.ParseWhatIf(s)
		if err != nil {
			return o, Usagef("--what-if: %v", err)
		}
		o.WhatIf = append(o.WhatIf, w)
	}
	return o, nil
}

// CriticalPathFormat checks that a format suits critical-path's text table.
func CriticalPathFormat(spec format.Spec) error {
	if spec.Name == "arrow" || spec.Name == "parquet" {
		return Usagef("critical-path writes text formats (column, table, csv, tsv, json, hdoc, htable), not %s", spec.Name)
	}
	return nil
}

// WriteCriticalPath writes one profile's iterations in spec's format (rank:
// the profile's place among the inputs); with summary, the console
// formats column and table start with the summary lines.
func WriteCriticalPath(w io.Writer, r *critpath.Result, rank int, spec format.Spec, summary bool) error {
	bw := bufio.NewWriter(w)
	if summary && (spec.Name == "column" || spec.Name == "table") {
		fmt.Fprintln(bw, r.Summary())
	}
	err := format.Write(bw, r.Table(rank), spec)
	if err == nil {
		err = bw.Flush()
	}
	return err
}
