package plots

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
)

// Def describes one chart of the registry: the `nsysx plot NAME` and
// `%plot NAME` names, help, the options it takes and how many profiles.
type Def struct {
	Name     string
	Help     string   // one line
	Flags    []string // options it takes, e.g. "--top"
	MinFiles int      // profiles it needs
	MaxFiles int      // profiles it takes at most (0: any number)
	Vega     bool     // has an interactive Vega-Lite version
	draw     func(ctx context.Context, ps []*nsysx.Profile, o *Options) (*Chart, error)
}

// registry in display order.
var registry = []*Def{
	{Name: "kernels", Help: "top-N CUDA kernels by total GPU time (horizontal bars, % of kernel time)",
		Flags: []string{"--top"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(func(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) {
			return Kernels(ctx, p, o.top(15))
		})},
	{Name: "api", Help: "top-N CUDA API calls by total CPU time",
		Flags: []string{"--top"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(func(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) {
			return APICalls(ctx, p, o.top(15))
		})},
	{Name: "memops", Help: "GPU memory operations (memcpy, memset) by total time and by total size",
		Flags: []string{"--by"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(func(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) { return MemOps(ctx, p, o.By) })},
	{Name: "nvtx-timeline", Help: "NVTX ranges projected onto the GPU, one lane per thread and nesting level, above the GPU lanes per device and stream",
		Flags: []string{"--range", "--start", "--end", "--device"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(NVTXTimeline)},
	{Name: "gpu-util", Help: "GPU utilisation over time per device, binned (nsys's cuda_gpu_time_util_map heatmap), idle bins marked",
		Flags: []string{"--bins", "--range", "--start", "--end", "--device"}, MinFiles: 1, Vega: true, draw: GPUUtil},
	{Name: "nccl", Help: "communication (NCCL kernels) vs compute per device over time, overlap shaded; one row per rank",
		Flags: []string{"--bins", "--range", "--start", "--end", "--device"}, MinFiles: 1, Vega: true, draw: NCCL},
	{Name: "iterations", Help: "duration of each instance of an NVTX range (iteration N ...) with median and outliers, and their histogram",
		Flags: []string{"--range", "--match", "--bins"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(Iterations)},
	{Name: "kernel-hist", Help: "duration histogram of one kernel",
		Flags: []string{"--kernel", "--bins"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(func(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) {
			return KernelHist(ctx, p, o.Kernel, o.Bins)
		})},
	{Name: "compare", Help: "two profiles' kernel (or NVTX range) totals side by side",
		Flags: []string{"--by", "--top"}, MinFiles: 2, MaxFiles: 2, Vega: true, draw: func(ctx context.Context, ps []*nsysx.Profile, o *Options) (*Chart, error) {
			return Compare(ctx, ps[0], ps[1], o.By, o.top(15))
		}},
	{Name: "idle", Help: "each GPU's idle time per NVTX iteration and over the whole window, stacked by what the host was doing (gpu_idle_breakdown)",
		Flags: []string{"--range", "--match", "--device"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(Idle)},
	{Name: "stacks", Help: "icicle chart of GPU kernel time by launching call stack (cuda_kern_stack_sum; profiles taken with --cudabacktrace)",
		Flags: []string{"--top"}, MinFiles: 1, MaxFiles: 1, Vega: true, draw: one(Stacks)},
}

func one(f func(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error)) func(context.Context, []*nsysx.Profile, *Options) (*Chart, error) {
	return func(ctx context.Context, ps []*nsysx.Profile, o *Options) (*Chart, error) { return f(ctx, ps[0], o) }
}

// Names lists the charts in display order.
func Names() []string {
	out := make([]string, len(registry))
	for i, d := range registry {
		out[i] = d.Name
	}
	return out
}

// Lookup finds a chart by name; the error matches ErrUsage.
func Lookup(name string) (*Def, error) {
	for _, d := range registry {
		if d.Name == name {
			return d, nil
		}
	}
	return nil, usagef("unknown chart %q%s; charts: %s", name, nsysx.Suggest(name, Names()), strings.Join(Names(), ", "))
}

// Usage is the chart's one-line synopsis.
func (d *Def) Usage() string {
	var b strings.Builder
	b.WriteString(d.Name)
	for _, f := range d.Flags {
		for _, od := range optionDefs {
			if od.flag == f {
				fmt.Fprintf(&b, " [%s %s]", f, od.value)
			}
		}
	}
	b.WriteString(" [--width IN] [--height IN]")
	switch {
	case d.MaxFiles == 1:
		b.WriteString(" FILE")
	case d.MinFiles == 2 && d.MaxFiles == 2:
		b.WriteString(" FILE1 FILE2")
	default:
		b.WriteString(" FILE...")
	}
	return b.String()
}

// Help lists every chart with its synopsis, then the options.
func Help() string {
	var b strings.Builder
	for _, d := range registry {
		fmt.Fprintf(&b, "  %-14s %s\n  %-14s   %s\n", d.Name, d.Help, "", d.Usage())
	}
	b.WriteString("\nOptions:\n" + OptionHelp())
	return b.String()
}

// Parse reads a chart request as words: the chart name, options, and the
// remaining words (files or profile names). It checks that the options
// apply to the chart. Errors match ErrUsage.
func Parse(words []string) (*Def, *Options, []string, error) {
	if len(words) == 0 {
		return nil, nil, nil, usagef("which chart? one of %s", strings.Join(Names(), ", "))
	}
	d, err := Lookup(words[0])
	if err != nil {
		return nil, nil, nil, err
	}
	o := &Options{}
	seen, rest, err := o.parse(words[1:])
	if err != nil {
		return nil, nil, nil, err
	}
	for _, f := range seen {
		if f != "--width" && f != "--height" && !slices.Contains(d.Flags, f) {
			return nil, nil, nil, usagef("%s does not take %s (usage: %s)", d.Name, f, d.Usage())
		}
	}
	return d, o, rest, nil
}

// CheckFiles reports a usage error when n profiles do not suit the chart.
func (d *Def) CheckFiles(n int) error {
	switch {
	case n < d.MinFiles && d.MinFiles == 1:
		return usagef("%s needs a profile (usage: %s)", d.Name, d.Usage())
	case n < d.MinFiles || d.MaxFiles > 0 && n > d.MaxFiles:
		want := fmt.Sprint(d.MinFiles)
		if d.MaxFiles == 0 {
			want = fmt.Sprintf("at least %d", d.MinFiles)
		} else if d.MaxFiles != d.MinFiles {
			want = fmt.Sprintf("%d to %d", d.MinFiles, d.MaxFiles)
		}
		return usagef("%s takes %s profile(s), not %d (usage: %s)", d.Name, want, n, d.Usage())
	}
	return nil
}

// Draw draws the chart over the profiles. A profile without the data the
// chart needs gives a chart whose Note says so; errors are usage errors
// (ErrUsage), unreadable profiles or ctx.Err() when ctx is cancelled.
func (d *Def) Draw(ctx context.Context, ps []*nsysx.Profile, o *Options) (c *Chart, err error) {
	if err := d.CheckFiles(len(ps)); err != nil {
		return nil, err
	}
	if o == nil {
		o = &Options{}
	}
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("NSYSX_DEBUG") != "" {
				panic(r)
			}
			c, err = nil, fmt.Errorf("chart %s failed: %v", d.Name, r)
		}
	}()
	c, err = d.draw(ctx, ps, o)
	if err != nil {
		return nil, err
	}
	if o.Width > 0 {
		c.Width = o.Width
	}
	if o.Height > 0 {
		c.Height = o.Height
	}
	return c, nil
}

// Draw draws the named chart: a shorthand for Lookup and Def.Draw.
func Draw(ctx context.Context, name string, ps []*nsysx.Profile, o *Options) (*Chart, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return d.Draw(ctx, ps, o)
}
