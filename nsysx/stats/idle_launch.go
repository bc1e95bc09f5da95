package stats

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// Kernel launch statistics, the companion of the idle breakdown: how long
// the launch calls take, how long kernels wait after them, and how many
// kernels run for less time than it took to launch them (HTA's launch
// statistics flag launch calls over 50 µs and delays over 100 µs).

// Thresholds of the launch statistics.
const (
	slowLaunchNs = 50_000  // a launch call longer than this is slow
	longDelayNs  = 100_000 // a launch-to-start delay longer than this is long
)

// LaunchStat sums the kernels of one name on one device; the kernels that
// ran in a CUDA graph (a node-level trace) are summed per graph, their Name
// followed by the graph's (" [CUDA graph 7]", " [CUDA graph]" when its id
// is unknown) and their launch call the cudaGraphLaunch. Launch is the
// launching call's duration, Delay the time from the call's start to the
// kernel's start, Queue the time from the call's end to the kernel's start
// (nsys's queue time). Kernels without a recorded launch call count in
// Instances and KernelTotal only.
type LaunchStat struct {
	Device      int64
	Name        string
	Instances   int64
	Launched    int64 // kernels whose launch call was found
	KernelTotal int64
	LaunchTotal int64
	LaunchMax   int64
	DelayTotal  int64
	DelayMax    int64
	QueueTotal  int64
	QueueMax    int64
	Short       int64 // kernels shorter than their launch call
	SlowLaunch  int64 // launch calls over 50 µs
	LongDelay   int64 // launch-to-start delays over 100 µs
}

// LaunchStats computes the kernel launch statistics (f may be nil), sorted
// by device, then total kernel time (descending), then name.
func LaunchStats(ctx context.Context, p *model.Profile, f *Filter) ([]LaunchStat, error) {
	if ctx == nil {
		return nil, report.ErrNilContext
	}
	c := report.NewCtx(ctx, p, report.Registered("gpu_idle_breakdown"), nil, f)
	ls, err := launchStats(c)
	return report.Finish(c, ls, err)
}

type launchKey struct {
	dev  int64
	name string
}

func launchStats(c *Ctx) ([]LaunchStat, error) {
	if !c.Has(tKernel) || !c.Has(tRuntime) {
		return nil, nil
	}
	h, err := loadHost(c, false)
	if err != nil {
		return nil, err
	}
	kn, _, err := kernelNames(c)
	if err != nil {
		return nil, err
	}
	t, err := loadOpTable(c, tKernel)
	if err != nil {
		return nil, err
	}
	graphOf, err := kernelGraphs(c)
	if err != nil {
		return nil, err
	}
	st, en, dev, keys := t.st, t.en, t.dev, t.key
	groups := map[launchKey]*LaunchStat{}
	graphNames := map[[2]int64]string{} // (kernel name id, graph id) -> "NAME [CUDA graph G]"
	for i := 0; i < t.N; i++ {
		if st.IsNull(i) || en.IsNull(i) {
			continue
		}
		k := launchKey{dev.Int(i), kn.at(i).S}
		if graphOf != nil {
			if g, in := graphOf(i); in {
				gk := [2]int64{int64(kn.ids[i]), g}
				if graphNames[gk] == "" {
					graphNames[gk] = k.name + " [" + GraphName(g, -1) + "]"
				}
				k.name = graphNames[gk]
			}
		}
		g := groups[k]
		if g == nil {
			g = &LaunchStat{Device: k.dev, Name: k.name}
			groups[k] = g
		}
		d := en.Int(i) - st.Int(i)
		g.Instances++
		g.KernelTotal += d
		lc, ok := h.launch[keys(i)]
		if !ok {
			continue
		}
		g.add(lc.e-lc.s, st.Int(i)-lc.s, st.Int(i)-lc.e, d)
	}
	return sortedValues(groups, func(a, b LaunchStat) int {
		return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(b.KernelTotal, a.KernelTotal), strings.Compare(a.Name, b.Name))
	}), nil
}

// sortedValues returns the values m points to, sorted by compare.
func sortedValues[K comparable, V any](m map[K]*V, compare func(a, b V) int) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, *v)
	}
	slices.SortFunc(out, compare)
	return out
}

func (g *LaunchStat) add(launch, delay, queue, kernel int64) {
	g.Launched++
	g.LaunchTotal += launch
	g.LaunchMax = max(g.LaunchMax, launch)
	g.DelayTotal += delay
	g.DelayMax = max(g.DelayMax, delay)
	g.QueueTotal += queue
	g.QueueMax = max(g.QueueMax, queue)
	if kernel < launch {
		g.Short++
	}
	if launch > slowLaunchNs {
		g.SlowLaunch++
	}
	if delay > longDelayNs {
		g.LongDelay++
	}
}
