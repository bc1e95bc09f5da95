package events_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model"
)

// goldenFilterArgs are the --filter-nvtx and --filter-time arguments the
// profile's filtered nsys goldens were made with (filters.txt).
func goldenFilterArgs(t *testing.T, prof string) (nvtx, window string) {
	txt, ok := testutil.Golden(t, prof, "filters.txt")
	if !ok {
		t.Fatalf("no filters.txt for %s", prof)
	}
	for _, l := range strings.Split(txt, "\n") {
		name, arg, _ := strings.Cut(l, ": ")
		arg = strings.Trim(arg[strings.Index(arg, " ")+1:], "'")
		switch name {
		case "filter_nvtx":
			nvtx = arg
		case "filter_time":
			window = arg
		}
	}
	return nvtx, window
}

// TestFilteredViews checks every view under the filters of the nsys
// goldens (a time window; an NVTX range "name/index") against SQLite's
// selection of the raw rows: the rows overlapping the window (start in
// it, end in it, or spanning it), and for the NVTX range only the rows of
// its thread (a push/pop range) or process (a range on a main thread).
// The range itself is looked up in SQL: the index-th range of that name in
// start order. Loaded columns and streamed rows must both match.
//
// Besides the profiles, the nvtx_edge fixture has a worker thread (pid 100,
// tid 101) next to the main one: its push/pop range "outer" keeps the
// worker's rows, its start/end range "se" on the main thread the process's.
func TestFilteredViews(t *testing.T) {
	type input struct{ path, nvtx, window string }
	var in []input
	for _, prof := range testutil.Profiles {
		nv, window := goldenFilterArgs(t, prof)
		in = append(in, input{testutil.Profile(t, prof), nv, window})
	}
	edge := filepath.Join(testutil.Root(), "testdata", "fixtures", "nvtx_edge.sqlite")
	in = append(in, input{edge, "outer", "2000/5000"}, input{edge, "se", "0/1"})
	views := []func(context.Context, *model.Profile, *events.Filter) *events.View{
		events.Kernels, events.Memcpys, events.Memsets, events.CUDAAPICalls,
		events.OSRTCalls, events.NVTXEvents, events.GraphExecs,
	}
	skipped := 0
	someKept, someDropped := false, false
	for _, x := range in {
		path, nv, window, prof := x.path, x.nvtx, x.window, filepath.Base(x.path)
		q := func(sql string, args ...string) int64 { return sqlitecopy.Int64(t, path, sql, args...) }
		a, b, _ := strings.Cut(window, "/")
		ws, err1 := strconv.ParseInt(a, 10, 64)
		we, err2 := strconv.ParseInt(b, 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: window %q", prof, window)
		}
		name, idx, _ := strings.Cut(nv, "/")
		if idx == "" {
			idx = "0"
		}
		rangeSQL := `FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71)
			AND coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) = ?
			AND (coalesce(domainId, -1), coalesce(globalTid >> 24, -1)) NOT IN
				(SELECT domainId, globalTid >> 24 FROM NVTX_EVENTS WHERE eventType = 75 AND domainId IS NOT NULL AND globalTid IS NOT NULL)
			ORDER BY start, rowid LIMIT 1 OFFSET ` + idx
		var ns, ne, ng int64
		found := q("SELECT count(*) FROM (SELECT 1 "+rangeSQL+")", name) > 0
		if found {
			ns, ne, ng = q("SELECT start "+rangeSQL, name), q("SELECT end "+rangeSQL, name), q("SELECT globalTid "+rangeSQL, name)
		}
		pushPop := (ng>>24)&0xFFFFFF != ng&0xFFFFFF

		p, err := nsysx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ft, err := nsysx.ParseTimeFilter(window)
		if err != nil {
			t.Fatal(err)
		}
		fn, err := nsysx.ParseNVTXFilter(nv)
		if err != nil {
			t.Fatal(err)
		}
		for _, view := range views {
			table := view(t.Context(), p.Profile, nil).Table()
			if q("SELECT count(*) FROM sqlite_master WHERE name = ?", table) == 0 {
				continue
			}
			has := func(col string) bool {
				return q("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, col) > 0
			}
			overlap := func(s, e int64) string {
				return fmt.Sprintf(" WHERE ((start >= %[1]d AND start < %[2]d) OR (end >= %[1]d AND end < %[2]d) OR (start < %[1]d AND end >= %[2]d))", s, e)
			}
			thread := ""
			switch {
			case pushPop && has("globalTid"):
				thread = fmt.Sprintf(" AND globalTid = %d", ng)
			case has("globalTid"):
				thread = fmt.Sprintf(" AND (globalTid >> 24) = %d", ng>>24)
			case has("globalPid"):
				thread = fmt.Sprintf(" AND (globalPid >> 24) = %d", ng>>24)
			}
			for _, c := range []struct {
				what  string
				f     *events.Filter
				where string
			}{{"time " + window, ft, overlap(ws, we)}, {"nvtx " + nv, fn, overlap(ns, ne) + thread}} {
				sel := " FROM " + table + c.where
				want := [3]int64{q("SELECT count(*)" + sel), q("SELECT coalesce(sum(start), 0)" + sel), q("SELECT coalesce(sum(rowid), 0)" + sel)}
				v := view(t.Context(), p.Profile, c.f)
				tb, err := v.Load("start", "end")
				var skip *events.SkipError
				if c.f == fn && !found {
					if !errors.As(err, &skip) {
						t.Errorf("%s %s under %s: no such range in SQL (a named domain's ranges are name@domain), the view gave %v", prof, table, c.what, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s %s %s: %v", prof, table, c.what, err)
				}
				var got [3]int64
				for i := 0; i < tb.N; i++ {
					got[0]++
					got[1] += tb.Col("start").Int(i)
					got[2] += tb.RowIDs[i]
				}
				kept, all := want[0], q("SELECT count(*) FROM "+table)
				someKept, someDropped = someKept || kept > 0, someDropped || kept < all
				if got != want {
					t.Errorf("%s %s under %s: loaded rows (count, Σstart, Σrowid) %v, SQLite %v", prof, table, c.what, got, want)
				}
				sc, err := v.Scanner("start")
				if err != nil {
					t.Fatal(err)
				}
				got = [3]int64{}
				err = sc.Run(func(rowid int64, r events.RowVals) {
					got[0], got[1], got[2] = got[0]+1, got[1]+r.Int(0), got[2]+rowid
				})
				if err != nil || got != want {
					t.Errorf("%s %s under %s: streamed rows %v, SQLite %v (%v)", prof, table, c.what, got, want, err)
				}
			}
		}
		if !found {
			skipped++
		}
		p.Close()
	}
	if skipped == len(in) || !someKept || !someDropped {
		t.Errorf("the filters were not tested: NVTX filters skipped on %d profiles, rows kept %v, rows dropped %v", skipped, someKept, someDropped)
	}
}
