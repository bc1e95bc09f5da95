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
  --force-export        re-export a .nsys-rep even if a fresh .sqlite exists
  -q, --quiet           no progress or warning messages
  --sample              use the sample profile built into nsysx
  -h, --help            show this help (with CHART: that chart's options)
`

// plotArgs are the flags of `nsysx plot` itself; the rest go to the chart.
type plotArgs struct {
	out                  string
	list, help           bool
	quiet, force, sample bool
	chart                []string // chart name, options, files
}

func parsePlotArgs(args []string) (*plotArgs, error) {
	pa := &plotArgs{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "-o", "--output":
			if !hasVal {
				if i+1 >= len(args) {
					return nil, usageErr("flag %s needs a value", name)
				}
				i++
				val = args[i]
			}
			pa.out = val
		case "--list":
			pa.list = true
		case "-h", "--help":
			pa.help = true
		case "-q", "--quiet":
			pa.quiet = true
		case "--force-export":
			pa.force = true
		case "--sample":
			pa.sample = true
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
	format, err := plotFormat(pa.out)
	if err != nil {
		return fail(stderr, "plot", err)
	}
	var profs []*nsysx.Profile
	for _, f := range files {
		p, err := openInput(ctx, f, pa.force, stderr, pa.quiet)
		if err != nil {
			return fail(stderr, "plot", err)
		}
		defer p.Close()
		profs = append(profs, p)
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

// plotFormat picks the output format from the file name.
func plotFormat(out string) (string, error) {
	if out == "" {
		return "", usageErr("give the output file: -o OUT.png, OUT.svg or OUT.json")
	}
	switch strings.ToLower(filepath.Ext(out)) {
	case ".png":
		return "png", nil
	case ".svg":
		return "svg", nil
	case ".json":
		return "vega-lite", nil
	}
	return "", usageErr("-o %s: the file name must end in .png, .svg or .json (Vega-Lite)", out)
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
	return os.WriteFile(out, b.Bytes(), 0o644)
}
