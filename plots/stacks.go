package plots

import (
	"context"
	"fmt"
	"image/color"
	"path"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// StackNode is one frame of the icicle: its kernel time (inclusive) and
// the callees below it, largest first.
type StackNode struct {
	Function, Module string
	Time             int64
	Children         []*StackNode
}

// StacksData is what the stacks chart draws.
type StacksData struct {
	Root  *StackNode // a synthetic root: all kernel time
	Depth int        // levels drawn
}

// Stacks draws GPU kernel time by launching call stack as an icicle chart
// (a flame graph hanging down): the outermost frames at the top, each
// frame as wide as the kernel time launched under it, the kernels at the
// bottom. CUDA driver, runtime and profiler frames are dropped and runs of
// Python interpreter frames folded (cuda_kern_stack_sum:noruntime:foldpy:kernels).
// Options.Top limits the levels drawn (default 40).
func Stacks(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) {
	if o == nil {
		o = &Options{}
	}
	title := "GPU kernel time by launching call stack"
	ks, err := p.KernelStacks(ctx, nsysx.StackOptions{NoRuntime: true, FoldPython: true, Kernels: true, Base: true})
	if err != nil {
		return nil, err
	}
	if ks.Skipped != "" {
		return noData("stacks", title, p.Base(), ks.Skipped), nil
	}
	d := &StacksData{Root: stackTree(ks), Depth: o.top(40)}
	c := newChart("stacks", title)
	c.Subtitle = fmt.Sprintf("%s · %s of kernel time, %d stacks", p.Base(), fmtDur(float64(ks.KernelTime)), len(ks.Stacks))
	c.Footnote = "Width: kernel time launched under a frame (outermost at the top, kernels at the bottom). Frames of " +
		"libcupti, libcuda, libcudart and nsys are dropped; Python interpreter frames fold into [python]."
	ic := &icicle{}
	levels := ic.layout(d.Root, 0, 0, d.Depth, float64(d.Root.Time))
	items := ic.items
	pl := newPlot()
	pl.Add(&rects{items: items, stroke: color.White})
	pl.X.Min, pl.X.Max = 0, 100
	pl.X.Label.Text = "% of GPU kernel time"
	pl.Y.Min, pl.Y.Max = -float64(levels), 0
	pl.Y.Tick.Marker = plot.ConstantTicks(nil)
	c.grid = [][]*plot.Plot{{pl}}
	c.Height = 1.6 + 0.26*float64(levels)
	c.Width = 14
	c.text = stacksText(d.Root, 0, 12)
	c.vega = stacksVega(c, ic, levels)
	c.data = d
	return c, nil
}

// stackTree merges the stacks (innermost first) into a tree rooted at the
// outermost frames.
func stackTree(ks *nsysx.KernelStacks) *StackNode {
	root := &StackNode{Function: "all"}
	for _, s := range ks.Stacks {
		n := root
		n.Time += s.KernelTime
		for i := len(s.Frames) - 1; i >= 0; i-- {
			f := s.Frames[i]
			n = n.child(f.Function, f.Module)
			n.Time += s.KernelTime
		}
	}
	root.sort()
	return root
}

func (n *StackNode) child(fn, mod string) *StackNode {
	for _, c := range n.Children {
		if c.Function == fn && c.Module == mod {
			return c
		}
	}
	c := &StackNode{Function: fn, Module: mod}
	n.Children = append(n.Children, c)
	return c
}

func (n *StackNode) sort() {
	sort.SliceStable(n.Children, func(i, j int) bool { return n.Children[i].Time > n.Children[j].Time })
	for _, c := range n.Children {
		c.sort()
	}
}

// icicle is the laid-out chart: rectangles and each one's full frame name.
type icicle struct {
	items []rect
	names []string
}

// layout places n's children at level (0: the outermost frames) from x (in
// % of total) and returns the number of levels used.
func (ic *icicle) layout(n *StackNode, level int, x float64, maxLevel int, total float64) int {
	if level >= maxLevel || total <= 0 {
		return level
	}
	used := level
	for _, c := range n.Children {
		w := 100 * float64(c.Time) / total
		if w < 0.05 {
			break // narrower than a hair: children are sorted, so the rest are too
		}
		ic.items = append(ic.items, rect{x, x + w, -float64(level + 1), -float64(level), frameColor(c), frameLabel(c)})
		ic.names = append(ic.names, c.Function+" ("+path.Base(c.Module)+")")
		used = max(used, ic.layout(c, level+1, x, maxLevel, total), level+1)
		x += w
	}
	return used
}

func frameLabel(n *StackNode) string {
	if strings.HasPrefix(n.Function, "[") {
		return n.Function
	}
	return ShortName(n.Function)
}

// frameColor: kernels in the kernel colour, Python in the OS colour, the
// rest by module so that a library's frames share a hue.
func frameColor(n *StackNode) color.Color {
	switch {
	case n.Module == "[GPU]":
		return colKernel
	case n.Function == nsysx.PythonFrame:
		return color.RGBA{0xe5, 0xc4, 0x94, 0xff}
	case n.Function == nsysx.NoStackFrame:
		return colOther
	}
	c := nameColor(path.Base(n.Module))
	// Lighten, so that labels stay readable.
	return color.RGBA{uint8(155 + int(c.R)*100/255), uint8(155 + int(c.G)*100/255), uint8(155 + int(c.B)*100/255), 0xff}
}

func stacksText(n *StackNode, depth, maxDepth int) string {
	var b strings.Builder
	for _, c := range n.Children {
		if depth >= maxDepth {
			break
		}
		fmt.Fprintf(&b, "%s%s  %s\n", strings.Repeat("  ", depth), frameLabel(c), fmtDur(float64(c.Time)))
		b.WriteString(stacksText(c, depth+1, maxDepth))
	}
	return b.String()
}

// stacksVega draws the same rectangles, with the full names as tooltips.
func stacksVega(c *Chart, ic *icicle, levels int) map[string]any {
	vals := make([]any, 0, len(ic.items))
	for i, it := range ic.items {
		vals = append(vals, map[string]any{"x0": round6(it.x0), "x1": round6(it.x1), "y0": -it.y1, "y1": -it.y0,
			"frame": truncate(ic.names[i], 400), "color": hexColor(toRGBA(it.fill)), "share": round6(it.x1 - it.x0)})
	}
	spec := vegaBase(c.Title, 900, 18*levels)
	spec["data"] = map[string]any{"values": vals}
	spec["layer"] = []any{
		map[string]any{"mark": map[string]any{"type": "rect", "stroke": "white", "strokeWidth": 0.5, "tooltip": true},
			"encoding": map[string]any{
				"x":       map[string]any{"field": "x0", "type": "quantitative", "title": "% of GPU kernel time", "scale": map[string]any{"domain": []int{0, 100}}},
				"x2":      map[string]any{"field": "x1"},
				"y":       map[string]any{"field": "y0", "type": "quantitative", "axis": nil, "scale": map[string]any{"reverse": true}},
				"y2":      map[string]any{"field": "y1"},
				"color":   map[string]any{"field": "color", "type": "nominal", "scale": nil, "legend": nil},
				"tooltip": []any{map[string]any{"field": "frame"}, map[string]any{"field": "share", "title": "% of kernel time"}},
			}},
	}
	return withSubtitle(spec, c.Subtitle)
}

func toRGBA(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}
