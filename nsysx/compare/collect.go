package compare

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"sync"

	"github.com/nsysx/nsysx/internal/checked"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Kind is what a row counts.
type Kind string

// Row kinds, in display order.
const (
	GPU    Kind = "gpu" // the [all GPU work] row: kernels and memory operations
	Kernel Kind = "kernel"
	Memory Kind = "memory"
	NVTX   Kind = "nvtx"
	API    Kind = "api"
)

// GPU reports whether the kind runs on a GPU.
func (k Kind) GPU() bool { return k == GPU || k == Kernel || k == Memory }

// DefaultIterations matches NVTX ranges that mark iterations: "iteration 12",
// "iter_3", "step 7", "batch #2", or just "step" (events.IterationFinder
// finds them).
const DefaultIterations = events.DefaultIterations

type key struct {
	kind Kind
	name string
}

// sample is one name's instances in one profile.
type sample struct {
	durs   []int64
	starts []int64 // where the instance counts for iterations
	iter   []int32 // iteration index per instance, -1 outside every iteration
	// firstN first-call outliers hold firstShare of the time (firstCalls).
	firstN     int
	firstShare float64
}

func (s *sample) add(d, at int64) {
	s.durs = append(s.durs, d)
	s.starts = append(s.starts, at)
}

// data is what one profile contributes.
type data struct {
	label  string
	groups map[key]*sample
	iters  [][2]int64 // iteration windows, sorted by start
	// first and last are the earliest start and the latest end read.
	first, last int64
	seen        bool
}

type collector struct {
	ctx    context.Context
	p      *nsysx.Profile
	f      *nsysx.Filter
	iters  *events.IterationFinder
	d      *data
	launch map[uint64]int64 // (pid, correlationId) -> API call start
}

func (c *collector) scan(table string, cols []string, fn func(r nsysx.ScanRow) error) error {
	if !c.p.HasTable(table) {
		return nil
	}
	err := c.p.Scan(c.ctx, table, c.f, cols, func(r nsysx.ScanRow) error {
		if !r.IsNull(1) {
			if s, e := r.Int(0), r.Int(1); !c.d.seen {
				c.d.first, c.d.last, c.d.seen = s, e, true
			} else {
				c.d.first, c.d.last = min(c.d.first, s), max(c.d.last, e)
			}
		}
		return fn(r)
	})
	var mt *nsysx.MissingTableError
	if err != nil && !errors.As(err, &mt) {
		return fmt.Errorf("reading %s of %s: %w", table, c.p.Path, err)
	}
	return nil
}

func (c *collector) group(k Kind, name string) *sample {
	g := c.d.groups[key{k, name}]
	if g == nil {
		g = &sample{}
		c.d.groups[key{k, name}] = g
	}
	return g
}

func (c *collector) str(id int64, fallback string) string {
	if s, ok := c.p.String(c.ctx, id); ok {
		return s
	}
	return fallback
}

func corrKey(g, corr int64) uint64 {
	return uint64(model.GlobalTid(g).PID())<<40 | uint64(corr)&(1<<40-1)
}

// collect reads one profile's instances.
func collect(ctx context.Context, p *nsysx.Profile, f *nsysx.Filter, iterRe *regexp.Regexp) (*data, error) {
	if f != nil {
		if msg, err := f.Resolve(ctx, p.Profile); err != nil || msg != "" {
			if err == nil {
				err = &nsysx.SkipError{Msg: msg}
			}
			return nil, fmt.Errorf("%s: %w", p.Path, err)
		}
	}
	if err := p.StringsErr(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	c := &collector{ctx: ctx, p: p, f: f, iters: events.NewIterationFinder(iterRe), launch: map[uint64]int64{},
		d: &data{label: p.Base(), groups: map[key]*sample{}}}
	for _, step := range []func() error{c.api, c.kernels, c.memory, c.nvtx} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	for _, it := range c.iters.Iterations() {
		c.d.iters = append(c.d.iters, [2]int64{it.Start, it.End})
	}
	c.d.assign()
	addSummaries(c.d)
	if err := c.d.checkTotals(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Path, err)
	}
	return c.d, nil
}

// checkTotals fails when a name's total time does not fit in 64 bits
// (crafted or corrupt times): the sums of side are then exact.
func (d *data) checkTotals() error {
	for k, g := range d.groups {
		var t int64
		for _, v := range g.durs {
			var ok bool
			if t, ok = checked.Add(t, v); !ok {
				return fmt.Errorf("the total time of %s %q: %w", k.kind, k.name, &nsysx.OverflowError{What: "a sum of durations"})
			}
		}
	}
	return nil
}

// span is a row's end - start (columns 1 and 0), or an error when the
// difference does not fit in 64 bits.
func span(r nsysx.ScanRow) (int64, error) {
	d, ok := checked.Sub(r.Int(1), r.Int(0))
	if !ok {
		return 0, &nsysx.OverflowError{What: "a duration (end - start)"}
	}
	return d, nil
}

func (c *collector) api() error {
	cols := []string{"start", "end", "globalTid", "correlationId", "nameId"}
	return c.scan(events.TableRuntime, cols, func(r nsysx.ScanRow) error {
		d, err := span(r)
		if err != nil {
			return err
		}
		name := nsysx.StripAPIVersion(c.str(r.Int(4), "CUDA API"))
		c.group(API, name).add(d, r.Int(0))
		if corr := r.Int(3); corr != 0 {
			c.launch[corrKey(r.Int(2), corr)] = r.Int(0)
		}
		return nil
	})
}

// gpuAt is where GPU work counts: its launch call's start, else its own.
func (c *collector) gpuAt(r nsysx.ScanRow, gpid, corr int) int64 {
	if s, ok := c.launch[corrKey(r.Int(gpid), r.Int(corr))]; ok && r.Int(corr) != 0 {
		return s
	}
	return r.Int(0)
}

func (c *collector) kernels() error {
	cols := []string{"start", "end", "globalPid", "correlationId", "demangledName", "shortName"}
	return c.scan(events.TableKernel, cols, func(r nsysx.ScanRow) error {
		d, err := span(r)
		if err != nil {
			return err
		}
		name := c.str(r.Int(4), "")
		if name == "" {
			name = c.str(r.Int(5), "kernel")
		}
		c.group(Kernel, name).add(d, c.gpuAt(r, 2, 3))
		return nil
	})
}

func (c *collector) memory() error {
	labels, err := events.MemcpyKinds(c.ctx, c.p.Profile)
	if err != nil {
		return err
	}
	cols := []string{"start", "end", "globalPid", "correlationId", "copyKind"}
	err = c.scan(events.TableMemcpy, cols, func(r nsysx.ScanRow) error {
		d, err := span(r)
		if err != nil {
			return err
		}
		l := labels[r.Int(4)]
		if l == "" {
			l = "Unknown"
		}
		c.group(Memory, "[CUDA memcpy "+l+"]").add(d, c.gpuAt(r, 2, 3))
		return nil
	})
	if err != nil {
		return err
	}
	return c.scan(events.TableMemset, cols[:4], func(r nsysx.ScanRow) error {
		d, err := span(r)
		if err != nil {
			return err
		}
		c.group(Memory, "[CUDA memset]").add(d, c.gpuAt(r, 2, 3))
		return nil
	})
}

var digits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+$`) })

// domains reads the NVTX domain names, unfiltered: a domain is created
// before the window that uses it.
func (c *collector) domains() (map[[2]int64]string, error) {
	out := map[[2]int64]string{}
	if !c.p.HasTable(events.TableNVTXEvents) {
		return out, nil
	}
	cols := []string{"eventType", "globalTid", "domainId", "text"}
	err := c.p.Scan(c.ctx, events.TableNVTXEvents, nil, cols, func(r nsysx.ScanRow) error {
		if r.Int(0) == 75 {
			out[[2]int64{model.GlobalTid(r.Int(1)).Upper(), r.Int(2)}] = r.Str(3)
		}
		return nil
	})
	return out, err
}

func (c *collector) nvtx() error {
	domains, err := c.domains()
	if err != nil {
		return err
	}
	cols := []string{"start", "end", "eventType", "globalTid", "text", "textId", "domainId"}
	return c.scan(events.TableNVTXEvents, cols, func(r nsysx.ScanRow) error {
		typ := r.Int(2)
		if (typ != 59 && typ != 60) || r.IsNull(1) {
			return nil
		}
		name := r.Str(4)
		if r.IsNull(4) {
			name = c.str(r.Int(5), "")
		}
		name = events.RangeName(name)
		if c.iters.Add(name, r.Int(0), r.Int(1), model.GlobalTid(r.Int(3))) {
			name = digits().ReplaceAllString(name, "N")
		}
		if d := domains[[2]int64{model.GlobalTid(r.Int(3)).Upper(), r.Int(6)}]; d != "" {
			name += "@" + d
		}
		d, err := span(r)
		if err != nil {
			return err
		}
		c.group(NVTX, name).add(d, r.Int(0))
		return nil
	})
}

// assign puts every name's instances in start order (the order in which
// instances of two profiles are paired), gives each its iteration, and
// finds the name's first-call outliers.
func (d *data) assign() {
	for _, g := range d.groups {
		g.byStart()
		g.firstN, g.firstShare = firstCalls(g.durs)
		g.iter = make([]int32, len(g.starts))
		for i, s := range g.starts {
			g.iter[i] = iterationOf(d.iters, s)
		}
		g.starts = nil
	}
}

// byStart sorts the instances by start (stably: ties keep the tables'
// order).
func (s *sample) byStart() {
	idx := make([]int, len(s.durs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(s.starts[x], s.starts[y]) })
	durs, starts := make([]int64, len(idx)), make([]int64, len(idx))
	for i, j := range idx {
		durs[i], starts[i] = s.durs[j], s.starts[j]
	}
	s.durs, s.starts = durs, starts
}

func iterationOf(iters [][2]int64, t int64) int32 {
	i := sort.Search(len(iters), func(i int) bool { return iters[i][1] > t })
	if i < len(iters) && iters[i][0] <= t {
		return int32(i)
	}
	return -1
}
