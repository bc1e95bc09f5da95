package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/internal/cliflags"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/plots"
)

const plotUsage = `Usage: nsysx plot CHART [options] -o OUT.png|OUT.svg|OUT.json FILE...
       nsysx plot --list

Draws a chart of one profile (or several, for gpu-util and nccl, which stack
them, and compare, which takes two) and writes it as PNG (2x resolution), SVG,
or Vega-Lite v5 JSON, chosen by the extension of -o. A profile without the
data the chart needs gives a chart saying so, and a warning.

Flags:
  -o, --output FILE     where to write the chart (.png, .svg, .json or .vl.json)
  --list                list the charts
  --force-overwrite     replace an existing OUT (without it, an existing OUT is an error)
  --force-export        re-export a .nsys-rep even if a fresh .sqlite exists
  --export-timeout D    stop nsys's export of a .nsys-rep after D (90s, 10m, 1h; default
                        $NSYSX_EXPORT_TIMEOUT, else no limit)
  -q, --quiet           no progress or warning messages
  --sample              use the sample profile built into nsysx
  -h, --help            show this help (with CHART: that chart's options)
`

// plotArgs are the flags of `nsysx plot` itself; the rest go to the chart.
type plotArgs struct {
	out                  string
	list, help           bool
	quiet, force, sample bool
	overwrite            bool          // --force-overwrite
	timeout              time.Duration // --export-timeout
	chart                []string      // chart name, options, files
}

func parsePlotArgs(args []string) (*plotArgs, error) {
	pa := &plotArgs{}
	bools := map[string]*bool{"--list": &pa.list, "-h": &pa.help, "--help": &pa.help, "-q": &pa.quiet,
		"--quiet": &pa.quiet, "--force-export": &pa.force, "--sample": &pa.sample, "--force-overwrite": &pa.overwrite}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		if b, ok := bools[a]; ok {
			*b = true
			continue
		}
		switch name {
		case "-o", "--output", "--export-timeout":
			if !hasVal {
				if i+1 >= len(args) {
					return nil, usageErr("flag %s needs a value", name)
				}
				i++
				val = args[i]
			}
			if err := pa.set(name, val); err != nil {
				return nil, err
			}
		case "--":
			pa.chart = append(pa.chart, args[i:]...)
			return pa, nil
		default:
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && a != "-" {
				return nil, usageErr("unknown flag %s (chart options start with --; see nsysx plot --help)", a)
			}
			pa.chart = append(pa.chart, a)
		}
	}
	return pa, nil
}

// set sets a flag of plot's that takes a value.
func (pa *plotArgs) set(name, val string) error {
	if name != "--export-timeout" {
		pa.out = val
		return nil
	}
	var err error
	pa.timeout, err = cliflags.ParseTimeout(val)
	return err
}

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
	format, err := plotFormat(pa.out, pa.overwrite)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	profs, err := pa.open(ctx, files, stderr)
	defer closeAll(profs)
	if err != nil {
		return fail(stderr, "plot", err)
	}
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

// plotFormat picks the output format from the file name. An existing
// file is an error without overwrite (--force-overwrite), as in stats.
func plotFormat(out string, overwrite bool) (string, error) {
	if out == "" {
		return "", usageErr("give the output file: -o OUT.png, OUT.svg or OUT.json")
	}
	f := map[string]string{".png": "png", ".svg": "svg", ".json": "vega-lite"}[strings.ToLower(filepath.Ext(out))]
	if f == "" {
		return "", usageErr("-o %s: the file name must end in .png, .svg or .json (Vega-Lite)", out)
	}
	if _, err := os.Lstat(out); err == nil && !overwrite {
		return "", fmt.Errorf("output file %s exists (pass --force-overwrite to replace it)", out)
	}
	return f, nil
}

// writeChart renders the chart, then writes the file.
func writeChart(c *plots.Chart, format, out string) error {
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = c.PNG(&b)
	case "svg":
		err = c.SVG(&b)
	default:
		var js []byte
		js, err = c.VegaLite()
		b.Write(js)
		b.WriteByte('\n')
	}
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(out, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}
