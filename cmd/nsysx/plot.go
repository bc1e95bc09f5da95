package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/plots"
)

// runPlot implements `nsysx plot`.
func runPlot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	pa, err := parsePlotArgs(args)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	switch {
	case pa.list:
		for _, n := range plots.Names() {
			d, _ := plots.Lookup(n)
			fmt.Fprintf(stdout, "%-14s %s\n", n, d.Help)
		}
		return 0
	case pa.help && len(pa.chart) > 0:
		d, err := plots.Lookup(pa.chart[0])
		if err != nil {
			return fail(stderr, "plot", usageErr("%v", err))
		}
		fmt.Fprintf(stdout, "Usage: nsysx plot %s -o OUT.png|OUT.svg|OUT.json\n\n%s\n\nOptions:\n%s", d.Usage(), d.Help, plots.OptionHelp())
		return 0
	case pa.help:
		fmt.Fprintf(stdout, "%s\nCharts:\n%s", plotUsage, plots.Help())
		return 0
	}
	def, opts, files, err := plots.Parse(pa.chart)
	if err != nil {
		return fail(stderr, "plot", usageErr("%v", err))
	}
	if pa.sample {
		files = append([]string{sampleName}, files...)
	}
	if err := def.CheckFiles(len(files)); err != nil {
		return fail(stderr, "plot", usageErr("%v", err))
	}
	format, err := plotFormat(pa.out, pa.overwrite, files)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	profs, err := pa.open(ctx, files, stderr)
	defer closeAll(profs)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	defer lowGCWhilePlotting()()
	c, err := def.Draw(ctx, profs, opts)
	if err != nil {
		if errors.Is(err, plots.ErrUsage) {
			err = usageErr("%v", err)
		}
		return fail(stderr, "plot", err)
	}
	if c.Note != "" && !pa.quiet {
		fmt.Fprintf(stderr, "nsysx plot: warning: %s\n", c.Note)
	}
	if err := writeChart(c, format, pa.out); err != nil {
		return fail(stderr, "plot", err)
	}
	return 0
}

// open opens the chart's inputs; on error, those opened so far are
// returned for closeAll.
func (pa *plotArgs) open(ctx context.Context, files []string, stderr io.Writer) ([]*nsysx.Profile, error) {
	var profs []*nsysx.Profile
	for _, f := range files {
		p, err := openInput(ctx, f, openFlags{force: pa.force, quiet: pa.quiet, timeout: pa.timeout}, stderr)
		if err != nil {
			return profs, err
		}
		profs = append(profs, p)
	}
	return profs, nil
}

func closeAll(profs []*nsysx.Profile) {
	for _, p := range profs {
		p.Close()
	}
}

// writeChart renders the chart, then writes the file.
func writeChart(c *plots.Chart, format, out string) error {
	var b bytes.Buffer
	if err := c.Encode(&b, format); err != nil {
		return err
	}
	return atomicfile.WriteFile(out, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

// lowGCWhilePlotting collects at 25 % heap growth instead of 100 % while a
// chart is drawn: the big charts (nvtx-timeline, idle) hold 180-200 MB of
// ranges live on train x50, and Go's default let the heap double over
// them (peak RSS 305-340 MB; 280 MB at 25 %, for 5-10 % more CPU). GOGC
// set by the user wins.
func lowGCWhilePlotting() (restore func()) { return lowGC(25) }
