package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"github.com/nsysx/nsysx/internal/cliflags"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
	"github.com/nsysx/nsysx/nsysx/timeline"
)

var exportFlags = cliflags.Export()

// nsysExport is %nsys export: raw tables as Parquet or Arrow files, with
// a progress display updated per table.
func (e *Engine) nsysExport(ctx context.Context, args []string, out kernel.Output) error {
	p, err := parseFlags(args, exportFlags, nil)
	if err != nil {
		return err
	}
	if p.Has("--help") {
		fmt.Fprintf(out.Stdout(), "Usage: %%nsys export -t parquet|arrow [--tables REGEX] -o DIR [FILE|NAME]\n"+
			"       %%nsys export -t perfetto [--gzip] [--filter-time A/B | --filter-nvtx RANGE] -o BASE [FILE|NAME]\n"+
			"       %%nsys export -t pprof -o BASE [FILE|NAME]\n\n%s", cliflags.Help(exportFlags))
		return nil
	}
	if p.Last("--type") == "pprof" {
		return e.nsysExportPprof(ctx, p, out)
	}
	if err := cliflags.CheckExport(p); err != nil {
		return usageErr("%v", err)
	}
	typ := p.Last("--type")
	dir := p.Last("--output")
	if dir == "" {
		return usageErr("-o %s is required", map[bool]string{true: "BASE", false: "DIR"}[typ == "perfetto"])
	}
	if typ == "perfetto" {
		return e.exportPerfetto(ctx, p, dir, out)
	}
	re := regexp.MustCompile("")
	if t := p.Last("--tables"); t != "" {
		if re, err = regexp.Compile(t); err != nil {
			return usageErr("--tables: %v", err)
		}
	}
	profs, names, err := e.inputs(ctx, p)
	if err != nil {
		return err
	}
	if len(profs) != 1 {
		return usageErr("give exactly one input")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return kernel.Errorf("OSError", "%v", err)
	}
	quiet, _ := p.Bool("--quiet")
	id := e.newDisplayID("export")
	if !quiet {
		_ = out.Display(kernel.Display{Data: ProgressBundle(0, 0, "exporting tables of "+names[0]), ID: id})
	}
	var tables int
	start := time.Now()
	_, err = interruptible(ctx, &e.bg, func() (struct{}, error) {
		return struct{}{}, nsysx.ExportTables(ctx, profs[0], dir, typ, re, func(done, total int) {
			tables = total
			if !quiet && ctx.Err() == nil {
				_ = out.UpdateDisplay(kernel.Display{Data: ProgressBundle(done, total, "exporting tables of "+names[0]), ID: id})
			}
		})
	})
	if err != nil {
		return err
	}
	if !quiet {
		_ = out.UpdateDisplay(kernel.Display{Data: DoneBundle(fmt.Sprintf("exported %d tables of %s to %s (%s) in %.2f s",
			tables, names[0], dir, typ, time.Since(start).Seconds())), ID: id})
	}
	return nil
}

// helpReports lists reports (or rules) as a table, or describes one.
func helpReports(out kernel.Output, name string, rules bool) error {
	list := nsysx.Reports()
	if rules {
		list = nsysx.Rules()
	}
	if name == "" || strings.EqualFold(name, "all") {
		return out.Display(kernel.Display{Data: ReportsBundle(list)})
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
		return usageErr("%v", err)
	}
	fmt.Fprintln(out.Stdout(), describeReport(r))
	return nil
}

// helpFormats lists the formats, or describes one.
func helpFormats(out kernel.Output, name string) error {
	w := out.Stdout()
	if name == "" || strings.EqualFold(name, "all") {
		for _, n := range format.Names() {
			if name == "" {
				fmt.Fprintf(w, "  %s\n", n)
			} else {
				fmt.Fprintf(w, "%s\n\n", format.Help(n))
			}
		}
		return nil
	}
	if _, err := format.ParseSpec(name); err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintln(w, format.Help(strings.SplitN(name, ":", 2)[0]))
	return nil
}

// exportPerfetto is %nsys export -t perfetto: the timeline as one JSON trace.
func (e *Engine) exportPerfetto(ctx context.Context, p *cliflags.Parsed, base string, out kernel.Output) error {
	f, err := cliflags.Filter(p)
	if err != nil {
		return usageErr("%v", err)
	}
	gz, err := p.Bool("--gzip")
	if err != nil {
		return usageErr("%v", err)
	}
	profs, names, err := e.inputs(ctx, p)
	if err != nil {
		return err
	}
	if len(profs) != 1 {
		return usageErr("give exactly one input")
	}
	type done struct {
		path string
		st   *timeline.Stats
	}
	r, err := interruptible(ctx, &e.bg, func() (done, error) {
		path, st, err := timeline.ExportPerfetto(ctx, profs[0], base, gz, f)
		return done{path, st}, err
	})
	var skip *nsysx.SkipError
	if errors.As(err, &skip) {
		fmt.Fprintf(out.Stdout(), "%s: %v (no trace written)\n", names[0], err)
		return nil
	}
	if err != nil {
		return err
	}
	if q, _ := p.Bool("--quiet"); !q {
		fmt.Fprintf(out.Stdout(), "wrote %s: %s\n", r.path, r.st.Summary())
	}
	return nil
}
