package nsysxengine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// The flags of %nsys stats and %nsys analyze: the CLI's, less the ones
// that make no sense in a notebook (@CMD outputs are refused).
var (
	statsFlags = notebookHelp(frontend.Stats(),
		"format[:option...][,...]: show text in this nsys format instead of tables",
		"output[,...]: - shows the result (default), BASE writes BASE_<report>.<ext>, . the input's name",
		"show only the results (no SKIPPED list, no Processing lines)")
	analyzeFlags = notebookHelp(frontend.Analyze(),
		"format[:option...][,...]: show text in this nsys format instead of tables",
		"output[,...]: - shows the result (default), BASE writes BASE_<rule>.<ext>, . the input's name",
		"show only the results")
)

// notebookHelp words -f, -o and -q for a notebook, where results are tables.
func notebookHelp(defs []flagDef, f, o, q string) []flagDef {
	defs = frontend.WithHelp(defs, "-f", f)
	defs = frontend.WithHelp(defs, "-o", o)
	return frontend.WithHelp(defs, "-q", q)
}

const nsysUsage = "%nsys stats|analyze|export|compare|advise|critical-path|timeline [flags] [FILE|NAME...]\n       " + recipeUsage +
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
  %nsys advise train
  %nsys critical-path --what-if kernels:gemm=0.5 train
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
	case "advise":
		return e.nsysAdvise(ctx, args[1:], out)
	case "critical-path":
		return e.nsysCriticalPath(ctx, args[1:], out)
	case "timeline":
		return e.nsysTimeline(ctx, args[1:], out)
	}
	names := []string{"stats", "analyze", "export", "recipe", "profile", "compare", "advise", "critical-path", "timeline"}
	return usageErr("%%nsys: unknown command %q%s (%s)", args[0], nsysx.Suggest(args[0], names), strings.Join(names, ", "))
}

// reportRun is a plan of %nsys stats or analyze (built by
// internal/frontend, as for the command) and its inputs.
type reportRun struct {
	*frontend.Plan
	nInputs int
}

func (e *Engine) nsysReports(ctx context.Context, args []string, out kernel.Output, rules bool) error {
	cmd, defs := "stats", statsFlags
	if rules {
		cmd, defs = "analyze", analyzeFlags
	}
	p, err := parseFlags(args, defs, frontend.IsReportOrFormat)
	if err != nil {
		return err
	}
	w := out.Stdout()
	switch {
	case p.Has("--help"):
		fmt.Fprintf(w, "Usage: %%nsys %s [flags] [FILE|NAME...]\n\n%s", cmd, frontend.Help(defs))
		return nil
	case p.Has("--help-reports") || p.Has("--help-rules"):
		return helpReports(out, p.Last("--help-reports")+p.Last("--help-rules"), rules)
	case p.Has("--help-formats"):
		return helpFormats(out, p.Last("--help-formats"))
	}
	pl, err := frontend.Build(cmd, p, frontend.Options{NoPipes: "is not available in the kernel"})
	if err != nil {
		return usageErr("%v", err)
	}
	profs, names, err := e.inputs(ctx, p)
	if err != nil {
		return err
	}
	return e.runReports(ctx, &reportRun{Plan: pl, nInputs: len(profs)}, profs, names, out)
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

// oneInput is inputs for the magics that take exactly one profile.
func (e *Engine) oneInput(ctx context.Context, p *parsedArgs) (*nsysx.Profile, string, error) {
	profs, names, err := e.inputs(ctx, p)
	if err != nil {
		return nil, "", err
	}
	if len(profs) != 1 {
		return nil, "", usageErr("give exactly one input")
	}
	return profs[0], names[0], nil
}

// runReports runs every job on every profile, showing a progress line
// updated in place when there is more than one.
func (e *Engine) runReports(ctx context.Context, r *reportRun, profs []*nsysx.Profile, names []string, out kernel.Output) error {
	total := len(profs) * len(r.Jobs)
	pr := e.newProgress(out, total <= 1) // one report needs no progress line
	pr.show(ProgressBundle(0, total, r.Jobs[0].Report.Name))
	start := time.Now()
	var results []*nsysx.Result
	var skipped [][2]string
	var failed []string
	n := 0
	for pi, prof := range profs {
		for _, j := range r.Jobs {
			pr.show(ProgressBundle(n+1, total, j.Report.Name))
			n++
			res, err := interruptible(ctx, &e.bg, func() (*nsysx.Result, error) {
				return prof.RunReport(ctx, j.Report, j.Opts, r.Filter)
			})
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				fmt.Fprintf(out.Stderr(), "%s on %s: %v\n", j.Report.Name, names[pi], err)
				failed = append(failed, j.Report.Name)
				continue
			}
			results = append(results, res)
			if res.Skipped != "" && j.Out == "-" && j.Format == nil {
				name := j.Report.Name
				if len(profs) > 1 {
					name += " on " + names[pi]
				}
				skipped = append(skipped, [2]string{name, res.Skipped})
				continue
			}
			if err := e.showJob(ctx, r, j, prof, names[pi], res, out); err != nil {
				fmt.Fprintf(out.Stderr(), "%s on %s: %v\n", j.Report.Name, names[pi], err)
				failed = append(failed, j.Report.Name)
			}
		}
	}
	e.profiles.mu.Lock()
	e.profiles.results = results
	e.profiles.mu.Unlock()
	if len(skipped) > 0 && !r.Quiet {
		if err := out.Display(kernel.Display{Data: SkippedBundle(skipped)}); err != nil {
			fmt.Fprintf(out.Stderr(), "output not shown: %v\n", err)
		}
	}
	pr.show(DoneBundle(r.done(total, len(profs), start)))
	if len(failed) > 0 {
		return kernel.Errorf("ReportError", "%d of %d failed: %s", len(failed), total, strings.Join(failed, ", "))
	}
	return nil
}

// done is the progress line's last text.
func (r *reportRun) done(total, profiles int, start time.Time) string {
	what := "reports"
	if r.Cmd == "analyze" {
		what = "rules"
	}
	return fmt.Sprintf("ran %d %s on %d profile(s) in %.2f s", total, what, profiles, time.Since(start).Seconds())
}

// showJob displays one result: a table, nsys's text in the asked format,
// or the file it was written to.
func (e *Engine) showJob(ctx context.Context, r *reportRun, j frontend.Job, prof *nsysx.Profile, in string, res *nsysx.Result, out kernel.Output) error {
	argStr := r.ArgText(j)
	switch {
	case j.Out == "-" && j.Format == nil:
		o := e.TableOptions()
		if r.nInputs > 1 {
			o.Label = in
		}
		return out.Display(kernel.Display{Data: ResultBundle(res, o)})
	case j.Out == "-":
		var b bytes.Buffer
		if !r.Quiet {
			fmt.Fprintf(&b, "Processing [%s] with [%s]%s... \n", in, j.Report.Name, argStr)
		} else if r.nInputs > 1 {
			fmt.Fprintf(&b, "Profile: %s\n", in)
		}
		limit := e.TableOptions().MaxRows
		if res.Skipped != "" {
			if !r.Quiet {
				fmt.Fprintf(&b, "SKIPPED: %s\n", res.Skipped)
			}
		} else if err := format.Write(&b, headResult(res, limit), *j.Format); err != nil {
			return err
		}
		if res.Len() > limit { // notebooks are no place for megabytes of text
			fmt.Fprintf(&b, "\n(%s; -o BASE writes them all to a file)\n", rowsNote(limit, res.Len()))
		}
		data := TextBundle(strings.TrimRight(b.String(), "\n"))
		if j.Format.Name == "htable" || j.Format.Name == "hdoc" {
			data["text/html"] = b.String()
		}
		return out.Display(kernel.Display{Data: data})
	}
	name := r.OutName(j, prof, in, r.nInputs)
	if _, err := os.Stat(name); err == nil && !r.ForceOverwrite {
		fmt.Fprintf(out.Stdout(), "SKIPPED: output file %s exists (--force-overwrite replaces it).\n", name)
		return nil
	}
	if err := frontend.WriteResult(ctx, name, res, *j.Format); err != nil {
		return err
	}
	if !r.Quiet {
		fmt.Fprintf(out.Stdout(), "Processing [%s] with [%s]%s... to [%s]... %s\n", in, j.Report.Name, argStr, name, frontend.State(res))
	}
	return nil
}
