package events

import (
	"context"
	"math"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/load"
)

// TestFilterCache checks that repeated loads of a table under one Filter
// return the same rows, and that adding columns keeps them aligned.
func TestFilterCache(t *testing.T) {
	p, err := load.OpenProfile(context.Background(), testutil.Profile(t, "train"), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f := &Filter{Start: 156893133, End: 278498292, StartSet: true, EndSet: true}
	v := Of(context.Background(), p, f, TableRuntime)
	a, err := v.Load("start", "end")
	if err != nil {
		t.Fatal(err)
	}
	b, err := v.Load("start")
	if err != nil {
		t.Fatal(err)
	}
	if a != b || a.Col("start") != b.Col("start") {
		t.Error("second load of the same columns did not return the cached table")
	}
	full, _ := p.Load(context.Background(), TableRuntime, "start", "end", "correlationId")
	if a.N == 0 || a.N >= full.N {
		t.Fatalf("filter kept %d of %d rows", a.N, full.N)
	}
	w, err := v.Load("correlationId")
	if err != nil {
		t.Fatal(err)
	}
	if w.N != a.N || w.Col("start") != a.Col("start") {
		t.Fatal("adding a column changed the rows")
	}
	// Every kept row overlaps the window and matches the unfiltered row of
	// the same rowid.
	byRow := map[int64]int{}
	for i, r := range full.RowIDs {
		byRow[r] = i
	}
	for i := 0; i < w.N; i++ {
		j := byRow[w.RowIDs[i]]
		s, e := w.Col("start").Ints[i], w.Col("end").Ints[i]
		if s != full.Col("start").Ints[j] || w.Col("correlationId").Ints[i] != full.Col("correlationId").Ints[j] {
			t.Fatalf("row %d misaligned", i)
		}
		if !(s < 278498292 && e >= 156893133) {
			t.Fatalf("row [%d,%d] outside the window", s, e)
		}
	}
	// Tables without an end column are not filtered.
	strs, _ := Of(context.Background(), p, f, TableStringIds).Load("id")
	all, _ := p.Load(context.Background(), "StringIds", "id")
	if strs.N != all.N {
		t.Error("StringIds was filtered")
	}
}

func TestRowFilterPredicate(t *testing.T) {
	rf := &RowFilter{s: 10, e: 20, pid: -1, tid: -1}
	for _, c := range []struct {
		s, e   int64
		eNull  bool
		expect bool
	}{
		{10, 12, false, true}, {5, 10, false, true}, {5, 9, false, false}, {19, 30, false, true},
		{20, 30, false, false}, {0, 20, false, true}, {0, 19, false, true}, {15, 0, true, true},
		{5, 0, true, false}, {20, 0, true, false},
	} {
		if got := rf.Keep(c.s, false, c.e, c.eNull, 0, true); got != c.expect {
			t.Errorf("[%d,%d null=%v] kept=%v", c.s, c.e, c.eNull, got)
		}
	}
	all := &RowFilter{s: math.MinInt64, e: math.MaxInt64, pid: -1, tid: -1}
	if !all.Keep(math.MaxInt64-1, false, math.MaxInt64, false, 0, true) {
		t.Error("a row at the end of time was dropped by the full window")
	}
}
