package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/internal/procgroup"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

var (
	statsFlags   = frontend.Stats()
	analyzeFlags = frontend.Analyze()
)

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runReports(ctx, "stats", args, stdout, stderr, false)
}

func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runReports(ctx, "analyze", args, stdout, stderr, true)
}

// runReports implements both `stats` and `analyze`; the plan is built by
// internal/frontend, as for the kernel's %nsys stats and analyze.
func runReports(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer, rules bool) int {
	ctx = nsysx.WithLoadParts(ctx, 2)
	defs := statsFlags
	if rules {
		defs = analyzeFlags
	}
	p, err := parseArgs(cmd, args, defs, frontend.IsReportOrFormat)
	if err != nil {
		return fail(stderr, cmd, err)
	}
	switch {
	case p.Has("--help"):
		fmt.Fprintf(stdout, "Usage: nsysx %s [flags] FILE...\n\n%s", cmd, frontend.Help(defs))
		return 0
	case p.Has("--help-reports") || p.Has("--help-rules"):
		return helpReports(stdout, stderr, cmd, p.Last("--help-reports")+p.Last("--help-rules"), rules)
	case p.Has("--help-formats"):
		return helpFormats(stdout, stderr, cmd, p.Last("--help-formats"))
	}
	inputs := p.Args
	if sample, _ := p.Bool("--sample"); sample {
		inputs = append([]string{sampleName}, inputs...)
	}
	if len(inputs) == 0 {
		return fail(stderr, cmd, usageErr("no input file (give a .sqlite, .nsys-rep or *_pqtdir, or --sample)"))
	}
	pl, err := frontend.Build(cmd, p, frontend.Options{Console: "column"})
	if err != nil {
		return fail(stderr, cmd, err)
	}
	r := &cliRun{Plan: pl, nInputs: len(p.Args), stdout: stdout, stderr: stderr}
	status := 0
	for _, in := range inputs {
		status = max(status, r.runFile(ctx, in))
	}
	return status
}

// cliRun runs a plan, printing as nsys stats does.
type cliRun struct {
	*frontend.Plan
	nInputs        int
	stdout, stderr io.Writer
	said           map[string]bool // error lines printed for the current input
}

// fail prints err once per input: reports that fail alike (they read the
// same broken table) give one line, not one each, and a damaged file is
// said to be damaged once, where the first report to find damage says
// what it found (others may trip over other damage of the same file).
func (r *cliRun) fail(err error) int {
	var b strings.Builder
	code := fail(&b, r.Cmd, err)
	key := b.String()
	if errors.Is(err, nsysx.ErrDamaged) {
		key = "damaged"
	}
	if !r.said[key] {
		r.said[key] = true
		io.WriteString(r.stderr, b.String())
	}
	return code
}

func (r *cliRun) runFile(ctx context.Context, in string) int {
	r.said = map[string]bool{}
	prof, err := openInput(ctx, in, openFlags{force: r.ForceExport, quiet: r.Quiet, timeout: r.ExportTimeout}, r.stderr)
	if err != nil {
		return r.fail(err)
	}
	defer prof.Close()
	status := 0
	for _, j := range r.Jobs {
		status = max(status, r.runJob(ctx, prof, in, j))
		if ctx.Err() != nil {
			return r.fail(ctx.Err())
		}
	}
	return status
}

func (r *cliRun) runJob(ctx context.Context, prof *nsysx.Profile, in string, j frontend.Job) int {
	res, err := prof.RunReport(ctx, j.Report, j.Opts, r.Filter)
	if err != nil {
		return r.fail(err)
	}
	switch {
	case j.Out == "-":
		return r.console(res, in, j)
	case strings.HasPrefix(j.Out, "@"):
		return r.pipe(ctx, res, j, in)
	}
	return r.file(ctx, prof, res, in, j)
}

// announce prints nsys's Processing line and, for a skipped result, its
// SKIPPED line; it says whether there is a result to write.
func (r *cliRun) announce(in string, j frontend.Job, res *nsysx.Result) bool {
	if !r.Quiet {
		fmt.Fprintf(r.stdout, "Processing [%s] with [%s]%s... \n", in, j.Report.Name, r.ArgText(j))
	}
	if res.Skipped != "" {
		if !r.Quiet {
			fmt.Fprintf(r.stdout, "SKIPPED: %s\n\n", res.Skipped)
		}
		return false
	}
	return true
}

func (r *cliRun) console(res *nsysx.Result, in string, j frontend.Job) int {
	if !r.announce(in, j, res) {
		return 0
	}
	defer lowGCWhileWriting(res)()
	w := bufio.NewWriterSize(r.stdout, 1<<16)
	if err := format.Write(w, res, *j.Format); err != nil {
		return r.fail(err)
	}
	if res.Len() > 0 {
		w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		return r.fail(err)
	}
	return 0
}

// file writes BASE_<report>.<ext>; an existing file is kept unless
// --force-overwrite, as in nsys.
func (r *cliRun) file(ctx context.Context, prof *nsysx.Profile, res *nsysx.Result, in string, j frontend.Job) int {
	name := r.OutName(j, prof, in, r.nInputs)
	if !r.Quiet {
		fmt.Fprintf(r.stdout, "Processing [%s] with [%s]%s... ", in, j.Report.Name, r.ArgText(j))
	}
	if _, err := os.Stat(name); err == nil && !r.ForceOverwrite {
		if !r.Quiet {
			fmt.Fprintln(r.stdout)
		}
		fmt.Fprintf(r.stdout, "SKIPPED: output file %s exists.\n", name)
		return 0
	}
	defer lowGCWhileWriting(res)()
	if err := frontend.WriteResult(ctx, name, res, *j.Format); err != nil {
		if !r.Quiet {
			fmt.Fprintln(r.stdout)
		}
		return r.fail(err)
	}
	if !r.Quiet {
		fmt.Fprintf(r.stdout, "to [%s]... %s\n", name, frontend.State(res))
		if res.Skipped != "" {
			fmt.Fprintf(r.stdout, "SKIPPED: %s\n\n", res.Skipped)
		}
	}
	return 0
}

// lowGCWhileWriting makes the collector run twice as often while a large
// result is written: rendering millions of cells makes short-lived strings,
// and collecting at 50% heap growth keeps peak memory down for a few percent
// of CPU. Computing the report keeps Go's default. GOGC set by the user wins.
func lowGCWhileWriting(res *nsysx.Result) func() {
	if res.Len() < 100000 {
		return func() {}
	}
	return lowGC(50)
}

// lowGC sets the collector's target heap growth to percent, unless the user
// set GOGC, and returns what restores it.
func lowGC(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	endDeferGC()
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

// pipe writes the result to the standard input of `sh -c CMD`, run in its
// own process group: an interrupt stops CMD and what it started.
func (r *cliRun) pipe(ctx context.Context, res *nsysx.Result, j frontend.Job, in string) int {
	if !r.announce(in, j, res) {
		return 0
	}
	c := procgroup.Command(ctx, "/bin/sh", "-c", j.Out[1:])
	c.Stdout, c.Stderr = r.stdout, r.stderr
	w, err := c.StdinPipe()
	if err != nil {
		return r.fail(err)
	}
	if err := c.Start(); err != nil {
		return r.fail(err)
	}
	bw := bufio.NewWriter(w)
	werr := format.Write(bw, res, *j.Format)
	bw.Flush()
	w.Close()
	err = c.Wait()
	procgroup.Reap(ctx, c)
	switch {
	case ctx.Err() != nil:
		return r.fail(ctx.Err())
	case err != nil:
		return r.fail(fmt.Errorf("output command %q: %v", j.Out[1:], err))
	case werr != nil:
		return r.fail(werr)
	}
	return 0
}
