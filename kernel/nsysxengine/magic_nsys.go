package nsysxengine

import (
	"bytes"
	"context"
	"fmt"
	"github.com/nsysx/nsysx/internal/cliflags"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// The flags of %nsys stats and %nsys analyze: the CLI's, less the ones
// that make no sense in a notebook (@CMD outputs are refused).
var (
	statsFlags = notebookHelp(cliflags.Stats(),
		"format[:option...][,...]: show text in this nsys format instead of tables",
		"output[,...]: - shows the result (default), BASE writes BASE_<report>.<ext>, . the input's name",
		"show only the results (no SKIPPED list, no Processing lines)")
	analyzeFlags = notebookHelp(cliflags.Analyze(),
		"format[:option...][,...]: show text in this nsys format instead of tables",
		"output[,...]: - shows the result (default), BASE writes BASE_<rule>.<ext>, . the input's name",
		"show only the results")
)

// notebookHelp words -f, -o and -q for a notebook, where results are tables.
func notebookHelp(defs []flagDef, f, o, q string) []flagDef {
	defs = cliflags.WithHelp(defs, "-f", f)
	defs = cliflags.WithHelp(defs, "-o", o)
	return cliflags.WithHelp(defs, "-q", q)
}

const nsysUsage = "%nsys stats|analyze|export|compare|timeline [flags] [FILE|NAME...]\n       " + recipeUsage +
	"\n       %nsys profile [nsys profile flags] -- COMMAND"

const nsysHelp = `Run nsysx's stats reports, analyze rules or export on profiles, with the
flags of the nsysx command line (%nsys stats --help lists them). Results are
shown as tables; -f FORMAT shows nsys's text instead, -o BASE writes files.
FILE is a .sqlite (or .sqlite.gz), a .nsys-rep, a Parquet/Arrow directory; NAME
a profile bound by %open; with neither, the profile opened last is used.
Several reports update a progress line in place. Interrupt stops at once.
Examples:
  %nsys stats -r cuda_gpu_kern_sum,cuda_api_sum train.sqlite
  %nsys stats -r cuda_gpu_kern_sum:base --timeunit usec
  %nsys analyze -r gpu_gaps:gap=1 train
  %nsys export -t parquet -o out/ train.sqlite
  %nsys export -t perfetto -o train_trace train.sqlite
  %nsys compare train fixed
  %nsys timeline "iteration 12" train
%nsys recipe runs nsys's multi-report recipes; %nsys recipe --help lists them.
%nsys profile [nsys profile flags] -- COMMAND records a new profile with the
installed nsys (its output streamed here), exports it and opens it as the
session's profile, bound to a variable named after the report.
  %nsys profile -t cuda,nvtx -o run1 -- python3 train.py`

// magicNsys dispatches %nsys SUBCOMMAND.
func (e *Engine) magicNsys(ctx context.Context, args []string, _ string, out kernel.Output) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		io.WriteString(out.Stdout(), nsysUsage+"\n\n"+nsysHelp+"\n")
		return nil
	}
	switch args[0] {
	case "stats":
		return e.nsysReports(ctx, args[1:], out, false)
	case "analyze":
		return e.nsysReports(ctx, args[1:], out, true)
	case "export":
		return e.nsysExport(ctx, args[1:], out)
	case "recipe":
		return e.nsysRecipe(ctx, args[1:], out)
	case "profile":
		return e.nsysProfile(ctx, args[1:], out)
	case "compare":
		return e.nsysCompare(ctx, args[1:], out)
	case "timeline":
		return e.nsysTimeline(ctx, args[1:], out)
	}
	names := []string{"stats", "analyze", "export", "recipe", "profile", "compare", "timeline"}
	return usageErr("%%nsys: unknown command %q%s (%s)", args[0], nsysx.Suggest(args[0], names), strings.Join(names, ", "))
}

// reportJob is one report with its format and output.
type reportJob struct {
	rep    *nsysx.Report
	opts   []nsysx.KV
	format *format.Spec // nil: a table
	out    string       // "-" or a file base
}

type reportRun struct {
	cmd            string
	jobs           []reportJob
	quiet          bool
	forceOverwrite bool
	filter         *nsysx.Filter
	nInputs        int
}

func (e *Engine) nsysReports(ctx context.Context, args []string, out kernel.Output, rules bool) error {
	cmd, defs := "stats", statsFlags
	if rules {
		cmd, defs = "analyze", analyzeFlags
	}
	p, err := parseFlags(args, defs, isReportOrFormat)
	if err != nil {
		return err
	}
	w := out.Stdout()
	switch {
	case p.Has("--help"):
		fmt.Fprintf(w, "Usage: %%nsys %s [flags] [FILE|NAME...]\n\n%s", cmd, cliflags.Help(defs))
		return nil
	case p.Has("--help-reports") || p.Has("--help-rules"):
		return helpReports(out, p.Last("--help-reports")+p.Last("--help-rules"), rules)
	case p.Has("--help-formats"):
		return helpFormats(out, p.Last("--help-formats"))
	}
	run, err := newReportRun(cmd, p, rules)
	if err != nil {
		return err
	}
	profs, names, err := e.inputs(ctx, p)
	if err != nil {
		return err
	}
	run.nInputs = len(profs)
	return e.runReports(ctx, run, profs, names, out)
}

func isReportOrFormat(s string) bool {
	if s == "ALL" || s == "all" {
		return true
	}
	if _, err := format.ParseSpec(s); err == nil {
		return true
	}
	_, e1 := nsysx.LookupReport(s)
	_, e2 := nsysx.LookupRule(s)
	return e1 == nil || e2 == nil
}

// inputs opens the FILE|NAME arguments (or --sample, or the profile
// opened last).
func (e *Engine) inputs(ctx context.Context, p *parsedArgs) ([]*nsysx.Profile, []string, error) {
	ins := p.Args
	if ok, _ := p.Bool("--sample"); ok {
		ins = append([]string{"sample"}, ins...)
	}
	if len(ins) == 0 {
		last := e.profiles.lastOpened()
		if last == nil {
			return nil, nil, usageErr("no input: give a file, a name bound by %%open, or --sample")
		}
		return []*nsysx.Profile{last}, []string{last.Path}, nil
	}
	var profs []*nsysx.Profile
	for _, in := range ins {
		prof, err := e.resolve(ctx, in)
		if err != nil {
			return nil, nil, kernel.Errorf("OpenError", "%v", err)
		}
		profs = append(profs, prof)
	}
	return profs, ins, nil
}

func newReportRun(cmd string, p *parsedArgs, rules bool) (*reportRun, error) {
	r := &reportRun{cmd: cmd}
	var err error
	if r.quiet, err = p.Bool("--quiet"); err != nil {
		return nil, err
	}
	if r.forceOverwrite, err = p.Bool("--force-overwrite"); err != nil {
		return nil, err
	}
	reps := append(p.List("--report"), p.List("--rule")...)
	switch {
	case len(reps) == 0 && !rules:
		reps = nsysx.DefaultReports()
	case rules && (len(reps) == 0 || len(reps) == 1 && strings.EqualFold(reps[0], "all")):
		reps = nil
		for _, rl := range nsysx.Rules() {
			reps = append(reps, rl.Name)
		}
	}
	fmts, outs := p.List("--format"), p.List("--output")
	if len(outs) == 0 {
		outs = []string{"-"}
	}
	pick := func(l []string, i int) string {
		if len(l) == 0 {
			return ""
		}
		return l[min(i, len(l)-1)]
	}
	tu := p.Last("--timeunit")
	if p.Has("--timeunit") {
		if tu, err = format.ParseTimeUnit(tu); err != nil {
			return nil, usageErr("--timeunit: %v", err)
		}
	}
	for i := 0; i < max(len(reps), len(fmts), len(outs)); i++ {
		j := reportJob{out: pick(outs, i)}
		if strings.HasPrefix(j.out, "@") {
			return nil, usageErr("-o @CMD (piping to a command) is not available in the kernel")
		}
		sp := nsysx.ParseSpec(pick(reps, i))
		if rules {
			j.rep, err = nsysx.LookupRule(sp.Name)
		} else {
			j.rep, err = nsysx.LookupReport(sp.Name)
		}
		if err != nil {
			return nil, usageErr("%v", err)
		}
		j.opts = sp.Opts
		if err := nsysx.CheckOptions(j.rep, j.opts); err != nil {
			return nil, usageErr("%v", err)
		}
		f := pick(fmts, i)
		if f == "" && j.out != "-" {
			f = "csv"
		}
		if f != "" {
			fs, err := format.ParseSpec(f)
			if err != nil {
				return nil, usageErr("%v", err)
			}
			fs.TimeUnit = tu
			if j.out == "-" && (fs.Name == "arrow" || fs.Name == "parquet") {
				return nil, usageErr("format %s is binary: give -o BASE to write a file", fs.Name)
			}
			j.format = &fs
		}
		r.jobs = append(r.jobs, j)
	}
	switch {
	case p.Has("--filter-nvtx"):
		if r.filter, err = nsysx.ParseNVTXFilter(p.Last("--filter-nvtx")); err != nil {
			return nil, usageErr("--filter-nvtx: %v", err)
		}
	case p.Has("--filter-time"):
		if r.filter, err = nsysx.ParseTimeFilter(p.Last("--filter-time")); err != nil {
			return nil, usageErr("--filter-time: %v", err)
		}
	}
	return r, nil
}

// runReports runs every job on every profile, showing a progress line
// updated in place when there is more than one.
func (e *Engine) runReports(ctx context.Context, r *reportRun, profs []*nsysx.Profile, names []string, out kernel.Output) error {
	total := len(profs) * len(r.jobs)
	id := ""
	if total > 1 {
		id = e.newDisplayID("progress")
		_ = out.Display(kernel.Display{Data: ProgressBundle(0, total, r.jobs[0].rep.Name), ID: id})
	}
	start := time.Now()
	var results []*nsysx.Result
	var skipped [][2]string
	var failed []string
	n := 0
	for pi, prof := range profs {
		for _, j := range r.jobs {
			if id != "" {
				_ = out.UpdateDisplay(kernel.Display{Data: ProgressBundle(n+1, total, j.rep.Name), ID: id})
			}
			n++
			res, err := interruptible(ctx, &e.bg, func() (*nsysx.Result, error) {
				return prof.RunReport(ctx, j.rep, j.opts, r.filter)
			})
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				fmt.Fprintf(out.Stderr(), "%s on %s: %v\n", j.rep.Name, names[pi], err)
				failed = append(failed, j.rep.Name)
				continue
			}
			results = append(results, res)
			if res.Skipped != "" && j.out == "-" && j.format == nil {
				name := j.rep.Name
				if len(profs) > 1 {
					name += " on " + names[pi]
				}
				skipped = append(skipped, [2]string{name, res.Skipped})
				continue
			}
			if err := e.showJob(r, j, prof, names[pi], res, out); err != nil {
				fmt.Fprintf(out.Stderr(), "%s on %s: %v\n", j.rep.Name, names[pi], err)
				failed = append(failed, j.rep.Name)
			}
		}
	}
	e.profiles.mu.Lock()
	e.profiles.results = results
	e.profiles.mu.Unlock()
	if len(skipped) > 0 && !r.quiet {
		_ = out.Display(kernel.Display{Data: SkippedBundle(skipped)})
	}
	if id != "" {
		what := "reports"
		if r.cmd == "analyze" {
			what = "rules"
		}
		_ = out.UpdateDisplay(kernel.Display{Data: DoneBundle(fmt.Sprintf("ran %d %s on %d profile(s) in %.2f s",
			total, what, len(profs), time.Since(start).Seconds())), ID: id})
	}
	if len(failed) > 0 {
		return kernel.Errorf("ReportError", "%d of %d failed: %s", len(failed), total, strings.Join(failed, ", "))
	}
	return nil
}

// showJob displays one result: a table, nsys's text in the asked format,
// or the file it was written to.
func (e *Engine) showJob(r *reportRun, j reportJob, prof *nsysx.Profile, in string, res *nsysx.Result, out kernel.Output) error {
	argStr := ""
	if a := argText(r.filter, j.opts); len(a) > 0 {
		argStr = "(" + strings.Join(a, ":") + ")"
	}
	switch {
	case j.out == "-" && j.format == nil:
		o := e.TableOptions()
		if r.nInputs > 1 {
			o.Label = in
		}
		return out.Display(kernel.Display{Data: ResultBundle(res, o)})
	case j.out == "-":
		var b bytes.Buffer
		if !r.quiet {
			fmt.Fprintf(&b, "Processing [%s] with [%s]%s... \n", in, j.rep.Name, argStr)
		} else if r.nInputs > 1 {
			fmt.Fprintf(&b, "Profile: %s\n", in)
		}
		limit := e.TableOptions().MaxRows
		if res.Skipped != "" {
			if !r.quiet {
				fmt.Fprintf(&b, "SKIPPED: %s\n", res.Skipped)
			}
		} else if err := format.Write(&b, headResult(res, limit), *j.format); err != nil {
			return err
		}
		if res.Len() > limit { // notebooks are no place for megabytes of text
			fmt.Fprintf(&b, "\n(%s; -o BASE writes them all to a file)\n", rowsNote(limit, res.Len()))
		}
		data := TextBundle(strings.TrimRight(b.String(), "\n"))
		if j.format.Name == "htable" || j.format.Name == "hdoc" {
			data["text/html"] = b.String()
		}
		return out.Display(kernel.Display{Data: data})
	}
	name := outName(j, prof, in, argText(r.filter, j.opts), r.nInputs)
	if _, err := os.Stat(name); err == nil && !r.forceOverwrite {
		fmt.Fprintf(out.Stdout(), "SKIPPED: output file %s exists (--force-overwrite replaces it).\n", name)
		return nil
	}
	if err := writeResultFile(name, res, *j.format); err != nil {
		return err
	}
	if !r.quiet {
		state := "PROCESSED"
		if res.Skipped != "" || res.Len() == 0 {
			state = "PROCESSED (EMPTY RESULTS)"
		}
		fmt.Fprintf(out.Stdout(), "Processing [%s] with [%s]%s... to [%s]... %s\n", in, j.rep.Name, argStr, name, state)
	}
	return nil
}

// argText is nsys's "start=..:end=..:base" after the report name.
func argText(f *nsysx.Filter, opts []nsysx.KV) []string {
	var a []string
	if f != nil {
		a = append(a, f.Args()...)
	}
	for _, kv := range opts {
		if kv.Value != "" {
			a = append(a, kv.Key+"="+kv.Value)
		} else {
			a = append(a, kv.Key)
		}
	}
	return a
}

// outName builds BASE_<report>[_<arg>...].<ext> as the CLI does.
func outName(j reportJob, prof *nsysx.Profile, in string, args []string, nInputs int) string {
	base := j.out
	if base == "." {
		base = strings.TrimSuffix(prof.Path, filepath.Ext(prof.Path))
		if prof.Format != "sqlite" {
			base = filepath.Join(filepath.Dir(in), prof.Base())
		}
	} else if nInputs > 1 {
		base += "_" + prof.Base()
	}
	parts := []string{base, j.rep.Name}
	for _, a := range args {
		parts = append(parts, strings.ReplaceAll(a, "/", "-"))
	}
	return strings.Join(parts, "_") + format.Ext(j.format.Name)
}

func writeResultFile(name string, res *nsysx.Result, f format.Spec) error {
	var b bytes.Buffer
	var err error
	switch {
	case res.Skipped != "":
		if f.Name == "json" {
			b.WriteString("[\n]\n")
		}
	case f.Name == "arrow":
		err = format.WriteArrow(&b, res)
	case f.Name == "parquet":
		err = format.WriteParquet(&b, res)
	default:
		err = format.Write(&b, res, f)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}
