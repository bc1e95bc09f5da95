package main

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/nsysx/nsysx/internal/frontend"
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
	pa.timeout, err = frontend.ParseTimeout(val)
	return err
}

// plotFormat picks the output format from the file name and checks that
// the file may be written (frontend.CheckOutputFile, the rule of every
// single-file output): an existing file needs overwrite
// (--force-overwrite), and neither a directory nor one of the inputs is
// ever replaced.
func plotFormat(out string, overwrite bool, inputs []string) (string, error) {
	if out == "" {
		return "", usageErr("give the output file: -o OUT.png, OUT.svg or OUT.json")
	}
	f := map[string]string{".png": "png", ".svg": "svg", ".json": "json"}[strings.ToLower(filepath.Ext(out))]
	if f == "" {
		return "", usageErr("-o %s: the file name must end in .png, .svg or .json (Vega-Lite)", out)
	}
	return f, frontend.CheckOutputFile(out, overwrite, inputs)
}
