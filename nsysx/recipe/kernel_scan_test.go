package recipe

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// dumpOutput writes every table of out, column by column, with each
// column's kind, mask (and whether it has one) and exact values.
func dumpOutput(out *Output) string {
	var b strings.Builder
	for _, tb := range out.Tables {
		f := tb.Frame
		fmt.Fprintf(&b, "%s index %v %v %q\n", tb.Name, f.Index, f.IndexCols, f.RangeName)
		for _, c := range f.Cols {
			fmt.Fprintf(&b, "  %s %v mask=%v %v %v %q %v\n", c.Name, c.Kind, c.Valid != nil, c.Valid, c.Ints, c.Strs, c.Floats)
		}
	}
	return b.String()
}

// TestKernelScanMatchesLoad runs the recipes that stream the kernel table
// both ways (streamed, and with the scan turned off so that they load it)
// and requires the same output, value for value, under the options that
// shape the scan (time windows, --cumulative, alignment off).
func TestKernelScanMatchesLoad(t *testing.T) {
	window := func(o *Options) { o.FilterTime = &TimeRange{Start: i64(3_000_000_000), End: i64(6_000_000_000)} }
	cases := []struct {
		name string
		opt  func(*Options)
	}{
		{"default", func(*Options) {}},
		{"window", window},
		{"start", func(o *Options) { o.Start = i64(2_000_000_000) }},
		{"cumulative", func(o *Options) { o.Cumulative, o.DisableAlignment = true, true }},
	}
	for _, recipe := range []string{"cuda_gpu_kern_sum", "cuda_gpu_time_util_map"} {
		for _, c := range cases {
			t.Run(recipe+"/"+c.name, func(t *testing.T) {
				run := func(scan bool) string {
					defer func(was bool) { kernelScanOff = was }(kernelScanOff)
					kernelScanOff = !scan
					o := Defaults()
					c.opt(o)
					return dumpOutput(runOn(t, recipe, o, "rank0", "train").Output)
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
	o := Defaults()
	n, ok := scanKernels(context.Background(), p, o, "shortName", func(kernRow) {})
	k, err := loadKernel(context.Background(), p, kernelShort)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || n == 0 || n > k.Len() {
		t.Fatalf("scan ok %v, %d rows of %d", ok, n, k.Len())
	}
	o.FilterNVTX = &NVTXRange{Range: "x"}
	if _, ok := scanKernels(context.Background(), p, o, "shortName", func(kernRow) {}); ok {
		t.Error("scanned under an NVTX filter")
	}
}

// TestRunsConsolidate: runs gives Consolidate of the ranges added, for
// ranges in start order (consolidated as they come), out of order, with
// ties, touching ends and ranges that end before they start (appended raw
// from there on).
func TestRunsConsolidate(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.Intn(30)
		v := make([]Interval, n)
		s := int64(0)
		for i := range v {
			s += int64(r.Intn(6)) // mostly in start order
			if r.Intn(8) == 0 {
				s -= int64(r.Intn(10))
			}
			e := s + int64(r.Intn(8))
			if r.Intn(12) == 0 {
				e = s - int64(1+r.Intn(5)) // ends before it starts
			}
			v[i] = Interval{s, e}
		}
		var got runs
		for _, x := range v {
			got.add(x)
		}
		want := Consolidate(append([]Interval(nil), v...))
		if c := got.consolidated(); !reflect.DeepEqual(c, want) {
			t.Fatalf("ranges %v: runs %v, Consolidate %v", v, c, want)
		}
	}
}

// TestKernSumDescribe: the streamed describe (groups by integers, a
// counting sort, one device per name shared) equals Describe of per-row
// name and device columns, on random kernels with several devices per
// name, NULL names, and one device per name.
func TestKernSumDescribe(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for trial := 0; trial < 200; trial++ {
		names := []string{"a", "b", "c", "d"}[:1+r.Intn(4)]
		devs := 1 + r.Intn(3)
		var s kernSumScan
		var rowName []string
		var rowValid Mask
		var rowDev []int64
		for i := 0; i < 1+r.Intn(60); i++ {
			id, dev := int64(r.Intn(len(names)+1)), int64(r.Intn(devs))
			if trial%3 == 0 {
				dev = id // one device per name
			}
			null := id == int64(len(names)) // NULL id
			s.dur, s.gid = append(s.dur, 1+r.Int63n(100)), append(s.gid, s.group(kernSumKey{id, dev, null}))
			if null {
				rowName, rowValid = append(rowName, ""), append(rowValid, false)
			} else {
				rowName, rowValid = append(rowName, names[id]), append(rowValid, true)
			}
			rowDev = append(rowDev, dev)
		}
		// The names seen, in order, as kernSumScan.names lists them.
		var seen []string
		for _, n := range names {
			if slices.Contains(rowName, n) {
				seen = append(seen, n)
			}
		}
		named := make([]int32, len(s.groups))
		for g, key := range s.groups {
			named[g] = -1
			if !key.null {
				named[g] = int32(slices.Index(seen, names[key.id]))
			}
		}
		got := dumpOutput(&Output{Tables: partTables(s.describe(seen, named))})
		dur := NewInts("duration", Int64, s.dur, nil)
		name := nameCol("Name", rowName, rowValid, seq(len(rowName)))
		dev := NewInts("Device ID", Uint32, rowDev, nil)
		want := dumpOutput(&Output{Tables: partTables(StatsPart(Describe([]*Column{name}, dur), Describe([]*Column{name, dev}, dur)))})
		if got != want {
			t.Fatalf("trial %d:\n%s\nwant\n%s", trial, got, want)
		}
	}
}

// partTables is a stats part's frames as tables, in a fixed order.
func partTables(p *Part) []Table {
	return []Table{{Name: FrameStats, Frame: p.Frames[FrameStats]}, {Name: FrameStatsByDevice, Frame: p.Frames[FrameStatsByDevice]}}
}
