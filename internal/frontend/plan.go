package frontend

import (
	"strings"
	"time"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// Job is one report (or rule) with its options, format and output.
type Job struct {
	Report *nsysx.Report
	Opts   []nsysx.KV
	// Format is the format given with -f, csv for a file output without
	// -f, or Options.Console for the console; nil for the console when
	// Options.Console is "" (the kernel shows a table).
	Format *format.Spec
	// Out is "-" for the console, "@CMD" to pipe to a command, "." for
	// the input's name, else the base of the file name.
	Out string
}

// Plan is a whole run: every job runs on every input.
type Plan struct {
	Cmd            string // "stats" or "analyze"
	Jobs           []Job
	Quiet          bool
	ForceExport    bool
	ForceOverwrite bool
	Filter         *nsysx.Filter
	ExportTimeout  time.Duration // 0: the library's default (see nsysx.OpenOptions)
}

// Options are what the command and the kernel do differently.
type Options struct {
	// Console is the format of console output when -f is not given:
	// "column" in the command; "" in the kernel, which shows tables.
	Console string
	// NoPipes refuses -o @CMD with this reason.
	NoPipes string
}

// Build makes the plan of cmd ("stats" or "analyze") from parsed flags.
// Every error is a *UsageError naming the word at fault.
func Build(cmd string, p *Parsed, o Options) (*Plan, error) {
	pl := &Plan{Cmd: cmd}
	var err error
	for _, b := range []struct {
		flag string
		v    *bool
	}{{"--quiet", &pl.Quiet}, {"--force-export", &pl.ForceExport}, {"--force-overwrite", &pl.ForceOverwrite}} {
		if *b.v, err = p.Bool(b.flag); err != nil {
			return nil, err
		}
	}
	tu := ""
	if p.Has("--timeunit") {
		if tu, err = format.ParseTimeUnit(p.Last("--timeunit")); err != nil {
			return nil, Usagef("--timeunit: %v", err)
		}
	}
	reps, fmts, outs := names(p, cmd == "analyze"), p.List("--format"), p.List("--output")
	if len(outs) == 0 {
		outs = []string{"-"}
	}
	for i := range max(len(reps), len(fmts), len(outs)) {
		j, err := newJob(cmd == "analyze", pick(reps, i), pick(fmts, i), pick(outs, i), tu, o)
		if err != nil {
			return nil, err
		}
		pl.Jobs = append(pl.Jobs, j)
	}
	if pl.Filter, err = Filter(p); err != nil {
		return nil, err
	}
	if pl.ExportTimeout, err = ExportTimeout(p); err != nil {
		return nil, err
	}
	return pl, nil
}

// names is the list of -r words: nsys's default reports for stats, every
// rule for analyze without -r or with -r all (any case).
func names(p *Parsed, rules bool) []string {
	reps := append(p.List("--report"), p.List("--rule")...) // analyze's canonical name is --rule
	switch {
	case len(reps) == 0 && !rules:
		return nsysx.DefaultReports()
	case rules && (len(reps) == 0 || len(reps) == 1 && strings.EqualFold(reps[0], "all")):
		reps = nil
		for _, r := range nsysx.Rules() {
			reps = append(reps, r.Name)
		}
	}
	return reps
}

// pick is l[i], or l's last word when l is shorter, as nsys pairs -r, -f
// and -o lists.
func pick(l []string, i int) string {
	if len(l) == 0 {
		return ""
	}
	return l[min(i, len(l)-1)]
}

func newJob(rules bool, rep, f, out, tu string, o Options) (Job, error) {
	j := Job{Out: out}
	if strings.HasPrefix(out, "@") && o.NoPipes != "" {
		return j, Usagef("-o @CMD (piping to a command) %s", o.NoPipes)
	}
	var err error
	if j.Report, j.Opts, err = Lookup(rep, rules); err != nil {
		return j, Usagef("%v", err)
	}
	if err := nsysx.CheckOptions(j.Report, j.Opts); err != nil {
		return j, Usagef("%v", err)
	}
	switch {
	case f == "" && out != "-":
		f = "csv"
	case f == "":
		f = o.Console
	}
	if f == "" {
		return j, nil
	}
	fs, err := format.ParseSpec(f)
	if err != nil {
		return j, Usagef("%v", err)
	}
	if tu != "" {
		fs.TimeUnit = tu
	}
	if out == "-" && IsBinary(fs.Name) {
		return j, Usagef("format %s is binary: give -o BASE to write a file", fs.Name)
	}
	j.Format = &fs
	return j, nil
}

// Lookup finds the report (or, with rules, the rule) that a -r word
// such as cuda_gpu_kern_sum:base names, and its options.
func Lookup(word string, rules bool) (*nsysx.Report, []nsysx.KV, error) {
	sp := nsysx.ParseSpec(word)
	var r *nsysx.Report
	var err error
	if rules {
		r, err = nsysx.LookupRule(sp.Name)
	} else {
		r, err = nsysx.LookupReport(sp.Name)
	}
	return r, sp.Opts, err
}

// IsBinary says whether a format writes bytes no console should show.
func IsBinary(f string) bool { return f == "arrow" || f == "parquet" }

// IsReportOrFormat says whether the word after --help-reports (or
// --help-rules, --help-formats) is that flag's value.
func IsReportOrFormat(s string) bool {
	if strings.EqualFold(s, "all") {
		return true
	}
	if _, err := format.ParseSpec(s); err == nil {
		return true
	}
	_, e1 := nsysx.LookupReport(s)
	_, e2 := nsysx.LookupRule(s)
	return e1 == nil || e2 == nil
}
