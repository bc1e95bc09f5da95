package timeline

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/compare"
	"github.com/nsysx/nsysx/nsysx/events"
)

// DefaultMaxEvents is the most events a View keeps (the earliest ones).
const DefaultMaxEvents = 40000

// ViewOptions choose a View's window.
type ViewOptions struct {
	// Filter is the window (--filter-time or --filter-nvtx); nil picks the
	// default: the second NVTX iteration (the first is often a warm-up),
	// or the whole profile when there are no iterations.
	Filter *nsysx.Filter
	// MaxEvents caps the events kept (default DefaultMaxEvents).
	MaxEvents int
}

// ViewTrack is one row of a View.
type ViewTrack struct {
	Process, Thread string
	GPU             bool
	Lanes           int // nesting depth: rows the track needs
}

// ViewEvent is one event of a View: times in ns relative to View.Start.
type ViewEvent struct {
	Track, Lane int
	Start, Dur  int64
	Name        int // index in View.Names
	Kind        Kind
	Color       int64 // NVTX colour (RGB), -1 for none
	Domain      string
	FlowTo      []int // indexes of the GPU work this API call launched
}

// View is a window of a profile's timeline, ready to draw.
type View struct {
	Title      string
	Window     string // what the window is, e.g. "iteration 6 (NVTX)"
	Start, End int64  // the window, ns on the profile's clock
	Tracks     []ViewTrack
	Names      []string
	Events     []ViewEvent // sorted by track, then start
	Note       string      // what was left out, if anything
	Filter     *nsysx.Filter
}

// viewSink collects events.
type viewSink struct {
	tracks  map[*Track]int
	list    []*Track
	names   map[string]int
	v       *View
	flowSrc map[int64]int // flow id -> API event index
	flowDst map[int64]int
	limit   int
	over    bool
}

func (s *viewSink) Track(t *Track) error {
	s.tracks[t] = len(s.list)
	s.list = append(s.list, t)
	return nil
}

var errFull = errors.New("view full")

func (s *viewSink) Event(e *Event) error {
	if len(s.v.Events) >= s.limit {
		s.over = true
		return errFull
	}
	n, ok := s.names[e.Name]
	if !ok {
		n = len(s.v.Names)
		s.names[e.Name] = n
		s.v.Names = append(s.v.Names, e.Name)
	}
	ev := ViewEvent{Track: s.tracks[e.Track], Start: e.Start, Dur: e.End - e.Start, Name: n, Kind: e.Kind, Color: -1, Domain: e.Domain}
	if e.HasColor {
		ev.Color = int64(e.Color & 0xFFFFFF)
	}
	i := len(s.v.Events)
	for _, id := range e.FlowOut {
		s.flowSrc[id] = i
	}
	if e.FlowIn != 0 {
		s.flowDst[e.FlowIn] = i
	}
	s.v.Events = append(s.v.Events, ev)
	return nil
}

// NewView collects a window of p's timeline.
func NewView(ctx context.Context, p *nsysx.Profile, o *ViewOptions) (*View, error) {
	var opt ViewOptions
	if o != nil {
		opt = *o
	}
	if opt.MaxEvents <= 0 {
		opt.MaxEvents = DefaultMaxEvents
	}
	v := &View{Title: p.Base(), Filter: opt.Filter}
	if v.Filter == nil {
		f, what, err := DefaultWindow(ctx, p)
		if err != nil {
			return nil, err
		}
		v.Filter, v.Window = f, what
	} else {
		v.Window = describeFilter(v.Filter)
	}
	// Collect up to 4x the cap, so that the earliest events can be kept.
	s := &viewSink{tracks: map[*Track]int{}, names: map[string]int{}, v: v, flowSrc: map[int64]int{}, flowDst: map[int64]int{}, limit: 4 * opt.MaxEvents}
	_, err := Walk(ctx, p, v.Filter, s)
	if err != nil && !errors.Is(err, errFull) {
		return nil, err
	}
	for id, src := range s.flowSrc {
		if dst, ok := s.flowDst[id]; ok {
			v.Events[src].FlowTo = append(v.Events[src].FlowTo, dst)
		}
	}
	v.Start, v.End = v.Filter.Window(ctx, p.Profile)
	v.finish(s.list, opt.MaxEvents, s.over)
	return v, nil
}

// describeFilter names a filter's window.
func describeFilter(f *nsysx.Filter) string {
	if f == nil {
		return "the whole profile"
	}
	if f.NVTX != "" {
		return "NVTX range " + f.NVTX
	}
	return fmt.Sprintf("%.6f s to %.6f s", float64(f.Start)/1e9, float64(f.End)/1e9)
}

// DefaultWindow is the second NVTX iteration of p (the first when there is
// one), as a time window; with no iterations, the whole profile.
func DefaultWindow(ctx context.Context, p *nsysx.Profile) (*nsysx.Filter, string, error) {
	whole, _ := nsysx.ParseTimeFilter("/")
	if !p.HasTable(events.TableNVTXEvents) {
		return whole, "the whole profile (no NVTX iterations)", nil
	}
	if err := p.StringsErr(ctx); err != nil {
		return nil, "", err
	}
	re := regexp.MustCompile(compare.DefaultIterations)
	type it struct {
		name       string
		start, end int64
	}
	groups := map[string][]it{}
	cols := []string{"start", "end", "eventType", "text", "textId"}
	err := p.Scan(ctx, events.TableNVTXEvents, nil, cols, func(r nsysx.ScanRow) error {
		if (r.Int(2) != 59 && r.Int(2) != 60) || r.IsNull(1) {
			return nil
		}
		name := r.Str(3)
		if r.IsNull(3) {
			name, _ = p.String(ctx, r.Int(4))
		}
		if m := re.FindStringSubmatch(name); m != nil {
			groups[m[1]] = append(groups[m[1]], it{name, r.Int(0), r.Int(1)})
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	var best []it
	for _, g := range groups {
		if len(g) > len(best) || len(g) == len(best) && len(g) > 0 && g[0].name < best[0].name {
			best = g
		}
	}
	if len(best) == 0 {
		return whole, "the whole profile (no NVTX iterations)", nil
	}
	sort.Slice(best, func(i, j int) bool { return best[i].start < best[j].start })
	pick, which := best[0], "the first"
	if len(best) > 1 {
		pick, which = best[1], "the second"
	}
	f := &nsysx.Filter{Start: pick.start, End: pick.end}
	return f, fmt.Sprintf("%s (%s of %d NVTX iterations)", pick.name, which, len(best)), nil
}

// finish keeps the earliest max events, sorts them by track and start,
// assigns lanes and drops tracks left empty.
func (v *View) finish(tracks []*Track, max int, over bool) {
	order := make([]int, len(v.Events))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return v.Events[order[a]].Start < v.Events[order[b]].Start })
	if len(order) > max || over {
		if len(order) > max {
			order = order[:max]
		}
		last := v.Events[order[len(order)-1]].Start
		v.Note = fmt.Sprintf("showing the first %d events, up to %.6f s; narrow the window (--filter-time, --filter-nvtx) to see the rest", len(order), float64(last)/1e9)
		v.End = min(v.End, last)
	}
	v.Events = v.remap(tracks, order)
	v.lanes()
}

// remap keeps the events of order, renumbers tracks (sorted as the trace
// sorts them) and flow targets.
func (v *View) remap(tracks []*Track, order []int) []ViewEvent {
	used := map[int]bool{}
	for _, i := range order {
		used[v.Events[i].Track] = true
	}
	var ids []int
	for i := range tracks {
		if used[i] {
			ids = append(ids, i)
		}
	}
	sort.SliceStable(ids, func(a, b int) bool {
		ta, tb := tracks[ids[a]], tracks[ids[b]]
		if ta.ProcessSort != tb.ProcessSort {
			return ta.ProcessSort < tb.ProcessSort
		}
		return ta.ThreadSort < tb.ThreadSort
	})
	newTrack := map[int]int{}
	for n, i := range ids {
		newTrack[i] = n
		t := tracks[i]
		v.Tracks = append(v.Tracks, ViewTrack{Process: t.Process, Thread: t.Thread, GPU: t.GPU})
	}
	ev := v.Events
	sort.SliceStable(order, func(a, b int) bool { // by track, then start (longer first)
		ea, eb := &ev[order[a]], &ev[order[b]]
		if ta, tb := newTrack[ea.Track], newTrack[eb.Track]; ta != tb {
			return ta < tb
		}
		if ea.Start != eb.Start {
			return ea.Start < eb.Start
		}
		return ea.Dur > eb.Dur
	})
	pos := make(map[int]int, len(order))
	for n, i := range order {
		pos[i] = n
	}
	out := make([]ViewEvent, len(order))
	for n, i := range order {
		out[n] = ev[i]
		out[n].Track = newTrack[ev[i].Track]
		var to []int
		for _, old := range ev[i].FlowTo {
			if k, ok := pos[old]; ok {
				to = append(to, k)
			}
		}
		out[n].FlowTo = to
	}
	return out
}

// lanes packs each track's events into the fewest rows: an event goes in
// the first row whose last event has ended (nested ranges stack).
func (v *View) lanes() {
	var ends []int64
	cur := -1
	for i := range v.Events {
		e := &v.Events[i]
		if e.Track != cur {
			cur, ends = e.Track, ends[:0]
		}
		lane := 0
		for lane < len(ends) && ends[lane] > e.Start {
			lane++
		}
		if lane == len(ends) {
			ends = append(ends, 0)
		}
		ends[lane] = e.Start + e.Dur
		e.Lane = lane
		if lane+1 > v.Tracks[cur].Lanes {
			v.Tracks[cur].Lanes = lane + 1
		}
	}
}
