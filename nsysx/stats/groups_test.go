package stats

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// TestValuesByID: the groups of ValuesByID, streamed from the export (no
// column loaded) and loaded (the columns already in the profile), equal
// those computed here from the loaded columns with a map: keys in order
// of first rows, each group's values in row order, NULLs counted; for the
// runtime calls by name, the kernels by (short name, device) with a row
// filter, and the memcpy sizes by copy kind.
func TestValuesByID(t *testing.T) {
	path := fixture(t, "train")
	type want struct {
		keys  []IDKey
		vals  [][]int64
		nulls []int
	}
	cases := []struct {
		table, id string
		spec      ValueSpec
	}{
		{events.TableRuntime, "nameId", ValueSpec{}},
		{events.TableKernel, "shortName", ValueSpec{Sub: "deviceId", Keep: func(row int, s, e int64) bool { return row%3 != 1 && e-s > 2000 }}},
		{events.TableMemcpy, "copyKind", ValueSpec{Value: "bytes", Sub: "deviceId"}},
	}
	dump := func(g *Groups[IDKey]) string {
		var w want
		w.keys = g.Keys
		for i := range g.Aggs {
			w.vals = append(w.vals, g.Aggs[i].Values())
			w.nulls = append(w.nulls, g.Aggs[i].Nulls())
		}
		return fmt.Sprint(w)
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			p, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			cx := report.NewCtx(ctx, p, nil, nil, nil)
			streamed, err := ValuesByID(cx, c.table, c.id, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if p.Loaded(c.table) != nil {
				t.Fatalf("%s: loaded, not streamed", c.table)
			}
			cols := []string{"start", "end", c.id, "deviceId", "bytes"}[:3]
			if c.spec.Sub != "" {
				cols = append(cols, c.spec.Sub)
			}
			if c.spec.Value != "" {
				cols = append(cols, c.spec.Value)
			}
			tb, err := p.Load(ctx, c.table, cols...)
			if err != nil {
				t.Fatal(err)
			}
			loaded, err := ValuesByID(cx, c.table, c.id, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			// The groups computed here.
			var w want
			at := map[IDKey]int{}
			st, en, id := tb.Col("start"), tb.Col("end"), tb.Col(c.id)
			for i := 0; i < tb.N; i++ {
				if c.spec.Keep != nil && !c.spec.Keep(i, st.Ints[i], en.Ints[i]) {
					continue
				}
				k := IDKey{ID: Null}
				if !id.IsNull(i) {
					k.ID = IntV(id.Ints[i])
				}
				if c.spec.Sub != "" {
					k.Sub = tb.Col(c.spec.Sub).Ints[i]
				}
				g, ok := at[k]
				if !ok {
					g = len(w.keys)
					at[k] = g
					w.keys = append(w.keys, k)
					w.vals = append(w.vals, []int64{})
					w.nulls = append(w.nulls, 0)
				}
				v := en.Ints[i] - st.Ints[i]
				if c.spec.Value != "" {
					v = tb.Col(c.spec.Value).Ints[i]
				}
				w.vals[g] = append(w.vals[g], v)
			}
			if len(w.keys) < 2 {
				t.Fatalf("%s: %d groups: not a test", c.table, len(w.keys))
			}
			for g := range w.vals {
				if len(w.vals[g]) == 0 {
					w.vals[g] = nil
				}
			}
			for _, got := range []*Groups[IDKey]{streamed, loaded} {
				for g := range got.Aggs {
					if len(got.Aggs[g].Values()) == 0 {
						got.Aggs[g].vals = nil
					}
				}
				if dump(got) != fmt.Sprint(w) {
					t.Fatalf("%s:\n got %v\nwant %v", c.table, dump(got), fmt.Sprint(w))
				}
			}
			if !slices.Equal(streamed.Keys, loaded.Keys) {
				t.Fatal("keys differ")
			}
		})
	}
}

// TestValuesByIDFiltered: under --filter-time and --filter-nvtx, the
// streamed groups (the filter's row test applied as the rows are read;
// nothing loaded) equal the groups of the filtered load (Ctx.Load).
func TestValuesByIDFiltered(t *testing.T) {
	path := fixture(t, "train")
	tf, err := ParseTimeFilter("300ms/900ms")
	if err != nil {
		t.Fatal(err)
	}
	nf, err := report.ParseNVTXFilter("forward")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*Filter{tf, nf} {
		p, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		cx := report.NewCtx(context.Background(), p, nil, nil, f)
		streamed, err := ValuesByID(cx, events.TableRuntime, "nameId", ValueSpec{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Loaded(events.TableRuntime) != nil {
			t.Fatal("loaded, not streamed")
		}
		tb, err := cx.View(events.TableRuntime).Load("start", "end", "nameId")
		if err != nil {
			t.Fatal(err)
		}
		full, err := p.Load(context.Background(), events.TableRuntime, "start")
		if err != nil {
			t.Fatal(err)
		}
		if tb.N == 0 || tb.N == full.N {
			t.Fatalf("filter %v keeps %d of %d rows: not a test", f.Args(), tb.N, full.N)
		}
		loaded, err := ValuesByID(cx, events.TableRuntime, "nameId", ValueSpec{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range streamed.Aggs {
			n += int(streamed.Aggs[i].Count())
		}
		if n != tb.N || fmt.Sprint(streamed.Keys, streamed.Aggs) != fmt.Sprint(loaded.Keys, loaded.Aggs) {
			t.Fatalf("filter %v: streamed %d rows %v\nloaded %d %v", f.Args(), n, streamed.Keys, tb.N, loaded.Keys)
		}
	}
}

// TestValuesByIDRanges: grouped in ranges of a leaf page or more read at
// once (spare cores, a Keep that reads only the times), ValuesByID gives
// the groups of one pass (TestValuesByID checks those): the same keys in
// the same order, each group's values in the same order, the same NULLs
// and the same group of each row (TrackRows).
func TestValuesByIDRanges(t *testing.T) {
	defer func(l, procs int) { sqlite.MinPartLeaves = l; runtime.GOMAXPROCS(procs) }(sqlite.MinPartLeaves, runtime.GOMAXPROCS(4))
	sqlite.MinPartLeaves = 1
	long := func(_ int, s, e int64) bool { return e-s > 2000 }
	cases := []struct {
		table, id string
		spec      ValueSpec
	}{
		{events.TableRuntime, "nameId", ValueSpec{TrackRows: true}},
		{events.TableKernel, "shortName", ValueSpec{Sub: "deviceId", Keep: long, KeepAnyRow: true, TrackRows: true}},
		{events.TableMemcpy, "copyKind", ValueSpec{Value: "bytes", Sub: "deviceId", Keep: long, KeepAnyRow: true}},
	}
	checked := 0
	for _, name := range []string{"train", "bt"} {
		p, err := Open(fixture(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if !p.HasTable(c.table) {
				continue
			}
			d, ok := intStreamUnder(&Ctx{Context: context.Background(), P: p}, c.table, "start")
			if !ok {
				t.Fatalf("%s %s: not streamed", name, c.table)
			}
			n, err := d.RunParts(context.Background(), []string{"start"}, 4, func(int) func(int64, *model.Fields) error {
				return func(int64, *model.Fields) error { return nil }
			})
			if err != nil {
				t.Fatal(err)
			}
			if n < 2 { // a table of one leaf page
				continue
			}
			checked++
			groups := func(cores int) *Groups[IDKey] {
				g, err := ValuesByID(report.NewCtx(WithCores(context.Background(), cores), p, nil, nil, nil), c.table, c.id, c.spec)
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			one, many := groups(1), groups(4)
			if len(one.Keys) < 2 || !slices.Equal(one.Keys, many.Keys) || !slices.Equal(one.Of, many.Of) {
				t.Fatalf("%s %s: keys %v (rows %d) in ranges, %v (rows %d) in one pass", name, c.table, many.Keys, len(many.Of), one.Keys, len(one.Of))
			}
			for i := range one.Aggs {
				if !slices.Equal(one.Aggs[i].Values(), many.Aggs[i].Values()) || one.Aggs[i].Nulls() != many.Aggs[i].Nulls() {
					t.Errorf("%s %s %v: values differ in ranges", name, c.table, one.Keys[i])
				}
			}
		}
		p.Close()
	}
	if checked < 3 {
		t.Fatalf("%d tables read in ranges: the test checks too little", checked)
	}
}

// BenchmarkValuesByIDRanges groups train's runtime calls by name in one
// range and in two read at once (joinGroups).
func BenchmarkValuesByIDRanges(b *testing.B) {
	defer func(l int) { sqlite.MinPartLeaves = l }(sqlite.MinPartLeaves)
	sqlite.MinPartLeaves = 1
	p, err := Open(fixture(b, "train"))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	for _, cores := range []int{1, 2} {
		b.Run(fmt.Sprint(cores, "ranges"), func(b *testing.B) {
			c := report.NewCtx(WithCores(context.Background(), cores), p, nil, nil, nil)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ValuesByID(c, events.TableRuntime, "nameId", ValueSpec{TrackRows: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
