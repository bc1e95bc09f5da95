package events_test

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// TestLaunches checks the launch of every GPU operation against SQLite on
// the profiles with CUDA work: how many have a launching runtime call of
// their process, and the sum of (operation start - launch).
func TestLaunches(t *testing.T) {
	for _, name := range []string{"train", "rank0", "sync"} {
		path := testutil.Profile(t, name)
		p, err := nsysx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := events.GPUOps(t.Context(), p.Profile, true)
		if err != nil {
			t.Fatal(err)
		}
		at, err := events.Launches(t.Context(), p.Profile, true)
		p.Close()
		if err != nil || len(at) != len(ops) {
			t.Fatalf("%s: %d launches for %d operations: %v", name, len(at), len(ops), err)
		}
		var n, lag int64
		for i, a := range at {
			if a >= 0 {
				n++
				lag += ops[i].Start - a
			}
		}
		var wantN, wantLag int64
		for _, tn := range []string{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"} {
			q := " FROM " + tn + ` g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId
				AND (r.globalTid >> 24) = (g.globalPid >> 24)`
			wantN += sqlitecopy.Int64(t, path, "SELECT count(*)"+q)
			wantLag += sqlitecopy.Int64(t, path, "SELECT coalesce(sum(g.start - r.start), 0)"+q)
		}
		if n != wantN || lag != wantLag || n == 0 {
			t.Errorf("%s: %d launched, lag %d; SQLite %d, %d", name, n, lag, wantN, wantLag)
		}
	}
}

// TestNamedRanges checks the NVTX ranges read whole (Full), kept by name
// and sorted by start against SQLite: the iteration ranges of rank1, with
// their names from StringIds or inline.
func TestNamedRanges(t *testing.T) {
	path := testutil.Profile(t, "rank1")
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	all, err := events.NVTXRanges(t.Context(), p.Profile, events.RangeOptions{Full: true, ByStart: true,
		Keep: func(s string) bool { return len(s) > 10 && s[:10] == "iteration " }})
	if err != nil {
		t.Fatal(err)
	}
	type named struct {
		Start, End int64
		Thread     model.GlobalTid
		Name       string
	}
	var rs []named
	for _, r := range all.List {
		rs = append(rs, named{r.Start, r.End, r.Thread, all.Names[r.Name]})
	}
	q := ` FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND end IS NOT NULL
		AND coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) LIKE 'iteration %'`
	var sum int64
	for i, r := range rs {
		sum += r.End - r.Start
		if i > 0 && r.Start < rs[i-1].Start || r.Thread == 0 {
			t.Errorf("range %d %+v: out of order or without a thread", i, r)
		}
	}
	if n := sqlitecopy.Int64(t, path, "SELECT count(*)"+q); int64(len(rs)) != n || n == 0 {
		t.Errorf("%d ranges, SQLite %d", len(rs), n)
	}
	if want := sqlitecopy.Int64(t, path, "SELECT sum(end - start)"+q); sum != want {
		t.Errorf("durations sum to %d, SQLite %d", sum, want)
	}
	if first := sqlitecopy.Text(t, path, "SELECT coalesce(text, (SELECT value FROM StringIds WHERE id = textId))"+q+" ORDER BY start"); rs[0].Name != first {
		t.Errorf("first range %q, SQLite %q", rs[0].Name, first)
	}
}
