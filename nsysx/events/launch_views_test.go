package events_test

import (
	"regexp"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// TestLaunchViews checks the views the critical path reads against SQLite
// on every shipped profile: the API calls, the launched operations (with
// their correlation ids and the pageable copies), the synchronisations,
// the event records and the NVTX ranges, by count and sums of their
// columns; and the iterations against the NVTX ranges SQL selects by
// name.
func TestLaunchViews(t *testing.T) {
	more := []string{"advise/graph", "advise/graph_node", "advise/pageable_sync", "advise/host_stall_nocuda", "whatif/before", "whatif/no_item"}
	for _, name := range append(testutil.Profiles, more...) {
		path := testutil.Profile(t, name)
		p, err := nsysx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		q := func(sql string) int64 { return sqlitecopy.Int64(t, path, sql) }
		has := func(table string) bool { return q("SELECT count(*) FROM sqlite_master WHERE name = '"+table+"'") > 0 }
		check := func(what string, got, want [3]int64) {
			if got != want {
				t.Errorf("%s %s: view %v, SQLite %v", name, what, got, want)
			}
		}
		calls, err := events.APICalls(t.Context(), p.Profile)
		if err != nil {
			t.Fatal(err)
		}
		var c [3]int64
		for _, x := range calls {
			c[0], c[1], c[2] = c[0]+1, c[1]+x.End-x.Start, c[2]+x.Correlation
		}
		if !has("CUPTI_ACTIVITY_KIND_RUNTIME") {
			if len(calls) != 0 {
				t.Errorf("%s: %d calls without a runtime table", name, len(calls))
			}
			p.Close()
			continue
		}
		check("API calls", c, [3]int64{q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start IS NOT NULL AND end IS NOT NULL"),
			q("SELECT coalesce(sum(end-start),0) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start IS NOT NULL AND end IS NOT NULL"),
			q("SELECT coalesce(sum(correlationId),0) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start IS NOT NULL AND end IS NOT NULL")})
		ops, err := events.LaunchedOps(t.Context(), p.Profile)
		if err != nil {
			t.Fatal(err)
		}
		got := map[events.OpKind]*[3]int64{}
		for _, o := range ops {
			if got[o.Kind] == nil {
				got[o.Kind] = &[3]int64{}
			}
			g := got[o.Kind]
			g[0], g[1] = g[0]+1, g[1]+o.Correlation
			if o.Pageable {
				g[2]++
			}
		}
		for kind, table := range map[events.OpKind]string{events.OpKernel: "CUPTI_ACTIVITY_KIND_KERNEL", events.OpMemcpy: "CUPTI_ACTIVITY_KIND_MEMCPY",
			events.OpMemset: "CUPTI_ACTIVITY_KIND_MEMSET", events.OpGraph: "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"} {
			var want [3]int64
			if has(table) {
				where := " FROM " + table + " WHERE start IS NOT NULL AND end IS NOT NULL"
				want = [3]int64{q("SELECT count(*)" + where), q("SELECT coalesce(sum(correlationId),0)" + where), 0}
				if kind == events.OpMemcpy {
					want[2] = q("SELECT count(*)" + where + " AND (srcKind = 0 OR dstKind = 0)")
				}
			}
			g := got[kind]
			if g == nil {
				g = &[3]int64{}
			}
			check(table, *g, want)
		}
		syncs, err := events.Syncs(t.Context(), p.Profile)
		if err != nil {
			t.Fatal(err)
		}
		c = [3]int64{}
		for _, s := range syncs {
			c[0], c[1], c[2] = c[0]+1, c[1]+s.Correlation, c[2]+s.Stream
		}
		if has("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION") {
			check("syncs", c, [3]int64{q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"),
				q("SELECT coalesce(sum(correlationId),0) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"),
				q("SELECT coalesce(sum(coalesce(streamId,-1)),0) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")})
		}
		recs, err := events.EventRecords(t.Context(), p.Profile)
		if err != nil {
			t.Fatal(err)
		}
		c = [3]int64{}
		for _, r := range recs {
			c[0], c[1], c[2] = c[0]+1, c[1]+r.Correlation, c[2]+r.EventID
		}
		if has("CUPTI_ACTIVITY_KIND_CUDA_EVENT") {
			check("event records", c, [3]int64{q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT"),
				q("SELECT coalesce(sum(correlationId),0) FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT"),
				q("SELECT coalesce(sum(coalesce(eventId,-1)),0) FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT")})
		}
		rs, err := events.NVTXRanges(t.Context(), p.Profile, events.RangeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c = [3]int64{}
		for _, r := range rs.List {
			c[0], c[1] = c[0]+1, c[1]+r.End-r.Start
		}
		const ranges = " FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND start IS NOT NULL AND end IS NOT NULL"
		if has("NVTX_EVENTS") {
			check("NVTX ranges", c, [3]int64{q("SELECT count(*)" + ranges), q("SELECT coalesce(sum(end-start),0)" + ranges), 0})
		}
		// iterations: this data names them "iteration N" or "step", never nested
		its := rs.Iterations(regexp.MustCompile(events.DefaultIterations))
		c = [3]int64{int64(len(its))}
		for _, it := range its {
			c[1] += it.End - it.Start
		}
		if has("NVTX_EVENTS") {
			iter := ranges + " AND (coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) GLOB 'iteration [0-9]*'" +
				" OR coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) = 'step')"
			want := [3]int64{q("SELECT count(*)" + iter), q("SELECT coalesce(sum(end-start),0)" + iter), 0}
			if want[0] < 2 {
				want = [3]int64{}
			}
			check("iterations", c, want)
		}
		p.Close()
	}
}
