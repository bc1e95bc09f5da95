package events_test

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// TestGPUOps checks the GPU operation view against SQLite on every shipped
// profile: per kind, the count of operations with a start and an end, the
// sum of their durations and of their devices, streams and process ids,
// and the kernels with a short name.
func TestGPUOps(t *testing.T) {
	for _, name := range testutil.Profiles {
		path := testutil.Profile(t, name)
		p, err := nsysx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := events.GPUOps(t.Context(), p.Profile, true)
		p.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		type sums struct{ n, dur, dev, stream, pid, named int64 }
		got := map[events.OpKind]*sums{events.OpKernel: {}, events.OpMemcpy: {}, events.OpMemset: {}}
		for _, o := range ops {
			s := got[o.Kind]
			s.n++
			s.dur += o.End - o.Start
			s.dev += o.Device
			s.stream += o.Stream
			s.pid += o.Process.PID()
			if o.Name >= 0 {
				s.named++
			}
		}
		for kind, table := range map[events.OpKind]string{events.OpKernel: "CUPTI_ACTIVITY_KIND_KERNEL", events.OpMemcpy: "CUPTI_ACTIVITY_KIND_MEMCPY", events.OpMemset: "CUPTI_ACTIVITY_KIND_MEMSET"} {
			if sqlitecopy.Int64(t, path, "SELECT count(*) FROM sqlite_master WHERE name = ?", table) == 0 {
				if got[kind].n != 0 {
					t.Errorf("%s: %d operations of an absent table %s", name, got[kind].n, table)
				}
				continue
			}
			where := " FROM " + table + " WHERE start IS NOT NULL AND end IS NOT NULL"
			want := sums{
				n:      sqlitecopy.Int64(t, path, "SELECT count(*)"+where),
				dur:    sqlitecopy.Int64(t, path, "SELECT coalesce(sum(end - start), 0)"+where),
				dev:    sqlitecopy.Int64(t, path, "SELECT coalesce(sum(deviceId), 0)"+where),
				stream: sqlitecopy.Int64(t, path, "SELECT coalesce(sum(streamId), 0)"+where),
				pid:    sqlitecopy.Int64(t, path, "SELECT coalesce(sum((globalPid >> 24) & 16777215), 0)"+where),
			}
			if kind == events.OpKernel {
				want.named = sqlitecopy.Int64(t, path, "SELECT count(shortName)"+where)
			}
			if *got[kind] != want {
				t.Errorf("%s %s: view %+v, SQLite %+v", name, table, *got[kind], want)
			}
		}
	}
}
