package frontend

import (
	"bufio"
	"fmt"
	"io"
	"regexp"

	"github.com/nsysx/nsysx/nsysx/advise"
	"github.com/nsysx/nsysx/nsysx/format"
)

// Advise is the flags of `nsysx advise` and %nsys advise.
func Advise() []Flag {
	return []Flag{
		{Names: []string{"-f", "--format"}, Value: true, Help: "format[:option...]: column (console default: the scope line, then the table), table, csv (only the CSV, header first), tsv, json, hdoc, htable"},
		{Names: []string{"-o", "--output"}, Value: true, Help: "- for the console (default), or a file name (an existing file needs --force-overwrite)"},
		overwriteFileFlag(),
		{Names: []string{"--iterations"}, Value: true, Help: "REGEX: names of the NVTX ranges that mark iterations (default: iteration N, step N, ...)"},
		forceExportFlag(),
		{Names: []string{"-q", "--quiet"}, Help: "no scope line above the table"},
		helpFlag(),
	}
}

// AdviseOptions reads the advise flags.
func AdviseOptions(p *Parsed) (advise.Options, error) {
	o := advise.Options{Iterations: p.Last("--iterations")}
	if _, err := regexp.Compile(o.Iterations); err != nil {
		return o, Usagef("--iterations: %v", err)
	}
	return o, nil
}

// AdviseFormat checks that a format suits advise's text table.
func AdviseFormat(spec format.Spec) error {
	if spec.Name == "arrow" || spec.Name == "parquet" {
		return Usagef("advise writes text formats (column, table, csv, tsv, json, hdoc, htable), not %s", spec.Name)
	}
	return nil
}

// WriteAdvice writes the findings of one profile in spec's format; with
// summary, the console formats column and table start with the scope line.
func WriteAdvice(w io.Writer, a *advise.Advice, spec format.Spec, summary bool) error {
	bw := bufio.NewWriter(w)
	if summary && (spec.Name == "column" || spec.Name == "table") {
		fmt.Fprintln(bw, a.Summary())
	}
	err := format.Write(bw, a.Result(), spec)
	if err == nil {
		err = bw.Flush()
	}
	return err
}
