package recipes

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
	"github.com/nsysx/nsysx/nsysx/stats"
)

// dumpOutput writes every table of out, column by column, with each
// column's kind, mask (and whether it has one) and exact values.
func dumpOutput(out *recipe.Output) string {
	var b strings.Builder
	for _, tb := range out.Tables {
		f := tb.Frame
		fmt.Fprintf(&b, "%s index %v %v %q\n", tb.Name, f.Index, f.IndexCols, f.RangeName)
		for _, c := range f.Cols {
			fmt.Fprintf(&b, "  %s %v mask=%v %v %v %q %v\n", c.Name, c.Type, c.Valid != nil, c.Valid, c.IntVals, c.Strs, c.FloatVals)
		}
	}
	return b.String()
}

// TestKernelScanMatchesLoad runs the recipes that stream the kernel table
// both ways (streamed, and with the scan turned off so that they load it)
// and requires the same output, value for value, under the options that
// shape the scan (time windows, --cumulative, alignment off).
func TestKernelScanMatchesLoad(t *testing.T) {
	window := func(o *recipe.Options) {
		o.FilterTime = &recipe.TimeRange{Start: i64(3_000_000_000), End: i64(6_000_000_000)}
	}
	cases := []struct {
		name string
		opt  func(*recipe.Options)
	}{
		{"default", func(*recipe.Options) {}},
		{"window", window},
		{"start", func(o *recipe.Options) { o.Start = i64(2_000_000_000) }},
		{"cumulative", func(o *recipe.Options) { o.Cumulative, o.DisableAlignment = true, true }},
	}
	for _, rname := range []string{"cuda_gpu_time_util_map"} {
		for _, c := range cases {
			t.Run(rname+"/"+c.name, func(t *testing.T) {
				run := func(scan bool) string {
					defer func(was bool) { composite.KernelScanOff = was }(composite.KernelScanOff)
					composite.KernelScanOff = !scan
					o := recipe.Defaults()
					c.opt(o)
					return dumpOutput(runOn(t, rname, o, "rank0", "train").Output)
				}
				if got, want := run(true), run(false); got != want {
					t.Errorf("streamed output differs from the loaded one:\n%s\nwant\n%s", got, want)
				}
			})
		}
	}
}

// TestScanKernelsApplies checks that the golden inputs take the streamed
// path (so that TestKernelScanMatchesLoad compares two paths) and that an
// NVTX filter turns it off.
func TestScanKernelsApplies(t *testing.T) {
	p := openProfile(t, "rank0")
	o := recipe.Defaults()
	n, ok := composite.ScanKernels(context.Background(), p, o, "shortName", func(composite.KernRow) bool { return true })
	k, err := composite.LoadKernelCols(context.Background(), p, composite.KernelShort)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || n == 0 || n > k.Len() {
		t.Fatalf("scan ok %v, %d rows of %d", ok, n, k.Len())
	}
	o.FilterNVTX = &recipe.NVTXRange{Range: "x"}
	if _, ok := composite.ScanKernels(context.Background(), p, o, "shortName", func(composite.KernRow) bool { return true }); ok {
		t.Error("scanned under an NVTX filter")
	}
}

// TestHeatRunBins: a group's bins made as its ranges come (heatRun) are
// HeatBins of the consolidated ranges, for random ranges in start order
// (ties, touching and overlapping ranges, bins outside the session) and
// ranges out of order that start inside the open run; one that starts
// before the open run, or ends before it starts, is refused.
func TestHeatRunBins(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for trial := 0; trial < 2000; trial++ {
		bins, bs := 1+r.Intn(12), int64(1+r.Intn(20))
		h := heatRun{bins: make([]float64, bins)}
		var v []composite.Interval
		s := int64(r.Intn(10))
		for i := 0; i < 1+r.Intn(30); i++ {
			s += int64(r.Intn(6))
			x := composite.Interval{Start: s, End: s + int64(r.Intn(9))}
			if r.Intn(5) == 0 {
				x.Start -= int64(r.Intn(4)) // out of order: taken inside the open run
			}
			runStart, open := h.run.Start, h.open
			if !h.add(x, float64(bs)) {
				if !open || x.Start >= runStart {
					t.Fatalf("range %v refused (open run from %d)", x, runStart)
				}
				continue
			}
			v = append(v, x)
		}
		if h.open {
			addBins(h.bins, h.run, float64(bs))
		}
		off, maxT := int64(r.Intn(5)), int64(r.Intn(int(bs)*bins+5))
		rectify(h.bins, float64(bs), off, maxT, true)
		want := HeatBins(composite.Consolidate(v), bs, bins, off, maxT)
		if fmt.Sprint(h.bins) != fmt.Sprint(want) {
			t.Fatalf("ranges %v: bins %v, HeatBins %v", v, h.bins, want)
		}
		rs := h.run.Start
		if h.add(composite.Interval{Start: rs - 1, End: rs + 5}, float64(bs)) || h.add(composite.Interval{Start: rs + 3, End: rs + 2}, float64(bs)) {
			t.Fatal("a range out of order or ending before its start was taken")
		}
	}
}

// TestKernSumDescribe: the kernels grouped by the reports' aggregation
// (stats.Groups by (name id, device)), named, merged by name and described
// (nameGroups, describeGroups, describeByDevice) equal Describe of per-row
// name and device columns, on random kernels with several devices per
// name, NULL names, two ids of one name, and one device per name.
func TestKernSumDescribe(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for trial := 0; trial < 300; trial++ {
		names := []string{"b", "a", "c", "a", "d"}[:1+r.Intn(5)] // ids 1 and 3 share a name
		devs := 1 + r.Intn(3)
		g := &stats.Groups[stats.IDKey]{TrackRows: true}
		var rowName []string
		var rowValid pyframe.Mask
		var rowDev, rowDur []int64
		for i := 0; i < 1+r.Intn(60); i++ {
			id, dev := int64(r.Intn(len(names)+1)), int64(r.Intn(devs))
			if trial%3 == 0 {
				dev = id // one device per id
			}
			null := id == int64(len(names)) // NULL id
			key := stats.IDKey{ID: stats.IntV(id), Sub: dev}
			if null {
				key.ID = stats.Null
				rowName, rowValid = append(rowName, ""), append(rowValid, false)
			} else {
				rowName, rowValid = append(rowName, names[id]), append(rowValid, true)
			}
			d := 1 + r.Int63n(100) + r.Int63n(2)*r.Int63n(1<<56) // large values: the order of summing shows
			g.Add(key, int(id), d)
			rowDev, rowDur = append(rowDev, dev), append(rowDur, d)
		}
		ng := nameGroups(len(g.Keys), func(k int) int { return g.Aggs[k].N() }, func(k int) (string, bool) {
			if g.Keys[k].ID.Kind != stats.IntKind {
				return "", false
			}
			return names[g.Keys[k].ID.I], true
		})
		byName := describeGroups(valueSource{g}, ng.name, len(ng.names), []*pyframe.Column{ng.nameColumn("Name", ng.names)}, pyframe.Int64)
		got := dumpOutput(&recipe.Output{Tables: partTables(recipe.StatsPart(byName, describeByDevice(valueSource{g}, ng, func(k int) int64 { return g.Keys[k].Sub }, byName, pyframe.Int64)))})
		dur := pyframe.NewInts("duration", pyframe.Int64, rowDur, nil)
		name := nameCol("Name", rowName, rowValid, pyframe.Seq(len(rowName)))
		dev := pyframe.NewInts("Device ID", pyframe.Uint32, rowDev, nil)
		want := dumpOutput(&recipe.Output{Tables: partTables(recipe.StatsPart(pyframe.Describe([]*pyframe.Column{name}, dur), pyframe.Describe([]*pyframe.Column{name, dev}, dur)))})
		if got != want {
			t.Fatalf("trial %d:\n%s\nwant\n%s", trial, got, want)
		}
	}
}

// partTables is a stats part's frames as tables, in a fixed order.
func partTables(p *recipe.Part) []recipe.Table {
	return []recipe.Table{{Name: recipe.FrameStats, Frame: p.Frames[recipe.FrameStats]}, {Name: recipe.FrameStatsByDevice, Frame: p.Frames[recipe.FrameStatsByDevice]}}
}

// TestScanKernelsInRanges: read in ranges of one leaf page or more at once
// (a map with spare cores), scanKernels gives fn the rows of a one-range
// scan, in the same order.
func TestScanKernelsInRanges(t *testing.T) {
	defer func(l, g int) { sqlite.MinPartLeaves = l; runtime.GOMAXPROCS(g) }(sqlite.MinPartLeaves, runtime.GOMAXPROCS(4))
	sqlite.MinPartLeaves = 1
	for _, name := range []string{"rank0", "train"} {
		p := openProfile(t, name)
		rows := func(ctx context.Context) []composite.KernRow {
			var out []composite.KernRow
			if _, ok := composite.ScanKernels(ctx, p, recipe.Defaults(), "shortName", func(k composite.KernRow) bool { out = append(out, k); return true }); !ok {
				t.Fatalf("%s: not scanned", name)
			}
			return out
		}
		ctx := nsysx.WithCores(context.Background(), 4)
		n, err := p.ScanParts(ctx, composite.TableKernel, []string{"start"}, func(int) func(nsysx.ScanRow) error {
			return func(nsysx.ScanRow) error { return nil }
		})
		if err != nil || n < 2 {
			t.Fatalf("%s: %d ranges, %v: the test checks nothing", name, n, err)
		}
		if one, many := rows(context.Background()), rows(ctx); !slices.Equal(one, many) {
			t.Errorf("%s: %d rows in ranges, %d in one, or in another order", name, len(many), len(one))
		}
	}
}

// TestNamedGroupsShared: shared is whether two groups with a name have the
// same one (NULL names, −1, never share), counted here by a map of names.
func TestNamedGroupsShared(t *testing.T) {
	for _, names := range [][]string{{"b", "a"}, {"b", "a", "c", "a"}, {"x", "", ""}, {"", "y", "y"}, {}} {
		seen, want := map[string]bool{}, false
		for _, s := range names {
			want = want || s != "" && seen[s]
			seen[s] = true
		}
		ng := nameGroups(len(names), func(int) int { return 1 }, func(g int) (string, bool) { return names[g], names[g] != "" })
		if got := ng.shared(); got != want {
			t.Errorf("%q: shared %v, want %v", names, got, want)
		}
	}
}
