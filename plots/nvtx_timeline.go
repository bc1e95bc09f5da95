package plots

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"gonum.org/v1/plot"
)

// TimelineBar is one bar of a lane: an NVTX range's GPU projection, or a
// GPU busy interval; after aggregation it may stand for several.
type TimelineBar struct {
	Start, End int64  // ns
	Name       string // range name, or "kernel", "memcpy", "memset", "NCCL kernel", "CUDA graph"
	Count      int    // ranges or operations merged into the bar
}

// Lane is one row of the timeline.
type Lane struct {
	Label string
	GPU   bool // a GPU stream lane (else an NVTX thread/level lane)
	Bars  []TimelineBar
}

// TimelineData is what nvtx-timeline draws.
type TimelineData struct {
	Start, End int64 // the window, ns
	Resolution int64 // ns per pixel used to merge bars (0: none)
	Lanes      []Lane
	Ranges     int // projected ranges in the window
	Ops        int // GPU operations in the window
}

const maxNVTXLevels = 16

// NVTXTimeline draws the NVTX GPU projection as a timeline: each NVTX range
// that launched GPU work is a bar from the start of its first GPU operation
// to the end of its last (nsys's nvtx_gpu_proj_trace), on one lane per
// thread and nesting level; beneath, one lane per GPU and stream shows when
// kernels, memcpys and memsets ran. Options: Range ("iteration 12") or
// Start/End choose the window (default: the whole profile); Device keeps
// one GPU. Bars closer than a pixel are merged, so that the output stays
// small for long profiles.
func NVTXTimeline(ctx context.Context, p *nsysx.Profile, o *Options) (*Chart, error) {
	if o == nil {
		o = &Options{}
	}
	width := 12.0
	if o.Width > 0 {
		width = o.Width
	}
	res := int64(0) // set from the window below
	d, note, err := timelineData(ctx, p, o, func(span int64) int64 {
		res = span / int64(width*DPI*PNGScale*0.8)
		return res
	})
	title := "NVTX GPU projection timeline"
	if err != nil {
		return nil, err
	}
	if note != "" {
		return noData("nvtx-timeline", title, p.Base(), note), nil
	}
	c := newChart("nvtx-timeline", title)
	c.Width = width
	w, _, _ := resolveWindow(ctx, p, o)
	sub := p.Base()
	if w.set {
		sub += " · " + w.label
	} else {
		sub += " · whole profile, " + fmtDur(float64(d.End-d.Start))
	}
	c.Subtitle = fmt.Sprintf("%s · %d projected ranges, %d GPU operations", sub, d.Ranges, d.Ops)
	c.Footnote = "Top lanes: NVTX ranges per thread (TID) and nesting level (L), drawn where their GPU work ran " +
		"(first GPU operation start to last end; nsys nvtx_gpu_proj_trace). Bottom lanes: GPU activity per device and stream. " +
		fmt.Sprintf("Bars closer than %s are merged.", fmtDur(float64(max(d.Resolution, 1))))
	c.legend = timelineLegend(d)
	for _, it := range c.legend {
		if it.color == colOther {
			c.Footnote += " Grey bars hold several ranges."
		}
	}
	c.grid = [][]*plot.Plot{{timelinePanel(d)}}
	return c.done(math.Min(2.6+0.3*float64(len(d.Lanes)), 30), timelineText(d), timelineVega(c, d), d)
}

// timelineData builds the lanes; resolution maps the window's span to the
// merge resolution in ns (nil: no merging).
func timelineData(ctx context.Context, p *nsysx.Profile, o *Options, resolution func(span int64) int64) (*TimelineData, string, error) {
	w, note, err := resolveWindow(ctx, p, o)
	if err != nil || note != "" {
		return nil, note, err
	}
	proj, err := p.Stats(ctx, "nvtx_gpu_proj_trace")
	if err != nil {
		return nil, "", err
	}
	if proj.Skipped != "" {
		return nil, proj.Skipped, nil
	}
	// The report holds all of the profile's NVTX ranges; once the drawn
	// rows are copied out it is garbage, collected now so that the heap
	// does not grow to twice the report's size before the next collection.
	pr := readProjRows(proj)
	proj = nil
	runtime.GC()
	ops, err := loadGPUOps(ctx, p, true)
	if err != nil {
		return nil, "", err
	}
	if o.OneDevice {
		ops = slices.DeleteFunc(ops, func(op gpuOp) bool { return op.dev != int64(o.Device) })
	}
	if !w.set {
		w.s, w.e = pr.lo, pr.hi
		for _, op := range ops {
			w.s, w.e = min(w.s, op.s), max(w.e, op.e)
		}
	}
	if w.e <= w.s {
		return nil, "no NVTX ranges with GPU work and no GPU operations in " + p.Path, nil
	}
	if w.e-w.s < 0 { // past int64: no capture spans 292 years
		return nil, "", fmt.Errorf("%s: the timeline from %d ns to %d ns is too long to draw (corrupt or crafted timestamps?)", p.Path, w.s, w.e)
	}
	d := &TimelineData{Start: w.s, End: w.e}
	if resolution != nil {
		d.Resolution = resolution(w.e - w.s)
	}
	d.Lanes = pr.lanes(d)
	gl := gpuLanes(ops, d)
	if len(d.Lanes) == 0 && len(gl) == 0 {
		return nil, fmt.Sprintf("no NVTX ranges with GPU work and no GPU operations between %s and %s in %s", fmtTime(w.s), fmtTime(w.e), p.Path), nil
	}
	d.Lanes = append(d.Lanes, gl...)
	return d, "", nil
}

// projRow is one projected range with a duration, as the timeline keeps it.
type projRow struct {
	s, e int64
	lane int32 // index in projRows.keys
	name int32 // index in projRows.names (range labels, distinct)
}

type laneKey struct{ pid, tid, lvl int64 }

// projRows are the ranges of nvtx_gpu_proj_trace the timeline draws, by lane
// (per PID, TID and level) and start; lo and hi are the extent of all rows.
type projRows struct {
	rows   []projRow
	keys   []laneKey
	names  []string
	lo, hi int64
}

func readProjRows(proj *nsysx.Result) *projRows {
	// rows sized once: grown by append, the array was copied as it grew,
	// the old and new ones both live at the peak of a big profile's plot
	pr := &projRows{lo: math.MaxInt64, hi: math.MinInt64, rows: make([]projRow, 0, proj.Len())}
	name, ps, pd := proj.Col("Name"), proj.Col("Projected Start"), proj.Col("Projected Duration")
	pid, tid, lvl := proj.Col("PID"), proj.Col("TID"), proj.Col("Lvl")
	lanes, byRaw, byLabel := map[laneKey]int32{}, map[string]int32{}, map[string]int32{}
	for i := 0; i < proj.Len(); i++ {
		s := ps.Value(i).I
		pr.lo, pr.hi = min(pr.lo, s), max(pr.hi, s+pd.Value(i).I)
		if pd.Value(i).IsNull() {
			continue
		}
		k := laneKey{pid.Value(i).I, tid.Value(i).I, min(lvl.Value(i).I, maxNVTXLevels-1)}
		l, ok := lanes[k]
		if !ok {
			l = int32(len(pr.keys))
			lanes[k], pr.keys = l, append(pr.keys, k)
		}
		raw := name.Text(i)
		n, ok := byRaw[raw]
		if !ok {
			label := rangeLabel(raw)
			if n, ok = byLabel[label]; !ok {
				n = int32(len(pr.names))
				byLabel[label], pr.names = n, append(pr.names, label)
			}
			byRaw[raw] = n
		}
		pr.rows = append(pr.rows, projRow{s: s, e: s + pd.Value(i).I, lane: l, name: n})
	}
	pr.rows = slices.Clip(pr.rows)
	slices.SortStableFunc(pr.rows, func(a, b projRow) int { return cmp.Or(cmp.Compare(a.lane, b.lane), cmp.Compare(a.s, b.s)) })
	return pr
}

// lanes puts the ranges overlapping the window on lanes per (PID, TID,
// level), each merged at d's resolution.
func (pr *projRows) lanes(d *TimelineData) []Lane {
	pids := map[int64]bool{} // of the lanes drawn
	for _, r := range pr.rows {
		if r.e >= d.Start && r.s <= d.End {
			pids[pr.keys[r.lane].pid] = true
		}
	}
	order := make([]int32, len(pr.keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := pr.keys[a], pr.keys[b]
		return cmp.Or(cmp.Compare(x.pid, y.pid), cmp.Compare(x.tid, y.tid), cmp.Compare(x.lvl, y.lvl))
	})
	var lanes []Lane
	var buf []TimelineBar
	for _, l := range order {
		from, _ := slices.BinarySearchFunc(pr.rows, l, func(r projRow, l int32) int { return cmp.Compare(r.lane, l) })
		buf = buf[:0]
		for _, r := range pr.rows[from:] {
			if r.lane != l {
				break
			}
			if r.e < d.Start || r.s > d.End {
				continue
			}
			buf = append(buf, TimelineBar{Start: max(r.s, d.Start), End: min(r.e, d.End), Name: pr.names[r.name], Count: 1})
		}
		if len(buf) == 0 {
			continue
		}
		d.Ranges += len(buf)
		k := pr.keys[l]
		label := fmt.Sprintf("TID %d · L%d", k.tid, k.lvl)
		if len(pids) > 1 {
			label = fmt.Sprintf("PID %d TID %d · L%d", k.pid, k.tid, k.lvl)
		}
		bars := mergeBars(buf, d.Resolution)
		if d.Resolution <= 0 {
			bars, buf = slices.Clone(buf), buf[:0]
		}
		lanes = append(lanes, Lane{Label: label, Bars: bars})
	}
	return lanes
}

// mergeBars merges bars that start less than res after the previous bar's
// end when one of them is shorter than res (or both have the same name). A
// merged bar keeps the name of its longest part when that part covers half
// of it or all parts share the name, else it is named "N ranges".
func mergeBars(bars []TimelineBar, res int64) []TimelineBar {
	if res <= 0 || len(bars) == 0 {
		return bars
	}
	type acc struct {
		TimelineBar
		longest int64
		mixed   bool // of several names
	}
	out := []acc{{bars[0], bars[0].End - bars[0].Start, false}}
	for _, b := range bars[1:] {
		last := &out[len(out)-1]
		short := last.End-last.Start < res || b.End-b.Start < res
		if b.Start-last.End < res && (short || b.Name == last.Name) {
			last.mixed = last.mixed || b.Name != last.Name
			if d := b.End - b.Start; d > last.longest {
				last.longest, last.Name = d, b.Name
			}
			last.End = max(last.End, b.End)
			last.Count += b.Count
			continue
		}
		out = append(out, acc{b, b.End - b.Start, false})
	}
	res2 := make([]TimelineBar, len(out))
	for i, a := range out {
		res2[i] = a.TimelineBar
		if a.mixed && a.longest*2 < a.End-a.Start {
			res2[i].Name = fmt.Sprintf("%d ranges", a.Count)
		}
	}
	return res2
}

// gpuLanes puts the operations overlapping the window on lanes per (device,
// stream), merged into busy intervals per kind.
func gpuLanes(ops []gpuOp, d *TimelineData) []Lane {
	type key struct{ dev, stream int64 }
	byKey := map[key][opKinds][]span{}
	for _, op := range ops {
		if op.e < d.Start || op.s > d.End {
			continue
		}
		k := key{op.dev, op.stream}
		v := byKey[k]
		kind := op.kind
		if op.nccl {
			kind = opNCCL
		}
		v[kind] = append(v[kind], span{max(op.s, d.Start), min(op.e, d.End)})
		byKey[k] = v
		d.Ops++
	}
	keys := slices.SortedFunc(maps.Keys(byKey), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.dev, b.dev), cmp.Compare(a.stream, b.stream))
	})
	var lanes []Lane
	for _, k := range keys {
		l := Lane{Label: fmt.Sprintf("GPU %d · stream %d", k.dev, k.stream), GPU: true}
		if d.Resolution > 0 {
			l.Bars = dominantBars(byKey[k], d.Start, d.End, d.Resolution)
		} else {
			for kind, sp := range byKey[k] {
				for _, x := range consolidate(sp) {
					l.Bars = append(l.Bars, TimelineBar{Start: x.s, End: x.e, Name: opNames[kind], Count: 1})
				}
			}
		}
		lanes = append(lanes, l)
	}
	return lanes
}

// dominantBars draws a GPU lane at a resolution of res ns: each bin of res
// ns takes the kind of operation that ran longest in it (none when idle),
// and runs of bins of one kind become one bar. Count is the number of
// operations that start in the bar.
func dominantBars(byKind [opKinds][]span, lo, hi, res int64) []TimelineBar {
	nb := int((hi-lo)/res) + 1 // ceil((hi-lo)/res) + 1, without overflow near int64's end
	if (hi-lo)%res != 0 {
		nb++
	}
	busy := make([][opKinds]int64, nb)
	starts := make([]int, nb)
	for kind, sp := range byKind {
		for _, x := range sp {
			starts[(x.s-lo)/res]++
			for b := (x.s - lo) / res; b <= (x.e-lo)/res && int(b) < nb; b++ {
				bs := lo + b*res
				be := bs + min(res, hi-bs)
				busy[b][kind] += min(be, x.e) - max(bs, x.s)
			}
			if x.e == x.s {
				busy[(x.s-lo)/res][kind]++
			}
		}
	}
	var out []TimelineBar
	for b := 0; b < nb; b++ {
		kind, best := -1, int64(0)
		for k, t := range busy[b] {
			if t > best {
				kind, best = k, t
			}
		}
		if kind < 0 {
			continue
		}
		s := lo + int64(b)*res
		e := s + min(res, hi-s)
		if n := len(out); n > 0 && out[n-1].Name == opNames[kind] && out[n-1].End == s {
			out[n-1].End = e
			out[n-1].Count += starts[b]
			continue
		}
		out = append(out, TimelineBar{Start: s, End: e, Name: opNames[kind], Count: starts[b]})
	}
	return out
}

// timelineLegend lists the kinds of bars the lanes hold.
func timelineLegend(d *TimelineData) []legendItem {
	seen := map[string]bool{}
	for _, l := range d.Lanes {
		for _, b := range l.Bars {
			switch {
			case l.GPU:
				seen[b.Name] = true
			case b.Count > 1 && strings.HasSuffix(b.Name, " ranges"):
				seen["several"] = true
			default:
				seen["range"] = true
			}
		}
	}
	var out []legendItem
	for _, it := range []legendItem{{"NVTX range (colour by name)", paletteNVTX[0], false}, {"several ranges", colOther, false},
		{opNames[opKernel], colKernel, false}, {opNames[opNCCL], colNCCL, false}, {opNames[opMemcpy], colMemcpy, false},
		{opNames[opMemset], colMemset, false}, {opNames[opGraph], colGraph, false}} {
		key := it.label
		switch it.label {
		case "NVTX range (colour by name)":
			key = "range"
		case "several ranges":
			key = "several"
		}
		if seen[key] {
			out = append(out, it)
		}
	}
	return out
}

// barColor is a bar's fill.
func barColor(b TimelineBar, gpu bool) color.RGBA {
	switch {
	case gpu && b.Name == "memcpy":
		return colMemcpy
	case gpu && b.Name == "memset":
		return colMemset
	case gpu && b.Name == opNames[opGraph]:
		return colGraph
	case gpu && b.Name == opNames[opNCCL]:
		return colNCCL
	case gpu:
		return colKernel
	case strings.HasSuffix(b.Name, " ranges") && b.Count > 1:
		return colOther
	}
	return nameColor(b.Name)
}

func timelinePanel(d *TimelineData) *plot.Plot {
	p := newPlot()
	n := len(d.Lanes)
	r := &rects{minW: 0.6}
	names := make([]string, n)
	for i, l := range d.Lanes {
		names[i] = l.Label
		y := laneY(i, n)
		for _, b := range l.Bars {
			label := ""
			if !l.GPU {
				label = b.Name
			}
			r.items = append(r.items, rect{x0: float64(b.Start), x1: float64(b.End), y0: y - 0.38, y1: y + 0.38,
				fill: barColor(b, l.GPU), label: label})
		}
	}
	p.Add(r)
	laneAxis(p, names)
	unit := pickTimeUnit(float64(d.End - d.Start))
	p.X.Min, p.X.Max = float64(d.Start), float64(d.End)
	p.X.Tick.Marker = timeTicks{unit}
	p.X.Label.Text = "time since the session start (" + unit.name + ")"
	return p
}

func timelineText(d *TimelineData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "window %d–%d ns\n", d.Start, d.End)
	for _, l := range d.Lanes {
		var busy float64 // in floats: no int64 wrap at extreme times
		for _, x := range l.Bars {
			busy += float64(x.End) - float64(x.Start)
		}
		fmt.Fprintf(&b, "%-28s %6d bars, %s covered\n", l.Label, len(l.Bars), fmtDur(busy))
	}
	return b.String()
}

func timelineVega(c *Chart, d *TimelineData) map[string]any {
	unit := pickTimeUnit(float64(d.End - d.Start))
	var rows []map[string]any
	var order []string
	for _, l := range d.Lanes {
		order = append(order, l.Label)
		for _, b := range l.Bars {
			rows = append(rows, map[string]any{"lane": l.Label, "name": b.Name, "start": round6(float64(b.Start) / unit.ns),
				"end": round6(float64(b.End) / unit.ns), "dur": round6(float64(b.End-b.Start) / 1e3), "count": b.Count,
				"color": hexColor(barColor(b, l.GPU))})
		}
	}
	x := "time since the session start (" + unit.name + ")"
	spec := vegaBase(c.Title, 900, 0)
	spec["height"] = map[string]any{"step": 22}
	spec["data"] = map[string]any{"values": rows}
	spec["mark"] = map[string]any{"type": "bar", "cornerRadius": 1}
	spec["encoding"] = map[string]any{
		"x":     map[string]any{"field": "start", "type": "quantitative", "title": x, "scale": map[string]any{"domain": []any{round6(float64(d.Start) / unit.ns), round6(float64(d.End) / unit.ns)}}},
		"x2":    map[string]any{"field": "end"},
		"y":     map[string]any{"field": "lane", "type": "nominal", "sort": order, "title": nil},
		"color": map[string]any{"field": "color", "type": "nominal", "scale": nil, "legend": nil},
		"tooltip": []any{map[string]any{"field": "lane"}, map[string]any{"field": "name"},
			map[string]any{"field": "start", "title": "start (" + unit.name + ")", "format": ",.6f"},
			map[string]any{"field": "dur", "title": "duration (µs)", "format": ",.1f"}, map[string]any{"field": "count", "title": "merged"}},
	}
	spec["params"] = []any{map[string]any{"name": "zoom", "select": map[string]any{"type": "interval", "encodings": []any{"x"}}, "bind": "scales"}}
	return withSubtitle(spec, c.Subtitle)
}
