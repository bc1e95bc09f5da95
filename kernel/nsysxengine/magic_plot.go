package nsysxengine

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/plots"
)

const plotUsage = "%plot CHART [options] [FILE|NAME...]"

// plotHelp is the help of %plot: the charts of the plots registry.
func plotHelp() string {
	return "Draw a chart of the plots registry (PNG and SVG, and Vega-Lite where the chart has it).\n" +
		"FILE|NAME are profiles as for %nsys; with none, the profile opened last.\n\n" + plots.Help()
}

// magicPlot is %plot.
func (e *Engine) magicPlot(ctx context.Context, args []string, _ string, out kernel.Output) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		_, err := io.WriteString(out.Stdout(), plotUsage+"\n\n"+plotHelp()+"\n")
		return err
	}
	d, o, rest, err := plots.Parse(args)
	if err != nil {
		return plotError(err)
	}
	var ps []*nsysx.Profile
	for _, in := range rest {
		p, err := e.resolve(ctx, in)
		if err != nil {
			return kernel.Errorf("OpenError", "%v", err)
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		if last := e.profiles.lastOpened(); last != nil && d.MinFiles <= 1 {
			ps = append(ps, last)
		}
	}
	c, err := interruptible(ctx, &e.bg, func() (*plots.Chart, error) { return d.Draw(ctx, ps, o) })
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return plotError(err)
	}
	return out.Display(kernel.Display{Data: c.MIMEBundle(), Metadata: c.MIMEMetadata()})
}

func plotError(err error) error {
	if errors.Is(err, plots.ErrUsage) {
		return usageErr("%%plot: %v", err)
	}
	return kernel.Errorf("PlotError", "%v", err)
}

// completePlot completes chart names, their options and the profiles.
func (e *Engine) completePlot(c kernel.MagicCursor) ([]string, int) {
	w := c.Word
	if len(c.Args) == 0 {
		return prefixed(plots.Names(), w), len(w)
	}
	d, err := plots.Lookup(c.Args[0])
	if err != nil {
		return nil, 0
	}
	if strings.HasPrefix(w, "-") {
		return prefixed(append(append([]string(nil), d.Flags...), "--width", "--height"), w), len(w)
	}
	if prev := c.Args[len(c.Args)-1]; len(c.Args) > 1 && strings.HasPrefix(prev, "--") && !strings.Contains(prev, "=") {
		if prev == "--by" {
			return prefixed([]string{"time", "size", "kernels", "nvtx"}, w), len(w)
		}
		return nil, 0 // a value
	}
	return e.completeInput(w), len(w)
}
