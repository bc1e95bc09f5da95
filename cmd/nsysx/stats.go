package main

import (
	"bufio"
	"context"
	"fmt"
	"github.com/nsysx/nsysx/internal/cliflags"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

var statsFlags = cliflags.Stats()

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runReports(ctx, "stats", args, stdout, stderr, false)
}

// runReports implements both `stats` and `analyze`.
func runReports(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer, rules bool) int {
	defs := statsFlags
	if rules {
		defs = analyzeFlags
	}
	p, err := parseArgs(cmd, args, defs, func(s string) bool {
		if s == "ALL" || s == "all" {
			return true
		}
		if _, err := format.ParseSpec(s); err == nil {
			return true
		}
		_, e1 := nsysx.LookupReport(s)
		_, e2 := nsysx.LookupRule(s)
		return e1 == nil || e2 == nil
	})
	if err != nil {
		return fail(stderr, cmd, err)
	}
	if p.Has("--help") {
		fmt.Fprintf(stdout, "Usage: nsysx %s [flags] FILE...\n\n%s", cmd, cliflags.Help(defs))
		return 0
	}
	if p.Has("--help-reports") || p.Has("--help-rules") {
		return helpReports(stdout, stderr, cmd, p.Last("--help-reports")+p.Last("--help-rules"), rules)
	}
	if p.Has("--help-formats") {
		return helpFormats(stdout, stderr, cmd, p.Last("--help-formats"))
	}
	inputs := p.Args
	sample, _ := p.Bool("--sample")
	if sample {
		inputs = append([]string{sampleName}, inputs...)
	}
	if len(inputs) == 0 {
		return fail(stderr, cmd, usageErr("no input file (give a .sqlite, .nsys-rep or *_pqtdir, or --sample)"))
	}
	o, err := newRunOpts(cmd, p, rules)
	if err != nil {
		return fail(stderr, cmd, err)
	}
	status := 0
	for _, in := range inputs {
		if st := o.runFile(ctx, in, stdout, stderr); st > status {
			status = st
		}
	}
	return status
}

// job is one report/format/output triple.
type job struct {
	rep    *nsysx.Report
	opts   []nsysx.KV
	raw    string // report argument as typed
	format format.Spec
	out    string
}

type runOpts struct {
	cmd            string
	jobs           []job
	quiet          bool
	forceExport    bool
	forceOverwrite bool
	filter         *nsysx.Filter
	nInputs        int
}

func newRunOpts(cmd string, p *parsed, rules bool) (*runOpts, error) {
	o := &runOpts{cmd: cmd, nInputs: len(p.Args)}
	var err error
	if o.quiet, err = p.Bool("--quiet"); err != nil {
		return nil, err
	}
	if o.forceExport, err = p.Bool("--force-export"); err != nil {
		return nil, err
	}
	if o.forceOverwrite, err = p.Bool("--force-overwrite"); err != nil {
		return nil, err
	}
	reps := append(p.List("--report"), p.List("--rule")...)
	if len(reps) == 0 {
		if rules {
			reps = []string{"all"}
		} else {
			reps = nsysx.DefaultReports()
		}
	}
	if rules && len(reps) == 1 && reps[0] == "all" {
		reps = nil
		for _, r := range nsysx.Rules() {
			reps = append(reps, r.Name)
		}
	}
	fmts := p.List("--format")
	outs := p.List("--output")
	if len(outs) == 0 {
		outs = []string{"-"}
	}
	n := max(len(reps), len(fmts), len(outs))
	pick := func(l []string, i int) string {
		if len(l) == 0 {
			return ""
		}
		return l[min(i, len(l)-1)]
	}
	tu := p.Last("--timeunit")
	if p.Has("--timeunit") {
		if _, err := format.ParseTimeUnit(tu); err != nil {
			return nil, usageErr("--timeunit: %v", err)
		}
	}
	for i := 0; i < n; i++ {
		j := job{raw: pick(reps, i), out: pick(outs, i)}
		sp := nsysx.ParseSpec(j.raw)
		if rules {
			j.rep, err = nsysx.LookupRule(sp.Name)
		} else {
			j.rep, err = nsysx.LookupReport(sp.Name)
		}
		if err != nil {
			return nil, &unknownName{err}
		}
		j.opts = sp.Opts
		if err := nsysx.CheckOptions(j.rep, j.opts); err != nil {
			return nil, err
		}
		f := pick(fmts, i)
		if f == "" {
			f = "csv"
			if j.out == "-" {
				f = "column"
			}
		}
		if j.format, err = format.ParseSpec(f); err != nil {
			return nil, &unknownName{err}
		}
		if p.Has("--timeunit") {
			j.format.TimeUnit, _ = format.ParseTimeUnit(tu)
		}
		if j.out == "-" && isBinary(j.format.Name) {
			return nil, usageErr("format %s is binary: give -o BASE to write a file", j.format.Name)
		}
		o.jobs = append(o.jobs, j)
	}
	ft, fn := p.Last("--filter-time"), p.Last("--filter-nvtx")
	switch {
	case p.Has("--filter-nvtx"):
		if o.filter, err = nsysx.ParseNVTXFilter(fn); err != nil {
			return nil, usageErr("--filter-nvtx: %v", err)
		}
	case p.Has("--filter-time"):
		if o.filter, err = nsysx.ParseTimeFilter(ft); err != nil {
			return nil, usageErr("--filter-time: %v", err)
		}
	}
	return o, nil
}

func isBinary(f string) bool { return f == "arrow" || f == "parquet" }

func (o *runOpts) runFile(ctx context.Context, in string, stdout, stderr io.Writer) int {
	prof, err := openInput(ctx, in, o.forceExport, stderr, o.quiet)
	if err != nil {
		fmt.Fprintf(stderr, "nsysx %s: %v\n", o.cmd, err)
		return 1
	}
	defer prof.Close()
	status := 0
	for _, j := range o.jobs {
		if st := o.runJob(ctx, prof, in, j, stdout, stderr); st > status {
			status = st
		}
	}
	return status
}

// argText is nsys's "(start=..:end=..:base)" after the script name.
func (o *runOpts) argText(j job) []string {
	var a []string
	if o.filter != nil {
		a = append(a, o.filter.Args()...)
	}
	for _, kv := range j.opts {
		if kv.Value != "" {
			a = append(a, kv.Key+"="+kv.Value)
		} else {
			a = append(a, kv.Key)
		}
	}
	return a
}

func (o *runOpts) runJob(ctx context.Context, prof *nsysx.Profile, in string, j job, stdout, stderr io.Writer) int {
	args := o.argText(j)
	argStr := ""
	if len(args) > 0 {
		argStr = "(" + strings.Join(args, ":") + ")"
	}
	res, err := prof.RunReport(ctx, j.rep, j.opts, o.filter)
	if err != nil {
		return fail(stderr, o.cmd, err)
	}
	switch {
	case j.out == "-":
		if !o.quiet {
			fmt.Fprintf(stdout, "Processing [%s] with [%s]%s... \n", in, j.rep.Name, argStr)
		}
		if res.Skipped != "" {
			if !o.quiet {
				fmt.Fprintf(stdout, "SKIPPED: %s\n\n", res.Skipped)
			}
			return 0
		}
		defer lowGCWhileWriting(res)()
		w := bufio.NewWriterSize(stdout, 1<<16)
		if err := format.Write(w, res, j.format); err != nil {
			return fail(stderr, o.cmd, err)
		}
		if res.Len() > 0 {
			w.WriteString("\n")
		}
		if err := w.Flush(); err != nil {
			return fail(stderr, o.cmd, err)
		}
		return 0
	case strings.HasPrefix(j.out, "@"):
		return o.pipe(res, j, in, argStr, stdout, stderr)
	}
	name := o.outName(prof, in, j, args)
	if !o.quiet {
		fmt.Fprintf(stdout, "Processing [%s] with [%s]%s... ", in, j.rep.Name, argStr)
	}
	if _, err := os.Stat(name); err == nil && !o.forceOverwrite {
		if !o.quiet {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "SKIPPED: output file %s exists.\n", name)
		return 0
	}
	if err := writeFile(name, res, j.format); err != nil {
		return fail(stderr, o.cmd, err)
	}
	if !o.quiet {
		state := "PROCESSED"
		if res.Skipped != "" || res.Len() == 0 {
			state = "PROCESSED (EMPTY RESULTS)"
		}
		fmt.Fprintf(stdout, "to [%s]... %s\n", name, state)
		if res.Skipped != "" {
			fmt.Fprintf(stdout, "SKIPPED: %s\n\n", res.Skipped)
		}
	}
	return 0
}

// lowGCWhileWriting makes the collector run twice as often while a large
// result is written: rendering millions of cells makes short-lived strings,
// and collecting at 50% heap growth keeps peak memory down for a few percent
// of CPU. Computing the report keeps Go's default. GOGC set by the user wins.
func lowGCWhileWriting(res *nsysx.Result) func() {
	if res.Len() < 100000 || os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(50)
	return func() { debug.SetGCPercent(old) }
}

func writeFile(name string, res *nsysx.Result, f format.Spec) error {
	defer lowGCWhileWriting(res)()
	fh, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<16)
	if res.Skipped == "" {
		switch f.Name {
		case "arrow":
			err = format.WriteArrow(w, res)
		case "parquet":
			err = format.WriteParquet(w, res)
		default:
			err = format.Write(w, res, f)
		}
	} else if f.Name == "json" {
		_, err = w.WriteString("[\n]\n")
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// outName builds BASE_<report>[_<arg>...].<ext>.
func (o *runOpts) outName(prof *nsysx.Profile, in string, j job, args []string) string {
	base := j.out
	if base == "." {
		base = strings.TrimSuffix(in, filepath.Ext(in))
		if prof.Format != "sqlite" {
			base = filepath.Join(filepath.Dir(in), prof.Base())
		}
	} else if o.nInputs > 1 {
		base += "_" + prof.Base()
	}
	parts := []string{base, j.rep.Name}
	for _, a := range args {
		parts = append(parts, strings.ReplaceAll(a, "/", "-"))
	}
	return strings.Join(parts, "_") + format.Ext(j.format.Name)
}

func (o *runOpts) pipe(res *nsysx.Result, j job, in, argStr string, stdout, stderr io.Writer) int {
	if !o.quiet {
		fmt.Fprintf(stdout, "Processing [%s] with [%s]%s... \n", in, j.rep.Name, argStr)
	}
	if res.Skipped != "" {
		if !o.quiet {
			fmt.Fprintf(stdout, "SKIPPED: %s\n\n", res.Skipped)
		}
		return 0
	}
	c := exec.Command("/bin/sh", "-c", j.out[1:])
	c.Stdout, c.Stderr = stdout, stderr
	w, err := c.StdinPipe()
	if err != nil {
		return fail(stderr, o.cmd, err)
	}
	if err := c.Start(); err != nil {
		return fail(stderr, o.cmd, err)
	}
	bw := bufio.NewWriter(w)
	werr := format.Write(bw, res, j.format)
	bw.Flush()
	w.Close()
	if err := c.Wait(); err != nil {
		return fail(stderr, o.cmd, fmt.Errorf("output command %q: %v", j.out[1:], err))
	}
	if werr != nil {
		return fail(stderr, o.cmd, werr)
	}
	return 0
}

func helpReports(stdout, stderr io.Writer, cmd, name string, rules bool) int {
	list := nsysx.Reports()
	if rules {
		list = nsysx.Rules()
	}
	if name == "" || name == "ALL" || name == "all" {
		kind := "reports"
		if rules {
			kind = "rules"
		}
		fmt.Fprintf(stdout, "Available %s (nsys 2022.4 names in brackets):\n\n", kind)
		for _, r := range list {
			if name == "" {
				al := ""
				if len(r.Aliases) > 0 {
					al = " [" + strings.Join(r.Aliases, ", ") + "]"
				}
				fmt.Fprintf(stdout, "  %s%s\n", r.Name, al)
			} else {
				describe(stdout, r)
			}
		}
		if name == "" {
			fmt.Fprintf(stdout, "\nRun `nsysx %s --help-%s NAME` for one, or ALL for every description.\n", cmd, kind)
		}
		return 0
	}
	sp := nsysx.ParseSpec(name)
	var r *nsysx.Report
	var err error
	if rules {
		r, err = nsysx.LookupRule(sp.Name)
	} else {
		r, err = nsysx.LookupReport(sp.Name)
	}
	if err != nil {
		return fail(stderr, cmd, &unknownName{err})
	}
	describe(stdout, r)
	return 0
}

func describe(w io.Writer, r *nsysx.Report) {
	fmt.Fprintf(w, "%s -- %s\n", r.Name, r.Title)
	if len(r.Aliases) > 0 {
		fmt.Fprintf(w, "  also: %s\n", strings.Join(r.Aliases, ", "))
	}
	fmt.Fprintf(w, "  %s\n", r.Help)
	opts := append([]nsysx.Option(nil), r.Options...)
	sort.SliceStable(opts, func(i, j int) bool { return false })
	for _, op := range opts {
		n := op.Name
		if !op.Flag {
			n += "=VALUE"
			if op.Default != "" {
				n += " (default " + op.Default + ")"
			}
		}
		fmt.Fprintf(w, "  :%-24s %s\n", n, op.Help)
	}
	fmt.Fprintf(w, "  :start=NS :end=NS :nvtx=RANGE[@DOMAIN]  restrict to a time window or NVTX range\n\n")
}

func helpFormats(stdout, stderr io.Writer, cmd, name string) int {
	if name == "" || name == "ALL" || name == "all" {
		for _, n := range format.Names() {
			if name == "" {
				fmt.Fprintf(stdout, "  %s\n", n)
			} else {
				fmt.Fprintf(stdout, "%s\n\n", format.Help(n))
			}
		}
		return 0
	}
	if _, err := format.ParseSpec(name); err != nil {
		return fail(stderr, cmd, &unknownName{err})
	}
	fmt.Fprintln(stdout, format.Help(strings.SplitN(name, ":", 2)[0]))
	return 0
}
