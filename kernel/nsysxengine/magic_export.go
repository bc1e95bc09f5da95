package nsysxengine

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/internal/frontend"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
	"github.com/nsysx/nsysx/nsysx/timeline"
)

var exportFlags = frontend.Export()

// nsysExport is %nsys export: raw tables as Parquet or Arrow files, the
// timeline as a Perfetto trace, or GPU time by call stack as pprof.
func (e *Engine) nsysExport(ctx context.Context, args []string, out kernel.Output) error {
	p, err := parseMagic(args, exportFlags, "Usage: %nsys export -t parquet|arrow [--tables REGEX] -o DIR [FILE|NAME]\n"+
		"       %nsys export -t perfetto [--gzip] [--filter-time A/B | --filter-nvtx RANGE] -o BASE [FILE|NAME]\n"+
		"       %nsys export -t pprof -o BASE [FILE|NAME]", out)
	if p == nil {
		return err
	}
	if p.Last("--type") == "pprof" {
		return e.nsysExportPprof(ctx, p, out)
	}
	if err := frontend.CheckExport(p); err != nil {
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
	return e.exportTables(ctx, p, typ, dir, out)
}

// exportTables is %nsys export -t parquet|arrow, with a progress line
// updated per table. The tables are written into a temporary directory
// renamed to dir at the end (internal/atomicfile), as nsysx export does:
// an interrupted export leaves no dir, and a dir that is not empty is
// replaced only with --force-overwrite.
func (e *Engine) exportTables(ctx context.Context, p *parsedArgs, typ, dir string, out kernel.Output) error {
	re := regexp.MustCompile("")
	if t := p.Last("--tables"); t != "" {
		var err error
		if re, err = regexp.Compile(t); err != nil {
			return usageErr("--tables: %v", err)
		}
	}
	prof, name, err := e.oneInput(ctx, p)
	if err != nil {
		return err
	}
	quiet, _ := p.Bool("--quiet")
	force, err := p.Bool("--force-overwrite")
	if err != nil {
		return usageErr("%v", err)
	}
	pr := e.newProgress(out, quiet)
	pr.show(ProgressBundle(0, 0, "exporting tables of "+name))
	var tables int
	start := time.Now()
	_, err = interruptible(ctx, &e.bg, func() (struct{}, error) {
		return struct{}{}, atomicfile.Dir(dir, atomicfile.DirOptions{Force: force, Inputs: []string{prof.Path}}, func(tmp string) error {
			err := nsysx.ExportTables(ctx, prof, tmp, typ, re, func(done, total int) {
				tables = total
				if ctx.Err() == nil {
					pr.show(ProgressBundle(done, total, "exporting tables of "+name))
				}
			})
			if err == nil {
				err = ctx.Err() // interrupted: publish nothing
			}
			return err
		})
	})
	if errors.Is(err, atomicfile.ErrExists) {
		return kernel.Errorf("OutputExists", "%v", err)
	}
	if err != nil {
		return err
	}
	pr.show(DoneBundle(fmt.Sprintf("exported %d tables of %s to %s (%s) in %.2f s",
		tables, name, dir, typ, time.Since(start).Seconds())))
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
	r, _, err := frontend.Lookup(name, rules)
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
func (e *Engine) exportPerfetto(ctx context.Context, p *frontend.Parsed, base string, out kernel.Output) error {
	f, err := frontend.Filter(p)
	if err != nil {
		return usageErr("%v", err)
	}
	gz, err := p.Bool("--gzip")
	if err != nil {
		return usageErr("%v", err)
	}
	path, _ := timeline.OutputPath(base, gz)
	if err := checkOutput(p, path); err != nil {
		return err
	}
	prof, name, err := e.oneInput(ctx, p)
	if err != nil {
		return err
	}
	type done struct {
		path string
		st   *timeline.Stats
	}
	r, err := interruptible(ctx, &e.bg, func() (done, error) {
		path, st, err := timeline.ExportPerfetto(ctx, prof, base, gz, f)
		return done{path, st}, err
	})
	var skip *nsysx.SkipError
	if errors.As(err, &skip) {
		fmt.Fprintf(out.Stdout(), "%s: %v (no trace written)\n", name, err)
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
